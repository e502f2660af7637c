/**
 * "Why this context": compiles the context of a message (digest, notes of the files in scope,
 * the topics the message activates, matching items, the discussion's earlier turns) within a
 * token budget, and reports per slot what was included and cut and per topic which tier fired
 * and why. One function behind `lore context`, the editor's **Lore: Why This Context?**, @lore's
 * prompts (through the language server) and the MCP prompts.
 */
import * as path from 'node:path';
import { redactSecrets } from '../../model/safety/redact';
import { escapeMarkdown, fenceFor } from '../../base/markdownEscape';
import { workspaceRelative, type StorePaths } from '../../store/storePaths';
import type { TopicGate } from './topicGate';
import type { TopicDecision } from './activateTopics';
import type { TopicContext } from './topicContext';
import { DEFAULT_ROLE_INSTRUCTIONS } from '../context/buildContext';
import type { CompiledContext } from '../context/compileContext';
import type { ContextInput, EarlierTurn, FileNotesInput } from '../promptCache/contextLayers';
import { loadContextInputs } from '../context/loadContextInputs';
import { lazy } from '../../base/lazy';

const topicContextModule = lazy(() => require('./topicContext') as typeof import('./topicContext'));
const topicGateModule = lazy(() => require('./topicGate') as typeof import('./topicGate'));
const compileContextModule = lazy(() => require('../context/compileContext') as typeof import('../context/compileContext'));
const pendingTopicsModule = lazy(() => require('./pendingTopics') as typeof import('./pendingTopics'));

export interface ExplainRequest {
  message: string;
  /** Files in scope: absolute, or relative to the workspace. */
  files?: readonly string[];
  /** Topics activated by name. */
  named?: readonly string[];
  budgetTokens: number;
  /** Tier 3; without it gated topics follow the no-gate rows. */
  gate?: TopicGate;
  /** Why there is no gate, for the topics' reasons. */
  noGateReason?: string;
  /** Who asks, for the gate log (`cli`, `vscode`). */
  via: string;
  /**
   * The knowledge items matching the message (P3), given what the digest and notes already show;
   * none without it. Passed in so that a caller without the search engine (the editor, whose
   * search runs in the language server) does not bundle it.
   */
  hits?: (digest: string | undefined, fileNotes: FileNotesInput[]) => string[] | Promise<string[]>;
  /**
   * The session (a hook's session id, an @lore discussion): the topics its output watchers left
   * for this turn (pendingTopics) are taken, so they are injected once.
   */
  sessionId?: string;
  /** Only look at the session's pending topics, leaving them for its next turn (`lore context --session`: a person looking). */
  keepPending?: boolean;
  /** The discussion this turn belongs to, and its earlier turns (P4). */
  discussion?: ContextInput['discussion'];
  earlierTurns?: readonly EarlierTurn[];
  /** Role instructions (default DEFAULT_ROLE_INSTRUCTIONS). */
  role?: string;
}

export interface ExplainedContext {
  compiled: CompiledContext;
  topics: TopicContext;
  /** Files in scope that do not exist (as given). */
  missingFiles: string[];
  /** Whether digest.md exists. */
  hasDigest: boolean;
  /** The notes of files in scope that are in the text (redacted), per file. */
  fileNotes: FileNotesInput[];
}

/** Compiles the context of a message and how it came about. */
export async function explainContext(paths: StorePaths, request: ExplainRequest): Promise<ExplainedContext> {
  // Loaded on use: the topics do not belong to a command's start-up.
  const { topicContext } = topicContextModule();
  const { GateMemo } = topicGateModule();
  const { compileContext } = compileContextModule();
  const loaded = loadContextInputs(paths, { files: request.files, message: request.message || undefined });
  const inScope = (request.files ?? [])
    .filter((f) => !loaded.missingFiles.includes(f))
    .map((f) => workspaceRelative(paths, path.resolve(paths.workspace, f)));
  const { peekPendingTopics, takePendingTopics } = pendingTopicsModule();
  const pending = !request.sessionId
    ? []
    : request.keepPending
      ? peekPendingTopics(paths, request.sessionId)
      : takePendingTopics(paths, request.sessionId);
  const topics = await topicContext(
    paths,
    { message: request.message, files: inScope, named: request.named, pending },
    { gate: request.gate, memo: request.gate ? GateMemo.forStore(paths) : undefined, noGateReason: request.noGateReason, via: request.via },
  );
  const digest = loaded.digest === undefined ? undefined : redactSecrets(loaded.digest);
  const fileNotes = (loaded.fileNotes ?? []).map((f) => ({ path: f.path, notes: f.notes.map(redactSecrets) }));
  const searchHits = request.message && request.hits ? await request.hits(digest, fileNotes) : [];
  const compiled = compileContext(
    {
      role: request.role ?? DEFAULT_ROLE_INSTRUCTIONS,
      digest,
      fileNotes,
      topics: topics.topics.map((t) => ({ ...t, instructions: redactSecrets(t.instructions) })),
      activeFiles: loaded.activeFiles,
      searchHits: searchHits.map(redactSecrets),
      discussion: request.discussion,
      earlierTurns: request.earlierTurns?.map((t) => ({ ...t, text: redactSecrets(t.text) })),
      message: loaded.message === undefined ? undefined : redactSecrets(loaded.message),
    },
    { budgetTokens: request.budgetTokens },
  );
  const notesIn = fileNotes
    .map((f) => ({ path: f.path, notes: f.notes.filter((n) => compiled.text.includes(n)) }))
    .filter((f) => f.notes.length);
  return { compiled, topics, missingFiles: loaded.missingFiles, hasDigest: loaded.digest !== undefined, fileNotes: notesIn };
}

