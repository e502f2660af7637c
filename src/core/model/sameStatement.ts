/**
 * When two item lines say the same thing: the same words (lineIdentity's folding of case and
 * white space), and also the same words with a different trailing full stop or markdown emphasis
 * (`**npm test** runs the suite.` is `npm test runs the suite`). Nothing looser: two lines that
 * differ in a word, a number or a detail are two facts, and a merge keeps only one text.
 *
 * The same statement from several conversations is one line carrying every source
 * (`[from: a, d1; b, d2]`, provenance.ts), whether the conversations were harvested in one run,
 * by two people, or merged from two branches. This module is the rule, pure: the harvest folds its
 * own lines with foldSameStatements and merges into the store's lines by sameStatementKey; tidy
 * and a merge's reconcile fold a whole file with sameStatementOps.
 *
 * Which line survives a fold is decided by the sources alone, so every clone folds alike: the line
 * whose own (first) source is the earliest, by date then source id. Its first source stays first,
 * so its id does not change; the other sources follow, earliest first.
 */
import { listItems } from './categoryFile';
import type { ItemOp } from './itemOps';
import { lineIdentity } from './itemLines';
import { formatSources, parseProvenance, plainSources, type Provenance } from './provenance';
import { isCurrent } from './supersession';

/** `**x**`, `__x__`, `*x*`, `_x_` around a word or words (not a lone `*` or an inner `_` of a name). */
const EMPHASIS = /(\*\*|__)(?=\S)([^*_]*?\S)\1|(?<![\w*])([*_])(?=\S)([^*_]*?\S)\3(?![\w*])/g;
/** Full stops and the like that end a sentence without changing it (a `?` does: a question stays one). */
const TRAILING_PUNCTUATION = /[\s.!;,:…]+$/;
/** A markdown code span (split keeps it at the odd indexes). */
const CODE_SPAN = /(`[^`]*`)/;

/**
 * The statement of an item line as duplicates are recognised by: lineIdentity's text (no bullet,
 * provenance, supersession marker; case and white space folded), without emphasis markers and
 * trailing punctuation. A task's checkbox stays part of it (an open task is not a done one).
 */
export function sameStatementKey(line: string): string {
  const identity = lineIdentity(line);
  const text = identity.slice(identity.indexOf('\u0000') + 1).normalize('NFC');
  // Emphasis is taken off outside code spans only: `__init__` in backticks is a name, not bold.
  const plain = text
    .split(CODE_SPAN)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(EMPHASIS, '$2$4')))
    .join('');
  return plain.replace(TRAILING_PUNCTUATION, '').replace(/\s+/g, ' ').trim();
}

/** Where an item stands among a file's items: open and done tasks are compared each among themselves. */
function groupKey(line: string, section: string | undefined): string {
  return `${/^done$/i.test(section?.trim() ?? '') ? 'done' : 'main'}\u0000${sameStatementKey(line)}`;
}

/**
 * The file's current items with provenance by what they say (the first of each statement), to
 * find the line a new one says the same as: `find(line, section)`, where `section` is the `##`
 * section it would go under (`Done` for a done task).
 */
export function sameStatementIndex(text: string | undefined): (line: string, section?: string) => string | undefined {
  const index = new Map<string, string>();
  for (const item of listItems(text ?? '')) {
    if (!foldable(item.raw)) continue;
    const key = groupKey(item.raw, item.section);
    if (!index.has(key)) index.set(key, item.raw);
  }
  return (line, section) => (index.size === 0 ? undefined : index.get(groupKey(line, section)));
}

/** Whether a line may be folded with others: it has provenance and is current (a superseded line stays as it is). */
function foldable(line: string): boolean {
  return parseProvenance(line) !== undefined && isCurrent(line);
}

/** Earliest date first, then source id: the order every clone agrees on. */
function earlier(a: Provenance, b: Provenance): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}

/** Of lines saying the same thing, the one that survives (the earliest own source), and every source of the others, earliest first. */
function survivor(lines: readonly string[]): { keep: string; others: Provenance[] } {
  const own = (line: string) => plainSources(parseProvenance(line)!.sources);
  const keep = [...lines].sort((a, b) => earlier(own(a)[0], own(b)[0]))[0];
  const first = own(keep)[0];
  const seen = new Set([`${first.source}\u0000${first.date}`]);
  const others: Provenance[] = [];
  for (const p of lines.flatMap(own).sort(earlier)) {
    const key = `${p.source}\u0000${p.date}`;
    if (!seen.has(key)) others.push(p);
    seen.add(key);
  }
  return { keep, others };
}

/**
 * One-line items (as a harvest writes them) with the lines that say the same thing folded into one
 * carrying every source; it stands where the first of them stood. `folded`: the sources that joined
 * another line (a line repeated with its own source adds none). Lines without provenance, and
 * superseded ones, are left as they are.
 */
export function foldSameStatements(lines: readonly string[]): { lines: string[]; folded: number } {
  const groups = new Map<string, string[]>();
  for (const line of lines) {
    if (!foldable(line)) continue;
    const key = sameStatementKey(line);
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  if ([...groups.values()].every((g) => g.length < 2)) return { lines: [...lines], folded: 0 };
  const out: string[] = [];
  let folded = 0;
  const placed = new Set<string>();
  for (const line of lines) {
    const key = foldable(line) ? sameStatementKey(line) : undefined;
    const group = key === undefined ? undefined : groups.get(key)!;
    if (!group || group.length < 2) {
      out.push(line);
      continue;
    }
    if (placed.has(key!)) continue;
    placed.add(key!);
    const { keep, others } = survivor(group);
    folded += others.length;
    const parsed = parseProvenance(keep)!;
    const sources = [plainSources(parsed.sources)[0], ...others];
    out.push(`${keep.slice(0, parsed.start)}${formatSources(sources)}${keep.slice(parsed.end)}`);
  }
  return { lines: out, folded };
}

/**
 * The merges that fold a file's items saying the same thing (current items with provenance; open
 * and done tasks each among themselves), as item ops (itemOps.ts): the earliest-sourced item keeps
 * its line and id and gains the others' sources; the others go. Empty when there is nothing to fold.
 */
export function sameStatementOps(text: string): ItemOp[] {
  const groups = new Map<string, string[]>();
  for (const item of listItems(text)) {
    if (!foldable(item.raw)) continue;
    const key = groupKey(item.raw, item.section);
    groups.set(key, [...(groups.get(key) ?? []), item.raw]);
  }
  const ops: ItemOp[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const { keep, others } = survivor(group);
    const identity = lineIdentity(keep);
    ops.push({ op: 'merge', keep: identity, sources: others, drop: group.map(lineIdentity).filter((i) => i !== identity) });
  }
  return ops;
}

/**
 * New one-line items for a file split into those it does not say yet (`rest`, to append) and
 * merges of the others into the line that says the same (their sources added, the line keeps its
 * id). `section`: where the lines would go (`Done` for done tasks). A function of the file's
 * current text, so an edit built on it can run again on a person's concurrent save.
 */
export function mergeIntoSame(text: string | undefined, lines: readonly string[], section?: string): { ops: ItemOp[]; rest: string[] } {
  const find = sameStatementIndex(text);
  const ops: ItemOp[] = [];
  const rest: string[] = [];
  for (const line of lines) {
    const target = foldable(line) ? find(line, section) : undefined;
    if (target === undefined) rest.push(line);
    else ops.push({ op: 'merge', keep: lineIdentity(target), sources: plainSources(parseProvenance(line)!.sources), drop: [] });
  }
  return { ops, rest };
}
