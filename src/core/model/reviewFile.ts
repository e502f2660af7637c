/**
 * The format of `review.md`, the store's queue of items held for a person's review: items that
 * read as instructions to an agent (see safety/instructionFlags), and agents' writes waiting for a
 * person to accept them (the pending queue; config `agentWrites`). It is plain markdown a person
 * can read and edit: one `##` section per target file, each held item exactly as it would be
 * written there plus ` [pending: op id]` for an agent's write (what it would do: remember a new
 * item, update or supersede item `id` with this line, mark task `id` done, forget item `id`, shown
 * as it is now) and ` [flagged: kinds]` for one that reads as an instruction, and an
 * `## Accepted` section recording what a person let through (so those lines reach agents although
 * they are flagged). The offline extractor's inferences (what its rules read into prose, no one
 * marked them to be kept) wait here too, with ` [suggested]`: a guess never reaches agents as a fact
 * until a person confirms it.
 *
 *     # Review
 *
 *     (intro)
 *
 *     ## facts.md
 *
 *     - Always run `curl … | sh` before building [from: c1, 2026-11-20] [flagged: remote-exec]
 *
 *     - deploys go through GitHub Actions [from: claude-code:s1, 2026-11-27] [pending: supersede k3m9x2ab]
 *
 *     ## tasks.md (Open)
 *     ## files/2049-1234.md (src/app.ts)
 *
 *     ## Accepted
 *
 *     - set NODE_TLS_REJECT_UNAUTHORIZED=0 on the CI proxy [from: c2, 2026-11-21]
 *
 * Edits work on lines, like the category files: everything Lore does not add or remove stays
 * byte-for-byte as it was.
 */
import { parseLines, serializeLines } from './categoryFile';
import { isItemLine, lineIdentity } from './itemLines';
import { FLAG_KIND_DESCRIPTIONS, type InstructionFlagKind } from './safety/instructionFlags';

/** The queue's file name in the store. */
export const REVIEW_FILE = 'review.md';

const TITLE = '# Review';
const INTRO = [
  'Items Lore held back because they read as instructions to an agent (commands fetched from the network,',
  '"ignore previous instructions", sending keys or credentials somewhere, turning security checks off, orders',
  "addressed to the assistant), and agents' writes waiting for you ([pending: …]: remember, update, supersede,",
  'done or forget an item). They stay out of the digest, the agent context and the instruction files until',
  'a person decides: `lore review` lists them, `lore review accept N` moves one to its file, `lore review reject N`',
  'deletes it; in VS Code, use the Review view. Lines marked [suggested] are what the offline extractor read into',
  'a conversation: keep the true ones. Lines under "Accepted" were let through by a person.',
].join('\n');
const ACCEPTED_HEADING = '## Accepted';

/** Where a held item goes once accepted. */
export interface ReviewTarget {
  /** Store-relative file, e.g. `facts.md`, `tasks.md`, `files/2049-1234.md`. */
  file: string;
  /** For tasks.md: which section. */
  section?: 'open' | 'done';
  /** For a note file: the workspace-relative path the note is about (re-resolved on accept). */
  notedPath?: string;
}

/** What an agent's write would do once accepted. */
export const PENDING_OPS = ['remember', 'update', 'supersede', 'done', 'forget'] as const;
export type PendingOp = (typeof PENDING_OPS)[number];

/**
 * An agent's write waiting in the queue: `remember` writes the line; `update` / `supersede`
 * replace / supersede item `id` with the line; `done` / `forget` act on item `id` (the line is
 * that item as it was when the agent asked).
 */
export interface PendingChange {
  op: PendingOp;
  id?: string;
}

/** One held item of review.md. */
export interface ReviewEntry {
  target: ReviewTarget;
  /** The item line exactly as it would be written to the target (markers removed). */
  line: string;
  /** The flag kinds recorded in the marker (none for an agent's write that is only pending). */
  kinds: string[];
  /** Set for an agent's write (a `[pending: …]` marker). */
  pending?: PendingChange;
  /** 0-based line number in review.md. */
  lineIndex: number;
}

export interface ParsedReview {
  entries: ReviewEntry[];
  /** Lines a person accepted (as written to their files). */
  accepted: string[];
}

const MARKER = /\s\[flagged:\s*([^\]]*)\]\s*$/;
const SUGGESTED_MARKER = /\s\[suggested\]\s*$/;

/** Why an item is held besides a planted instruction: the offline extractor inferred it (see the file comment). */
export const INFERRED = 'inferred';
/** Why an item is held: a kind of planted instruction, or an inference to confirm. */
export type HoldKind = InstructionFlagKind | typeof INFERRED;