/** The report as JSON (what `lore context --json` prints). */
export function explanationJson(explained: ExplainedContext): Record<string, unknown> {
  const { compiled, topics } = explained;
  return {
    text: compiled.text,
    stablePrefixLength: compiled.stablePrefixLength,
    stablePrefixBytes: compiled.stablePrefixBytes,
    units: {
      stablePrefixLength: 'utf16-code-units',
      stablePrefixBytes: 'utf8-bytes',
      'boundaries.start/end': 'utf16-code-units',
      'boundaries.startByte/endByte': 'utf8-bytes',
      tokens: 'utf8-bytes / 4',
    },
    boundaries: compiled.boundaries,
    budgetTokens: compiled.budgetTokens,
    tokens: compiled.tokens,
    slots: compiled.slots,
    hits: compiled.searchHits,
    topics: {
      active: topics.activation.active.map((a) => ({ name: a.topic.name, tier: a.tier, reason: a.reason })),
      decisions: topics.activation.decisions,
      problems: topics.problems,
      subscriptionProblems: topics.subscriptionProblems,
      gate: topics.activation.gate,
      slowPatterns: topics.activation.slowPatterns,
    },
  };
}

/** A decision's tier-1 match, in words (escaped). */
function matchOf(d: TopicDecision): string {
  if (!d.tier1) return 'none';
  return `${d.tier1.kind} ${escapeMarkdown(d.tier1.trigger)} on “${escapeMarkdown(d.tier1.matched)}”`;
}

/**
 * The report as markdown, for a person (the editor command): slots, the scored knowledge (P3),
 * the topics with their decisions, then the context itself. Everything that comes from the store,
 * a topic file or the message is escaped (it is data, never markup); the context is in a fence
 * no backtick run of it can close.
 */
export function explanationMarkdown(explained: ExplainedContext, message: string): string {
  const { compiled, topics } = explained;
  const cell = (text: string) => escapeMarkdown(text);
  const lines = [
    `# Why this context`,
    '',
    `Message: ${cell(message.replace(/\s+/g, ' ').slice(0, 200)) || '(none)'}`,
    '',
    `${compiled.tokens} of ${compiled.budgetTokens} tokens (UTF-8 bytes / 4); the stable prefix is ${compiled.stablePrefixBytes} bytes.`,
    '',
  ];
  lines.push('## Slots', '', '| slot | what | bytes | included | cut |', '|---|---|---:|---:|---|');
  for (const s of compiled.slots)
    lines.push(
      `| ${s.slot} | ${s.name} | ${s.bytes} | ${s.included} | ${
        s.cut.length
          ? s.cut
              .map((c) => `${cell(c.label)} (${c.bytes} B, ${c.why})`)
              .slice(0, 10)
              .join('; ') + (s.cut.length > 10 ? `; … ${s.cut.length - 10} more` : '')
          : ''
      } |`,
    );
  lines.push('', '## Scored knowledge (P3)', '');
  if (!compiled.searchHits.length)
    lines.push(
      message.trim() ? 'No knowledge item matches the message beyond what the digest and the notes show.' : 'No message, so no search.',
    );
  for (const hit of compiled.searchHits) lines.push(`- ${cell(hit.replace(/^- /, ''))}`);
  lines.push('', '## Topics', '');
  if (!topics.activation.decisions.length) lines.push('No topic fired for this message.');
  else lines.push('| topic | activation | tier | tier-1 match | tier-2 score | gate | why |', '|---|---|---|---|---:|---|---|');
  for (const d of topics.activation.decisions) {
    const tier = d.active ? `active, tier ${d.tier}` : 'not active';
    lines.push(
      `| **${cell(d.topic)}** | ${d.activation}, ${d.priority} | ${tier} | ${matchOf(d)} | ${d.score.toFixed(3)} | ${d.gate}${d.cached ? ' (cached)' : ''} | ${cell(d.reason)} |`,
    );
  }
  if (!topics.activation.gate.available && topics.activation.gate.note) lines.push('', `Gate: ${cell(topics.activation.gate.note)}.`);
  if (topics.problems.length || topics.subscriptionProblems.length) lines.push('');
  for (const p of topics.problems) lines.push(`- ${cell(`${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`)} (skipped)`);
  for (const p of topics.subscriptionProblems) lines.push(`- subscription ${cell(p)}`);
  const text = compiled.text.trimEnd();
  const fence = fenceFor(text);
  lines.push('', '## The context', '', `${fence}text`, text, fence, '');
  return lines.join('\n');
}
