/**
 * The three-way merge of a markdown file of items by their meaning, as git's merge driver runs it
 * (model/merge/storeFileMerge.ts): category files (facts.md, tasks.md, archive/knowledge/…),
 * review.md and the body of a note file. The rules (design.md, "A team shares the store through
 * git"):
 *
 * - The file is a sequence of blocks: an item (its line and the lines that continue it), a
 *   heading, a code fence, a line of prose; blank lines belong to the block after them. An item's
 *   key is its identity (itemLines.ts lineIdentity, what its id is made of), any other block's key
 *   its text.
 * - Ours gives the order. A block the other side deleted is deleted when ours left it as it was
 *   in the ancestor (a forget, a review decision, a tidy); a block one side changed and the other
 *   deleted is kept (nothing lost; a forget's tombstone drops it after the merge, reconcile.ts).
 * - A block only theirs has (added since the ancestor) is put at its place: after the block
 *   before it in theirs, and after what ours added there, so both sides' appends keep their order.
 * - An item theirs added whose statement a current item of ours already has (the same words from
 *   another conversation) is not a second line: its sources are added to ours
 *   (`[from: a, d1; b, d2]`, provenance.ts addSources). When both sides added it, the line whose
 *   own source came first (by date, then id) is kept with the other's sources, so the merge gives
 *   the same line whichever clone makes it.
 * - The same item changed on both sides (sources added, superseded, continuation lines) keeps
 *   every source, the supersession marker (marked wins over unmarked) and every continuation
 *   line. An item a side moved to another section (a task done: `## Open` to `## Done`) goes where
 *   that side put it; a task done on either side is done.
 * - A statement edited differently on both sides is two new ids: both lines are kept, one after
 *   the other, where the old one was; nothing a person wrote is lost, and `lore tidy` or a person
 *   picks one.
 *
 * Lines of conflict markers a hand merge left are not blocks (conflictMarkers.ts): both halves'
 * lines are read, so the result never holds a marker and loses no line.
 */
import { TASKS_DONE_HEADING } from '../categories';
import { parseLines } from '../categoryFile';
import { continuesItem, FENCE_LINE, HEADING_LINE, isItemLine, lineIdentity } from '../itemLines';
import { addSources, parseProvenance, type Provenance } from '../provenance';
import { markSuperseded, readSupersession } from '../supersession';
import { sameStatementKey } from '../sameStatement';
import { withoutConflictMarkers } from './conflictMarkers';
import { pushAll } from '../../base/bulkArrays';

type BlockKind = 'item' | 'heading' | 'text';

interface Block {
  key: string;
  kind: BlockKind;
  lines: string[];
  /** The blank lines before it. */
  before: string[];
  /** Whether the block before it (in its own version) was an item. */
  afterItem: boolean;
  /** The `##` section it sits in, lower case ('' before the first). */
  section: string;
}

interface ParsedBlocks {
  blocks: Block[];
  trailing: string[];
  bom: boolean;
  eol: string;
  finalNewline: boolean;
}

const DONE_SECTION = TASKS_DONE_HEADING.slice(3).toLowerCase();

/** The text as blocks (see the module comment); markers of an earlier conflict are dropped, both halves kept. */
function parseBlocks(text: string): ParsedBlocks {
  const doc = parseLines(withoutConflictMarkers(text));
  const blocks: Block[] = [];
  const seen = new Map<string, number>();
  let blanks: string[] = [];
  let section = '';
  const push = (kind: BlockKind, lines: string[], base: string): void => {
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    // A key repeated in one file (the same item twice) is told apart by its occurrence.
    const key = count ? `${base}\u0000#${count}` : base;
    blocks.push({ key, kind, lines, before: blanks, afterItem: blocks.at(-1)?.kind === 'item', section });
    blanks = [];
  };
  const { lines } = doc;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') {
      blanks.push(line);
      continue;
    }
    if (FENCE_LINE.test(line)) {
      const fence = [line];
      while (++i < lines.length) {
        fence.push(lines[i]);
        if (FENCE_LINE.test(lines[i])) break;
      }
      push('text', fence, `t\u0000${fence.join('\n')}`);
      continue;
    }
    const heading = HEADING_LINE.exec(line);
    if (heading) {
      if (heading[1].length === 2) section = heading[2].trim().toLowerCase();
      push('heading', [line], `h\u0000${line.trim()}`);
      continue;
    }
    if (isItemLine(line)) {
      const item = [line];
      while (i + 1 < lines.length && continuesItem(lines[i + 1])) item.push(lines[++i]);
      push('item', item, `i\u0000${lineIdentity(line)}`);
      continue;
    }
    push('text', [line], `t\u0000${line}`);
  }
  return { blocks, trailing: blanks, bom: doc.bom, eol: doc.eol, finalNewline: doc.finalNewline };
}

