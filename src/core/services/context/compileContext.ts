/**
 * The context compiler (Autopoiesis §6): fills a token budget by priority slot, inside the
 * stable → volatile layers of buildContext.
 *
 * | slot | what                                   | layer(s)                       | part     |
 * |------|----------------------------------------|--------------------------------|----------|
 * | P0   | role, project; the turn's message      | role, project, active-files, discussion, message | fixed, never cut |
 * | P1   | the digest, notes of files in scope    | knowledge, file-notes          | stable   |
 * | P2   | active topics and their subscriptions  | topics                         | stable   |
 * | P3   | scored knowledge (search hits)         | search-hits                    | volatile |
 * | P4   | session history, newest first          | earlier-turns                  | volatile |
 *
 * Slots are filled in order, each from what the higher ones left; within a slot items go in the
 * order given (rank, priority) and an item that does not fit is cut and recorded (P4 stops at
 * the first turn that does not fit: a window has no holes). The digest is cut at a line when it
 * does not fit whole. A topic's instructions and subscriptions share its own max_context_kb.
 *
 * Tokens are estimated as UTF-8 bytes / 4 (no tokenizer: the estimate is the same for every
 * vendor and costs nothing). The output is a pure function of the input: no clock, no
 * iteration over unordered data, so identical inputs give identical bytes.
 */
import { BYTES_PER_TOKEN } from '../../model/constants';
import { KNOWLEDGE_FRAMING } from '../../model/safety/dataFraming';
import { estimateTokens } from '../../model/tokens';
import { buildContext, normalizeBlock, renderTopic } from './buildContext';
import type { BuiltContext, ContextInput, ContextLayer, EarlierTurn, FileNotesInput, TopicInput } from '../promptCache/contextLayers';

import { DEFAULT_BUDGET_TOKENS } from './constants';

export { DEFAULT_BUDGET_TOKENS };

export const SLOTS = ['P0', 'P1', 'P2', 'P3', 'P4'] as const;
export type Slot = (typeof SLOTS)[number];

const SLOT_OF_LAYER: Record<ContextLayer, Slot> = {
  role: 'P0',
  tools: 'P0',
  project: 'P0',
  discussion: 'P0',
  'active-files': 'P0',
  message: 'P0',
  knowledge: 'P1',
  'file-notes': 'P1',
  topics: 'P2',
  'search-hits': 'P3',
  'earlier-turns': 'P4',
};

const SLOT_NAMES: Record<Slot, string> = {
  P0: 'fixed (role, project, this turn)',
  P1: 'session (digest, file notes)',
  P2: 'active topics and subscriptions',
  P3: 'scored knowledge',
  P4: 'session history',
};

/** A topic for the compiler: what buildContext renders, and its own byte cap. */
export interface CompileTopic extends TopicInput {
  maxBytes: number;
}

export interface CompileInput extends Omit<ContextInput, 'topics'> {
  topics?: readonly CompileTopic[];
}

export interface CompileOptions {
  /** Token budget (bytes / 4); default DEFAULT_BUDGET_TOKENS. */
  budgetTokens?: number;
  /** A hard cap in characters (UTF-16 units) on top of the budget, e.g. a hook's 10,000. */
  maxChars?: number;
}

/** Something left out for the budget. */
export interface CutItem {
  label: string;
  bytes: number;
  /** `budget` (no room left) or `topic-cap` (over the topic's max_context_kb). */
  why: 'budget' | 'topic-cap';
}

export interface SlotReport {
  slot: Slot;
  name: string;
  /** UTF-8 bytes of the slot's layers in the text (separators between layers not counted). */
  bytes: number;
  /** Items included (digest, notes, topics, subscriptions, hits, turns). */
  included: number;
  cut: CutItem[];
}

export interface CompiledContext extends BuiltContext {
  budgetTokens: number;
  /** The estimate for the whole text. */
  tokens: number;
  slots: SlotReport[];
  /** The scored knowledge items (P3) included, best first. */
  searchHits: string[];
}

/** Room left, in both measures. */
class Room {
  constructor(
    public bytes: number,
    public chars: number,
  ) {}

  /** Takes `text` plus `overhead` characters if both fit. */
  take(text: string, overhead = 0): boolean {
    const bytes = Buffer.byteLength(text, 'utf8') + overhead;
    const chars = text.length + overhead;
    if (bytes > this.bytes || chars > this.chars) return false;
    this.bytes -= bytes;
    this.chars -= chars;
    return true;
  }

  /** The most characters of a text that fit (ASCII-exact, conservative for wider text). */
  fitting(overhead: number): number {
    return Math.max(0, Math.min(this.chars, Math.floor(this.bytes / 3)) - overhead);
  }
}

/** `{tag}\n…\n{/tag}\n` plus the blank line before it. */
function layerOverhead(tag: string, framed: boolean): number {
  return 2 * tag.length + 9 + (framed ? KNOWLEDGE_FRAMING.length + 1 : 0);
}

