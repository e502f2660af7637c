/**
 * Parses one topic file into a Topic, or says what is wrong with it: the file, the line of the
 * frontmatter the problem is on (a bad regex, a YAML error, a field of the wrong type) and why.
 * This is the part with the YAML parser and zod; topicBuild.ts does the rest.
 */
import { parseFrontmatter } from '../../base/yamlFrontmatter';
import { buildTopic, describeIssue, frontmatterLines } from './topicBuild';
import { topicFrontmatterSchema, type TopicFrontmatter } from './topicSchema';
import type { Topic, TopicProblem } from './topicTypes';

/** The validated frontmatter and the body of a topic file, or its problem. */
export function parseTopicData(file: string, text: string): { meta: TopicFrontmatter; content: string } | TopicProblem {
  const lines = frontmatterLines(text);
  if (!lines.length) return { file, line: 1, message: 'no frontmatter: a topic file starts with --- and its triggers' };
  let parsed: { data: Record<string, unknown>; content: string };
  try {
    parsed = parseFrontmatter(text.replace(/^\ufeff/, ''));
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = ((error as { reason?: string }).reason ?? (error as Error).message).split('\n')[0];
    return { file, line: mark?.line === undefined ? undefined : mark.line + 2, message: `frontmatter is not valid YAML: ${reason}` };
  }
  const result = topicFrontmatterSchema.safeParse(parsed.data ?? {});
  if (!result.success) return { file, ...describeIssue(result.error, lines) };
  return { meta: result.data, content: parsed.content };
}

/**
 * Parses a topic file's text. `file` is its store-relative path (`topics/x.md`), used in
 * problems and as the topic's name.
 */
export function parseTopic(file: string, text: string): Topic | TopicProblem {
  const data = parseTopicData(file, text);
  return 'message' in data ? data : buildTopic(file, text, data.meta, data.content);
}