const sameLines = (a: Block, b: Block): boolean => a.lines.length === b.lines.length && a.lines.every((l, i) => l === b.lines[i]);
/** A block as it was: the same lines in the same section (a task moved to `## Done` was changed). */
const unchanged = (base: Block, side: Block): boolean => base.section === side.section && sameLines(base, side);

/** Lines of `ours` and `theirs` (three-way against `base`): what either added, without what either removed. */
function mergeLineSets(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const removed = new Set(base.filter((l) => !ours.includes(l) || !theirs.includes(l)));
  const out = ours.filter((l) => !removed.has(l));
  for (const line of theirs) if (!removed.has(line) && !out.includes(line)) out.push(line);
  return out;
}

/** The sources of `from`'s line that `to` lacks, in a fixed order (by date, then id): the same merge gives the same line. */
function extraSources(to: string, from: string): Provenance[] {
  const have = new Set((parseProvenance(to)?.sources ?? []).map((p) => `${p.source}\u0000${p.date}`));
  return (parseProvenance(from)?.sources ?? [])
    .filter((p) => !have.has(`${p.source}\u0000${p.date}`))
    .map(({ source, date }) => ({ source, date }))
    .sort((a, b) => (a.date === b.date ? (a.source < b.source ? -1 : 1) : a.date < b.date ? -1 : 1));
}

/** Orders two lines by their own (first) source: by date, then id; a line without provenance last. */
function firstSourceOrder(a: string, b: string): number {
  const [pa, pb] = [parseProvenance(a), parseProvenance(b)];
  if (!pa || !pb) return pa ? -1 : pb ? 1 : 0;
  if (pa.date !== pb.date) return pa.date < pb.date ? -1 : 1;
  return pa.source === pb.source ? 0 : pa.source < pb.source ? -1 : 1;
}

/** One item changed on both sides: ours's line with every source, the supersession either side gave, every continuation line. */
function combineItem(base: Block | undefined, ours: Block, theirs: Block): string[] {
  if (sameLines(ours, theirs)) return ours.lines;
  if (base && sameLines(base, ours)) return theirs.lines;
  if (base && sameLines(base, theirs)) return ours.lines;
  let first = addSources(ours.lines[0], extraSources(ours.lines[0], theirs.lines[0]));
  const marked = readSupersession(theirs.lines[0]);
  if (marked && !readSupersession(first)) {
    first = markSuperseded(first, marked.by, marked.date ?? parseProvenance(theirs.lines[0])?.date ?? '');
  }
  return [first, ...mergeLineSets(base?.lines.slice(1) ?? [], ours.lines.slice(1), theirs.lines.slice(1))];
}

/** Whether theirs moved the item to another section and ours did not (or, both new, theirs has it done). */
function movedByTheirs(base: Block | undefined, ours: Block, theirs: Block): boolean {
  if (ours.section === theirs.section) return false;
  if (base) return ours.section === base.section;
  return theirs.section === DONE_SECTION;
}

/** The statement of a current item (not superseded), or undefined: what a duplicate from another conversation shares. */
function currentStatement(block: Block): string | undefined {
  if (block.kind !== 'item' || readSupersession(block.lines[0])) return undefined;
  return sameStatementKey(block.lines[0]);
}

