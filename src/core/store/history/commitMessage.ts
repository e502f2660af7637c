/**
 * The messages of Lore's commits, typed as the Autopoiesis spec (§3.2) types them:
 * `conversation:` a transcript kept, `extract:` knowledge distilled from conversations,
 * `memory:` items written or changed by a person or an agent, `maintenance:` undo, healing,
 * pruning. The body names the sources (conversations, agents), one per line, so `lore history`
 * and `git log` can say where a change came from.
 */
import type { ItemCounts } from '../../model/categories';

export type ChangeType = 'memory' | 'conversation' | 'maintenance' | 'extract';

/** One change a writer made, before it is committed (several may go into one commit). */
export interface StoreChange {
  type: ChangeType;
  /** The summary, without the type: "3 items from 2 conversations". */
  subject: string;
  /** Lines of the body: what changed, `Conversation: ID (transcript)`, `Source: agent`. */
  body?: string[];
  /** Store-relative paths a `conversation:` commit takes (the transcripts); others take the store. */
  paths?: string[];
}

/** Lines of a body at most (a harvest of hundreds of conversations names the first ones). */
const MAX_BODY_LINES = 60;

/** Subject and body of one commit of `changes` (none: the person's edits in the store). */
export function combineChanges(changes: readonly StoreChange[]): { subject: string; body?: string } {
  if (changes.length === 0) return { subject: 'memory: edits in the store' };
  const types = new Set(changes.map((c) => c.type));
  const type = types.size === 1 ? changes[0].type : types.has('extract') ? 'extract' : 'memory';
  if (changes.length === 1) return { subject: `${type}: ${changes[0].subject}`, ...bodyOf(changes[0].body ?? []) };
  const lines = changes.flatMap((c) => [`${c.type}: ${c.subject}`, ...(c.body ?? []).map((l) => `  ${l}`)]);
  return { subject: `${type}: ${changes.length} changes (${changes[0].subject}, …)`, ...bodyOf(lines) };
}

function bodyOf(lines: string[]): { body?: string } {
  if (lines.length === 0) return {};
  const kept = lines.length > MAX_BODY_LINES ? [...lines.slice(0, MAX_BODY_LINES), `… and ${lines.length - MAX_BODY_LINES} more`] : lines;
  return { body: kept.join('\n') };
}

const COUNT_LABELS: Array<[keyof ItemCounts, string]> = [
  ['facts', 'fact'],
  ['decisions', 'decision'],
  ['tasks_open', 'open task'],
  ['tasks_done', 'done task'],
  ['questions', 'question'],
  ['playbooks', 'playbook'],
  ['files', 'file note'],
];

/** "2 facts, 1 decision…" of item counts (empty when none). */
export function describeCounts(counts: ItemCounts): string {
  return COUNT_LABELS.filter(([key]) => counts[key] > 0)
    .map(([key, label]) => `${counts[key]} ${label}${counts[key] === 1 ? '' : 's'}`)
    .join(', ');
}

/** The body line naming a conversation (what history reads back). */
export function conversationLine(id: string, transcript?: string): string {
  return `Conversation: ${id}${transcript ? ` (${transcript})` : ''}`;
}

/** The conversation ids a commit body names. */
export function conversationsOf(body: string): string[] {
  return [...body.matchAll(/^\s*Conversation: (\S+)/gm)].map((m) => m[1]);
}
