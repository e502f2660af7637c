/**
 * Turns a topic file's validated frontmatter and body into a Topic: compiles the triggers, checks
 * the patterns and subscriptions, and names the frontmatter line of a problem. Free of the YAML
 * parser and of zod, so topics whose parsed frontmatter is cached (topicCache.ts) cost neither.
 */
import * as path from 'node:path';
import type { ZodError } from 'zod';
import { normalizeBlock } from '../context/buildContext';
import { sha256Hash } from '../../base/lazyCrypto';
import { globToRegExp } from './globMatch';
import { foldKeyword } from './keywordMatch';
import { GuardedPattern, patternProblem } from './safeRegex';
import type { TopicFrontmatter } from './topicSchema';
import type { Topic, TopicProblem, TopicTrigger } from './topicTypes';

/** Topic file names: a plain name and `.md`, so a name is safe in a cache key and a log line. */
export const TOPIC_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.md$/;

/** The frontmatter's lines with their 1-based line numbers in the file (`---` is line 1). */
export function frontmatterLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return [];
  const end = lines.indexOf('---', 1);
  return lines.slice(0, end === -1 ? lines.length : end);
}

/** The line of a top-level key, and of the n-th list item under it when `index` is given. */
export function lineOfPath(lines: string[], pathParts: readonly PropertyKey[]): number | undefined {
  const key = String(pathParts[0] ?? '');
  const keyLine = lines.findIndex((l) => l.startsWith(`${key}:`));
  if (keyLine === -1) return undefined;
  const index = pathParts[1];
  if (typeof index !== 'number') return keyLine + 1;
  let seen = -1;
  let itemIndent: number | undefined;
  for (let i = keyLine + 1; i < lines.length && !/^\S/.test(lines[i]); i++) {
    const item = /^(\s*)-(\s|$)/.exec(lines[i]);
    if (!item || (itemIndent !== undefined && item[1].length !== itemIndent)) continue;
    itemIndent = item[1].length;
    if (++seen === index) return i + 1;
  }
  return keyLine + 1;
}

/** The line where a pattern's text appears (as written, or escaped for YAML), if found. */
function lineOfText(lines: string[], value: string): number | undefined {
  const forms = [value, JSON.stringify(value).slice(1, -1), value.replace(/'/g, "''")];
  const at = lines.findIndex((l) => forms.some((f) => l.includes(f)));
  return at === -1 ? undefined : at + 1;
}

export function describeIssue(error: ZodError, lines: string[]): { line?: number; message: string } {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'frontmatter';
  return { line: issue ? lineOfPath(lines, issue.path) : undefined, message: `${where}: ${issue?.message ?? 'invalid'}` };
}

/** The first line of prose in the body, for the gate's prompt and listings. */
function firstProse(body: string): string {
  for (const line of body.split('\n')) {
    const text = line.replace(/^#+\s*/, '').trim();
    if (text) return text.slice(0, 200);
  }
  return '';
}

/** Why a subscription path is refused: it must stay inside the workspace. */
function subscriptionProblem(entry: string): string | undefined {
  if (path.isAbsolute(entry) || /^[A-Za-z]:/.test(entry)) return 'must be relative to the workspace';
  const normal = path.posix.normalize(entry.replace(/\\/g, '/'));
  if (normal === '..' || normal.startsWith('../')) return 'must not leave the workspace';
  return undefined;
}

/** The Topic of a file whose frontmatter is `meta` (validated) and body `content`, or its problem. */
export function buildTopic(file: string, text: string, meta: TopicFrontmatter, content: string): Topic | TopicProblem {
  const lines = frontmatterLines(text);
  const triggers: TopicTrigger[] = [];
  for (const [i, trigger] of meta.triggers.entries()) {
    if ('pattern' in trigger) {
      const problem = patternProblem(trigger.pattern);
      if (problem)
        return {
          file,
          line: lineOfText(lines, trigger.pattern) ?? lineOfPath(lines, ['triggers', i]),
          message: `triggers.${i}.pattern ${JSON.stringify(trigger.pattern)}: ${problem}`,
        };
      triggers.push({ kind: 'pattern', scope: trigger.scope, pattern: new GuardedPattern(trigger.pattern) });
    } else if ('keywords' in trigger) {
      triggers.push({
        kind: 'keywords',
        scope: trigger.scope,
        keywords: trigger.keywords,
        folded: [...new Set(trigger.keywords.map(foldKeyword))],
      });
    } else {
      triggers.push({ kind: 'glob', scope: trigger.scope, glob: trigger.glob, pattern: globToRegExp(trigger.glob) });
    }
  }
  for (const [i, entry] of meta.subscriptions.entries()) {
    const problem = subscriptionProblem(entry);
    if (problem)
      return {
        file,
        line: lineOfText(lines, entry) ?? lineOfPath(lines, ['subscriptions', i]),
        message: `subscriptions.${i} ${JSON.stringify(entry)}: ${problem}`,
      };
  }
  const body = normalizeBlock(content);
  return {
    name: path.posix.basename(file, '.md'),
    file,
    description: meta.description?.trim() || firstProse(body),
    body,
    triggers,
    similarityThreshold: meta.similarity_threshold,
    subscriptions: meta.subscriptions.map((s) => path.posix.normalize(s.replace(/\\/g, '/'))),
    activation: meta.activation,
    priority: meta.priority,
    maxContextBytes: Math.round(meta.max_context_kb * 1024),
    hash: sha256Hash().update(text).digest('hex').slice(0, 16),
  };
}

/** True for a parse result that is a problem. */
export function isTopicProblem(value: Topic | TopicProblem): value is TopicProblem {
  return !('triggers' in value);
}