/** Three-way merges a markdown file of items (see the module comment). Deterministic; never writes conflict markers. */
export function mergeItemFile(base: string, ours: string, theirs: string): string {
  const B = parseBlocks(base);
  const O = parseBlocks(ours);
  const T = parseBlocks(theirs);
  const baseBy = new Map(B.blocks.map((b) => [b.key, b]));
  const theirsBy = new Map(T.blocks.map((b) => [b.key, b]));
  const oursBy = new Map(O.blocks.map((b) => [b.key, b]));

  // Ours, in its order, without what theirs deleted, with each shared block's lines merged.
  const kept: Block[] = [];
  const movedKeys = new Set<string>();
  const merged = new Map<string, string[]>();
  for (const ob of O.blocks) {
    const bb = baseBy.get(ob.key);
    const tb = theirsBy.get(ob.key);
    if (!tb) {
      if (bb && unchanged(bb, ob)) continue;
      kept.push(ob);
      continue;
    }
    const lines = ob.kind === 'item' ? combineItem(bb, ob, tb) : ob.lines;
    // Blank lines before it: theirs when only theirs changed them.
    const before = bb && sameBlanks(bb.before, ob.before) ? tb.before : ob.before;
    if (ob.kind === 'item' && movedByTheirs(bb, ob, tb)) {
      movedKeys.add(ob.key);
      merged.set(ob.key, lines);
      continue;
    }
    kept.push({ ...ob, lines, before });
  }
  const keptAt = new Map(kept.map((b, i) => [b.key, i]));
  const statements = new Map<string, Block>();
  for (const b of kept) {
    const s = currentStatement(b);
    if (s !== undefined && !statements.has(s)) statements.set(s, b);
  }

  // Theirs: what it added (or moved) goes after the block before it, past what ours added there.
  // pastOursAdditions[i + 1]: the last index of the run of ours's additions right after kept[i] (i itself when none).
  const pastOursAdditions = new Array<number>(kept.length + 1);
  pastOursAdditions[kept.length] = kept.length - 1;
  for (let i = kept.length - 1; i >= 0; i--)
    pastOursAdditions[i] = isOursAddition(kept[i], baseBy, theirsBy) ? pastOursAdditions[i + 1] : i - 1;
  const inserts = new Map<number, Block[]>();
  let anchor = -1;
  for (const tb of T.blocks) {
    const at = keptAt.get(tb.key);
    if (at !== undefined) {
      anchor = at;
      continue;
    }
    let block: Block;
    if (movedKeys.has(tb.key)) block = { ...tb, lines: merged.get(tb.key)! };
    else {
      if (oursBy.has(tb.key)) continue; // Ours deleted it as theirs left it... or kept it elsewhere: handled above.
      const bb = baseBy.get(tb.key);
      if (bb && (tb.kind !== 'item' || unchanged(bb, tb))) continue; // Deleted by ours, unchanged by theirs.
      const statement = bb ? undefined : currentStatement(tb);
      const twin = statement === undefined ? undefined : statements.get(statement);
      if (twin) {
        // Both sides added it: the line whose own source came first is kept (whichever side merges), else ours's, whose id is known.
        const keep = !baseBy.has(twin.key) && firstSourceOrder(tb.lines[0], twin.lines[0]) < 0 ? tb.lines[0] : twin.lines[0];
        const other = keep === twin.lines[0] ? tb.lines[0] : twin.lines[0];
        twin.lines = [addSources(keep, extraSources(keep, other)), ...twin.lines.slice(1)];
        continue;
      }
      block = tb;
    }
    const after = pastOursAdditions[anchor + 1];
    const list = inserts.get(after) ?? [];
    list.push(block);
    inserts.set(after, list);
  }

  const out: Block[] = [...(inserts.get(-1) ?? [])];
  kept.forEach((b, i) => pushAll(out, [b], inserts.get(i) ?? []));
  return render(out, layoutOf(B, O, T));
}

const sameBlanks = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((l, i) => l === b[i]);

/** The file's own layout (BOM, line break, blank lines at the end, final newline): ours, unless only theirs changed it. */
function layoutOf(base: ParsedBlocks, ours: ParsedBlocks, theirs: ParsedBlocks): ParsedBlocks {
  if (!ours.blocks.length && theirs.blocks.length) return theirs;
  const pick = <K extends 'bom' | 'eol' | 'finalNewline'>(key: K) => (base[key] === ours[key] ? theirs[key] : ours[key]);
  return {
    ...ours,
    bom: pick('bom'),
    eol: pick('eol'),
    finalNewline: pick('finalNewline'),
    trailing: sameBlanks(base.trailing, ours.trailing) ? theirs.trailing : ours.trailing,
  };
}

function isOursAddition(block: Block, baseBy: Map<string, Block>, theirsBy: Map<string, Block>): boolean {
  return block.kind === 'item' && !baseBy.has(block.key) && !theirsBy.has(block.key);
}

/** The blocks as text, blank lines fitted to where each block now stands. */
function render(blocks: Block[], layout: ParsedBlocks): string {
  const lines: string[] = [];
  blocks.forEach((block, i) => {
    const prev = blocks[i - 1];
    let before = block.before;
    if (!prev) before = block.before;
    else if (block.kind === 'item' && prev.kind === 'item' && !block.afterItem) before = [];
    else if (block.kind === 'item' && prev.kind === 'heading' && !before.length && block.afterItem) before = [''];
    else if (block.kind === 'heading' && !before.length) before = [''];
    pushAll(lines, before, block.lines);
  });
  pushAll(lines, layout.trailing);
  return (layout.bom ? '\ufeff' : '') + lines.join(layout.eol) + (lines.length && layout.finalNewline ? layout.eol : '');
}