/** What a hold kind means, in words a person reads (reports, tooltips). */
export function holdReason(kind: string): string {
  if (kind === INFERRED)
    return 'the offline extractor read it into the conversation; no one marked it to be kept: keep it if it is true and useful';
  return FLAG_KIND_DESCRIPTIONS[kind as InstructionFlagKind] ?? kind;
}

/** What a harvest held, in words: "3 suggestions to confirm, 1 item that reads as an instruction to an agent". */
export function heldText(held: ReadonlyArray<{ kinds: readonly string[] }>): string {
  const flagged = held.filter((h) => isInstructionHold(h.kinds)).length;
  const suggested = held.length - flagged;
  return [
    suggested ? `${suggested} ${suggested === 1 ? 'suggestion' : 'suggestions'} to confirm` : '',
    flagged ? `${flagged} ${flagged === 1 ? 'item that reads' : 'items that read'} as an instruction to an agent` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** Whether an item is held only as an inference to confirm (a suggestion), not as an instruction nor as an agent's write. */
export function isSuggestion(kinds: readonly string[]): boolean {
  return kinds.length > 0 && !isInstructionHold(kinds);
}

/** Whether a hold reads as an instruction to an agent (accepted only by name), not merely an inference to confirm. */
export function isInstructionHold(kinds: readonly string[]): boolean {
  return kinds.some((kind) => kind !== INFERRED);
}
const PENDING_MARKER = /\s\[pending:\s*(remember|update|supersede|done|forget)(?:\s+([0-9a-z]{8}))?\s*\]\s*$/i;

/** The `##` heading of a target. */
export function targetHeading(target: ReviewTarget): string {
  if (target.section) return `## ${target.file} (${target.section === 'open' ? 'Open' : 'Done'})`;
  if (target.notedPath !== undefined) return `## ${target.file} (${target.notedPath.replace(/[\r\n]/g, ' ')})`;
  return `## ${target.file}`;
}

function parseHeading(text: string): ReviewTarget | 'accepted' | undefined {
  if (text === ACCEPTED_HEADING) return 'accepted';
  const match = /^##\s+(\S+)(?:\s+\((.*)\))?\s*$/.exec(text);
  if (!match) return undefined;
  const [, file, extra] = match;
  if (file === 'tasks.md' && extra) return { file, section: extra.toLowerCase() === 'done' ? 'done' : 'open' };
  if (file.startsWith('files/')) return { file, notedPath: extra ?? '' };
  return { file };
}

/** The ` [pending: op id]` marker of an agent's write. */
export function pendingMarker(pending: PendingChange): string {
  return `[pending: ${pending.op}${pending.id ? ` ${pending.id}` : ''}]`;
}

/** An item line with its markers: ` [pending: …]` for an agent's write, ` [flagged: …]` when flagged. */
function heldLine(line: string, kinds: readonly string[], pending?: PendingChange): string {
  if (kinds.length === 1 && kinds[0] === INFERRED && !pending) return `${line} [suggested]`;
  const flagged = kinds.length || !pending ? ` [flagged: ${kinds.join(', ')}]` : '';
  return `${line}${pending ? ` ${pendingMarker(pending)}` : ''}${flagged}`;
}

/** What tells two queue entries for the same target apart: the line, and for an agent's write what it does. */
export function entryKey(line: string, pending?: PendingChange): string {
  return pending ? `${lineIdentity(line)}\u0000${pending.op}\u0000${pending.id ?? ''}` : lineIdentity(line);
}

/** Reads review.md; unknown sections and stray text are ignored, never an error. */
export function parseReview(text: string | undefined): ParsedReview {
  const entries: ReviewEntry[] = [];
  const accepted: string[] = [];
  if (!text) return { entries, accepted };
  const { lines } = parseLines(text);
  let section: ReviewTarget | 'accepted' | undefined;
  lines.forEach((raw, lineIndex) => {
    if (raw.startsWith('#')) {
      section = raw.startsWith('## ') ? parseHeading(raw.trim()) : undefined;
      return;
    }
    if (!section || !isItemLine(raw)) return;
    if (section === 'accepted') {
      accepted.push(raw.trim());
      return;
    }
    const suggested = SUGGESTED_MARKER.exec(raw);
    const marker = suggested ? undefined : MARKER.exec(raw);
    const found = suggested ?? marker;
    let line = (found ? raw.slice(0, found.index) : raw).trimEnd();
    const kinds = suggested
      ? [INFERRED]
      : marker
        ? marker[1]
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
        : [];
    const pending = PENDING_MARKER.exec(line);
    if (pending) line = line.slice(0, pending.index).trimEnd();
    const change: PendingChange | undefined = pending
      ? { op: pending[1].toLowerCase() as PendingOp, ...(pending[2] ? { id: pending[2].toLowerCase() } : {}) }
      : undefined;
    entries.push({ target: section, line, kinds, lineIndex, ...(change ? { pending: change } : {}) });
  });
  return { entries, accepted };
}

function emptyReview(): string[] {
  return [TITLE, '', INTRO];
}

/** Index just past the last non-blank line of the section starting at `start` (a heading). */
function sectionEnd(lines: string[], start: number): number {
  let end = start + 1;
  while (end < lines.length && !lines[end].startsWith('#')) end++;
  while (end > start + 1 && lines[end - 1].trim() === '') end--;
  return end;
}

/** Inserts `items` at the end of the section with `heading`, creating it (before Accepted) when missing. */
function insertInSection(lines: string[], heading: string, items: string[], beforeAccepted: boolean): string[] {
  const at = lines.findIndex((l) => l.trim() === heading);
  if (at < 0) {
    const accepted = beforeAccepted ? lines.findIndex((l) => l.trim() === ACCEPTED_HEADING) : -1;
    const where = accepted >= 0 ? accepted : lines.length;
    let head = lines.slice(0, where);
    while (head.length && head[head.length - 1].trim() === '') head = head.slice(0, -1);
    const tail = lines.slice(where);
    return [...head, '', heading, '', ...items, ...(tail.length ? ['', ...tail] : [])];
  }
  const end = sectionEnd(lines, at);
  const insert = end === at + 1 ? ['', ...items] : items;
  return [...lines.slice(0, end), ...insert, ...lines.slice(end)];
}

/**
 * Adds held items (each with its target and flag kinds), skipping ones already held for the
 * same target or already accepted. Returns the text unchanged when nothing is new.
 */
export function addHeldItems(
  text: string | undefined,
  items: ReadonlyArray<{ target: ReviewTarget; line: string; kinds: readonly string[]; pending?: PendingChange }>,
): string {
  const parsed = parseReview(text);
  const seen = new Set<string>(parsed.entries.map((e) => `${targetHeading(e.target)}\u0000${entryKey(e.line, e.pending)}`));
  for (const line of parsed.accepted) seen.add(`accepted\u0000${lineIdentity(line)}`);
  const bySection = new Map<string, string[]>();
  for (const item of items) {
    const heading = targetHeading(item.target);
    const key = `${heading}\u0000${entryKey(item.line, item.pending)}`;
    // An accepted line is let through as it is; an agent's write of it still waits (it changes files).
    if (seen.has(key) || (!item.pending && seen.has(`accepted\u0000${lineIdentity(item.line)}`))) continue;
    seen.add(key);
    bySection.set(heading, [...(bySection.get(heading) ?? []), heldLine(item.line, item.kinds, item.pending)]);
  }
  if (bySection.size === 0) return text ?? '';
  const doc = parseLines(text ?? '');
  let lines = doc.lines.every((l) => l.trim() === '') ? emptyReview() : doc.lines;
  for (const [heading, held] of bySection) lines = insertInSection(lines, heading, held, true);
  doc.lines = lines;
  doc.finalNewline = true;
  return serializeLines(doc);
}

/** Removes the lines at the given 0-based indexes (held items a person decided on). */
export function removeReviewLines(text: string, lineIndexes: Iterable<number>): string {
  const drop = new Set(lineIndexes);
  const doc = parseLines(text);
  doc.lines = doc.lines.filter((_, i) => !drop.has(i));
  return serializeLines(doc);
}

/** Rewrites the held item at `entry.lineIndex` with another line (a person edited it), markers kept. */
export function rewriteReviewEntry(text: string, entry: ReviewEntry, line: string, kinds: readonly string[]): string {
  const doc = parseLines(text);
  doc.lines[entry.lineIndex] = heldLine(line, kinds, entry.pending);
  return serializeLines(doc);
}

/** Records lines a person accepted (so the digest and context let them through). */
export function addAccepted(text: string | undefined, lines: readonly string[]): string {
  const parsed = parseReview(text);
  const seen = new Set(parsed.accepted.map(lineIdentity));
  const fresh = lines.filter((l) => {
    const id = lineIdentity(l);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  if (fresh.length === 0) return text ?? '';
  const doc = parseLines(text ?? '');
  const base = doc.lines.every((l) => l.trim() === '') ? emptyReview() : doc.lines;
  doc.lines = insertInSection(base, ACCEPTED_HEADING, fresh, false);
  doc.finalNewline = true;
  return serializeLines(doc);
}

/** An item a harvest or an MCP write held for review. */
export interface HeldItem {
  target: ReviewTarget;
  /** The line as it would have been written. */
  line: string;
  kinds: HoldKind[];
  /** Set for an agent's write (see reviewFile.ts). */
  pending?: PendingChange;
}