/** The start of a text cut at a line end to at most `max` characters, or '' when no line fits. */
function cutAtLine(text: string, max: number, marker: string): string {
  if (max <= marker.length + 1) return '';
  const end = text.lastIndexOf('\n', max - marker.length - 1);
  return end <= 0 ? '' : `${text.slice(0, end)}\n${marker}`;
}

/** The start of a text cut to `maxBytes` UTF-8 bytes at a line end, with a marker. */
function capBytes(text: string, maxBytes: number, marker: string): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  // Characters ≤ bytes, so cutting at maxBytes/… characters then checking converges quickly.
  let max = Math.min(text.length, maxBytes);
  let cut = cutAtLine(text, max, marker);
  while (cut && Buffer.byteLength(cut, 'utf8') > maxBytes) {
    max = Math.floor(max * 0.9);
    cut = cutAtLine(text, max, marker);
  }
  return cut;
}

interface Admitted {
  slot: Slot;
  label: string;
  bytes: number;
  /** Removes the item from the input being assembled. */
  remove: () => void;
}

/**
 * Compiles a context within the budget. Returns the built text with its boundaries, and per
 * slot the bytes, the items included and what was cut.
 */
export function compileContext(input: CompileInput, options: CompileOptions = {}): CompiledContext {
  const budgetTokens = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const maxChars = options.maxChars ?? Number.POSITIVE_INFINITY;
  const cuts: Record<Slot, CutItem[]> = { P0: [], P1: [], P2: [], P3: [], P4: [] };
  const included: Record<Slot, number> = { P0: 0, P1: 0, P2: 0, P3: 0, P4: 0 };
  const cut = (slot: Slot, label: string, text: string, why: CutItem['why'] = 'budget') =>
    cuts[slot].push({ label, bytes: Buffer.byteLength(text, 'utf8'), why });

  // P0: what is never cut.
  const fixed: ContextInput = {
    role: input.role,
    tools: input.tools,
    project: input.project,
    discussion: input.discussion,
    activeFiles: input.activeFiles,
    message: input.message,
  };
  const fixedText = buildContext(fixed).text;
  const room = new Room(budgetTokens * BYTES_PER_TOKEN - Buffer.byteLength(fixedText, 'utf8'), maxChars - fixedText.length);
  const admitted: Admitted[] = [];
  const out: ContextInput = { ...fixed };

  // P1: the digest (cut at a line when it does not fit whole), then the notes of files in scope.
  const digest = input.digest === undefined ? undefined : normalizeBlock(input.digest);
  if (digest !== undefined) {
    const overhead = layerOverhead('knowledge', true);
    if (room.take(digest, overhead)) out.digest = digest;
    else {
      const part = cutAtLine(digest, room.fitting(overhead), '(digest cut for the context budget; see .lore/digest.md)');
      if (part && room.take(part, overhead)) {
        out.digest = part;
        cut('P1', 'digest (the rest)', digest.slice(part.length));
      } else cut('P1', 'digest', digest);
    }
    if (out.digest !== undefined) {
      included.P1++;
      admitted.push({ slot: 'P1', label: 'digest', bytes: Buffer.byteLength(out.digest, 'utf8'), remove: () => (out.digest = undefined) });
    }
  }
  const notes: FileNotesInput[] = [];
  let notesOpen = false;
  for (const file of input.fileNotes ?? []) {
    const kept: string[] = [];
    for (const note of file.notes) {
      const overhead = (notesOpen ? 0 : layerOverhead('file-notes', true)) + (kept.length ? 0 : file.path.length + 6) + 3;
      if (room.take(note, overhead)) {
        notesOpen = true;
        kept.push(note);
        included.P1++;
        admitted.push({
          slot: 'P1',
          label: `note on ${file.path}`,
          bytes: Buffer.byteLength(note, 'utf8'),
          remove: () => kept.splice(kept.lastIndexOf(note), 1),
        });
      } else cut('P1', `note on ${file.path}`, note);
    }
    notes.push({ path: file.path, notes: kept });
  }
  out.fileNotes = notes;

  // P2: each topic's instructions, then its subscriptions, within its own cap and the budget.
  const topics: TopicInput[] = [];
  let topicsOpen = false;
  for (const topic of input.topics ?? []) {
    let own = topic.maxBytes;
    const instructions = normalizeBlock(topic.instructions);
    const head = renderTopic({ name: topic.name, instructions });
    const capped =
      Buffer.byteLength(head, 'utf8') <= own
        ? instructions
        : capBytes(instructions, Math.max(0, own - topic.name.length - 16), "(instructions cut to the topic's max_context_kb)");
    if (capped !== instructions) cut('P2', `topic ${topic.name} instructions (the rest)`, instructions.slice(capped.length), 'topic-cap');
    const overhead = (topicsOpen ? 2 : layerOverhead('topics', false)) + topic.name.length + 12;
    if (!capped || !room.take(capped, overhead)) {
      cut('P2', `topic ${topic.name}`, instructions);
      for (const sub of topic.subscriptions ?? []) cut('P2', `topic ${topic.name}: ${sub.path}`, sub.text);
      continue;
    }
    topicsOpen = true;
    own -= Buffer.byteLength(capped, 'utf8') + topic.name.length + 12;
    const entry: TopicInput & { subscriptions: Array<{ path: string; text: string }> } = {
      name: topic.name,
      instructions: capped,
      subscriptions: [],
    };
    topics.push(entry);
    included.P2++;
    admitted.push({
      slot: 'P2',
      label: `topic ${topic.name}`,
      bytes: Buffer.byteLength(capped, 'utf8'),
      remove: () => topics.splice(topics.indexOf(entry), 1),
    });
    for (const sub of topic.subscriptions ?? []) {
      const text = normalizeBlock(sub.text);
      const subOverhead = topic.name.length + sub.path.length + 20 + KNOWLEDGE_FRAMING.length;
      const fits = Buffer.byteLength(text, 'utf8') + subOverhead <= own;
      const body = fits ? text : capBytes(text, own - subOverhead, `(cut to the topic's max_context_kb; see ${sub.path})`);
      if (!body) {
        cut('P2', `topic ${topic.name}: ${sub.path}`, text, 'topic-cap');
        continue;
      }
      if (!room.take(body, subOverhead)) {
        cut('P2', `topic ${topic.name}: ${sub.path}`, text);
        continue;
      }
      if (!fits) cut('P2', `topic ${topic.name}: ${sub.path} (the rest)`, text.slice(body.length), 'topic-cap');
      own -= Buffer.byteLength(body, 'utf8') + subOverhead;
      const item = { path: sub.path, text: body };
      entry.subscriptions.push(item);
      included.P2++;
      admitted.push({
        slot: 'P2',
        label: `topic ${topic.name}: ${sub.path}`,
        bytes: Buffer.byteLength(body, 'utf8'),
        remove: () => entry.subscriptions.splice(entry.subscriptions.indexOf(item), 1),
      });
    }
  }
  out.topics = topics;

  // P3: scored knowledge, best first.
  const hits: string[] = [];
  let hitsOpen = false;
  for (const hit of input.searchHits ?? []) {
    if (room.take(hit, (hitsOpen ? 0 : layerOverhead('search-hits', true)) + 1)) {
      hitsOpen = true;
      hits.push(hit);
      included.P3++;
      admitted.push({
        slot: 'P3',
        label: 'hit',
        bytes: Buffer.byteLength(hit, 'utf8'),
        remove: () => hits.splice(hits.lastIndexOf(hit), 1),
      });
    } else cut('P3', hit.slice(0, 80), hit);
  }
  out.searchHits = hits;

  // P4: the newest turns that fit, rendered oldest first.
  const turns: EarlierTurn[] = [];
  const history = input.earlierTurns ?? [];
  let historyOpen = false;
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (room.take(turn.text, (historyOpen ? 0 : layerOverhead('earlier-turns', false)) + turn.role.length + 6)) {
      historyOpen = true;
      turns.unshift(turn);
      included.P4++;
      admitted.push({
        slot: 'P4',
        label: `turn ${i + 1} (${turn.role})`,
        bytes: Buffer.byteLength(turn.text, 'utf8'),
        remove: () => turns.splice(turns.indexOf(turn), 1),
      });
    } else {
      for (let j = i; j >= 0; j--) cut('P4', `turn ${j + 1} (${history[j].role})`, history[j].text);
      break;
    }
  }
  out.earlierTurns = turns;

  // The estimates above are close, not exact: drop the last admitted items until the text fits.
  let built = buildContext(out);
  const fits = (b: BuiltContext) => estimateTokens(b.text) <= budgetTokens && b.text.length <= maxChars;
  while (!fits(built) && admitted.length) {
    const last = admitted.pop()!;
    last.remove();
    included[last.slot]--;
    cuts[last.slot].push({ label: last.label, bytes: last.bytes, why: 'budget' });
    built = buildContext(out);
  }

  const bytesBySlot: Record<Slot, number> = { P0: 0, P1: 0, P2: 0, P3: 0, P4: 0 };
  for (const b of built.boundaries) bytesBySlot[SLOT_OF_LAYER[b.layer]] += b.endByte - b.startByte;
  included.P0 = built.boundaries.filter((b) => SLOT_OF_LAYER[b.layer] === 'P0').length;
  return {
    ...built,
    budgetTokens,
    tokens: estimateTokens(built.text),
    slots: SLOTS.map((slot) => ({ slot, name: SLOT_NAMES[slot], bytes: bytesBySlot[slot], included: included[slot], cut: cuts[slot] })),
    searchHits: [...hits],
  };
}
