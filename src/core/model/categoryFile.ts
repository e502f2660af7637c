/**
 * Reading and editing category files without losing what a person wrote. The file is kept as
 * raw lines; edits insert new lines at chosen places and leave every other byte alone (BOM,
 * CRLF, blank lines, headings and lines without provenance all survive a rewrite).
 */
import { TASKS_DONE_HEADING, TASKS_OPEN_HEADING } from './categories';
import { continuesItem, FENCE_LINE, HEADING_LINE, ITEM_LINE, isItemLine, lineIdentities, lineIdentity } from './itemLines';
import { parseProvenance, type ParsedProvenance } from './provenance';
import { spliceAll } from '../base/bulkArrays';

/** A markdown file as lines, remembering how to write it back byte-for-byte. */
export interface LineDocument {
  bom: boolean;
  /** The line break for lines Lore adds: the one the file's last line break uses. */
  eol: '\n' | '\r\n';
  lines: string[];
  /**
   * Each line's own break, parallel to `lines` (a file may mix LF and CRLF, and every line keeps
   * its own); undefined for lines added since parsing, which get `eol`. Edit through spliceLines.
   */
  breaks: Array<string | undefined>;
  /** Whether the text ended with a line break. */
  finalNewline: boolean;
}

/** One list item of a category file. */
export interface KnowledgeItem {
  /** The item's text with the list marker removed, continuation lines joined. */
  text: string;
  /** The raw first line. */
  raw: string;
  /** 0-based line number of the first line. */
  line: number;
  /** The nearest `##` heading above the item (without `## `), if any. */
  section?: string;
  provenance?: ParsedProvenance;
}

export function parseLines(text: string): LineDocument {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  const parts = body.split(/(\r?\n)/);
  const lines: string[] = [];
  const breaks: Array<string | undefined> = [];
  for (let i = 0; i < parts.length; i += 2) {
    lines.push(parts[i]);
    breaks.push(parts[i + 1] ?? '');
  }
  const finalNewline = body.length === 0 || (parts.length > 1 && parts[parts.length - 1] === '');
  if (body.length === 0 || finalNewline) {
    lines.pop();
    breaks.pop();
  }
  const last = [...breaks].reverse().find((b) => b);
  return { bom, eol: last === '\r\n' ? '\r\n' : '\n', lines, breaks, finalNewline };
}

export function serializeLines(doc: LineDocument): string {
  const { lines, breaks } = doc;
  let out = doc.bom ? '\ufeff' : '';
  for (let i = 0; i < lines.length; i++) {
    out += lines[i];
    if (i < lines.length - 1 || doc.finalNewline) out += breaks[i] || doc.eol;
  }
  return out;
}

/** Array.splice for a document: removes and inserts lines, keeping each kept line's own break (any number: bulkArrays.ts). */
export function spliceLines(doc: LineDocument, start: number, deleteCount: number, insert: readonly string[] = []): void {
  spliceAll(doc.lines, start, deleteCount, insert);
  spliceAll(
    doc.breaks,
    start,
    deleteCount,
    insert.map(() => undefined),
  );
}

/** Lists the top-level list items, outside code fences, with the section they sit in. */
export function listItems(text: string): KnowledgeItem[] {
  const { lines } = parseLines(text);
  const items: KnowledgeItem[] = [];
  let section: string | undefined;
  let inFence = false;
  let current: KnowledgeItem | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE_LINE.test(line)) {
      inFence = !inFence;
      current = undefined;
      continue;
    }
    if (inFence) continue;
    const heading = HEADING_LINE.exec(line);
    if (heading) {
      if (heading[1].length === 2) section = heading[2];
      current = undefined;
      continue;
    }
    const item = ITEM_LINE.exec(line);
    if (item) {
      current = { text: item[2].trim(), raw: line, line: i, section, provenance: parseProvenance(line) };
      items.push(current);
      continue;
    }
    // An indented line right under an item continues it (a wrapped item or a nested bullet).
    if (current && continuesItem(line)) {
      current.text += ' ' + line.trim();
      current.provenance ??= parseProvenance(line);
      continue;
    }
    if (line.trim() === '') continue;
    current = undefined;
  }
  return items;
}

/** The provenance source part of a line identity (see lineIdentity), if it has one. */
function identitySource(identity: string): string | undefined {
  const at = identity.indexOf('\u0000');
  return at < 0 ? undefined : identity.slice(0, at);
}

/**
 * Identities of the item lines already present that could equal one of `wanted`. A line with
 * provenance can only match a line from the same source, so only lines containing one of the
 * wanted sources are parsed: appending to a 20,000-line file stays cheap, which matters when a
 * person keeps saving it and Lore must re-apply its edit quickly.
 */
function existingIdentities(lines: string[], wanted: string[]): Set<string> {
  const sources = wanted.map(identitySource);
  const every = sources.includes(undefined);
  const distinct = [...new Set(sources)] as string[];
  const seen = new Set<string>();
  for (const line of lines) {
    if (!every && !distinct.some((source) => line.includes(source))) continue;
    if (isItemLine(line)) for (const identity of lineIdentities(line)) seen.add(identity);
  }
  return seen;
}

/** Drops lines already present in the document (and repeats within `lines`). */
function newLinesOnly(doc: LineDocument, lines: string[]): string[] {
  const wanted = lines.map(lineIdentity);
  const seen = existingIdentities(doc.lines, wanted);
  const fresh: string[] = [];
  lines.forEach((line, i) => {
    if (seen.has(wanted[i])) return;
    seen.add(wanted[i]);
    fresh.push(line);
  });
  return fresh;
}

/** The lines an append to `text` would really add: those not already there (nor repeated). */
export function freshItemLines(text: string | undefined, lines: string[]): string[] {
  return newLinesOnly(parseLines(text ?? ''), lines);
}

/** Index just past the last non-blank line in [from, to). */
function endOfContent(lines: string[], from: number, to: number): number {
  let end = to;
  while (end > from && lines[end - 1].trim() === '') end--;
  return end;
}

/**
 * Appends item lines at the end of a category file (creating `# Title` for a new file),
 * skipping lines that are already there. Every other line keeps its bytes and its own line
 * break. Returns the text unchanged when nothing is new.
 */
export function appendItems(text: string | undefined, title: string, lines: string[]): string {
  const doc = parseLines(text ?? '');
  const fresh = newLinesOnly(doc, lines);
  if (fresh.length === 0) return text ?? '';
  if (doc.lines.every((l) => l.trim() === '')) spliceLines(doc, 0, doc.lines.length, [`# ${title}`]);
  const end = endOfContent(doc.lines, 0, doc.lines.length);
  // Keep a blank line between a heading and the first item, as people write it.
  const insert = end > 0 && HEADING_LINE.test(doc.lines[end - 1]) ? ['', ...fresh] : fresh;
  spliceLines(doc, end, 0, insert);
  doc.finalNewline = true;
  return serializeLines(doc);
}

function findHeading(lines: string[], heading: string, from = 0): number {
  const wanted = heading.toLowerCase();
  for (let i = from; i < lines.length; i++) {
    if (lines[i].trim().toLowerCase() === wanted) return i;
  }
  return -1;
}

/** End (exclusive) of the section that starts at heading index `start`: the next heading of level ≤ 2. */
function sectionEnd(lines: string[], start: number): number {
  for (let i = start + 1; i < lines.length; i++) if (/^#{1,2}\s/.test(lines[i])) return i;
  return lines.length;
}

/** Inserts `block` at the end of the section whose heading is at `at`, blank-line separated. */
function insertIntoSection(doc: LineDocument, at: number, block: string[]): void {
  const end = endOfContent(doc.lines, at + 1, sectionEnd(doc.lines, at));
  const insert = end === at + 1 ? ['', ...block] : [...block];
  // A heading right after the inserted lines reads better with a blank line before it.
  if (end < doc.lines.length && /^#{1,2}\s/.test(doc.lines[end])) insert.push('');
  spliceLines(doc, end, 0, insert);
}

/**
 * Adds open tasks to the end of `## Open` (so they land before `## Done`) and done tasks to
 * the end of `## Done`, creating the headings a hand-edited file lacks. Lines Lore does not
 * add are left as they are.
 */
export function insertTasks(text: string | undefined, open: string[], done: string[]): string {
  const doc = parseLines(text ?? '');
  const freshOpen = newLinesOnly(doc, open);
  const opening = new Set(freshOpen);
  const freshDone = newLinesOnly(doc, done).filter((l) => !opening.has(l));
  if (freshOpen.length === 0 && freshDone.length === 0) return text ?? '';
  if (doc.lines.every((l) => l.trim() === '')) spliceLines(doc, 0, doc.lines.length, ['# Tasks']);

  if (freshOpen.length > 0) {
    let openAt = findHeading(doc.lines, TASKS_OPEN_HEADING);
    if (openAt < 0) {
      // A new `## Open` goes before `## Done` when there is one, else at the end.
      const doneAt = findHeading(doc.lines, TASKS_DONE_HEADING);
      const at = doneAt >= 0 ? doneAt : endOfContent(doc.lines, 0, doc.lines.length);
      const block = [TASKS_OPEN_HEADING];
      if (at > 0 && doc.lines[at - 1].trim() !== '') block.unshift('');
      if (doneAt >= 0) block.push('');
      spliceLines(doc, at, 0, block);
      openAt = findHeading(doc.lines, TASKS_OPEN_HEADING);
    }
    insertIntoSection(doc, openAt, freshOpen);
  }
  if (freshDone.length > 0) {
    let doneAt = findHeading(doc.lines, TASKS_DONE_HEADING);
    if (doneAt < 0) {
      const end = endOfContent(doc.lines, 0, doc.lines.length);
      spliceLines(doc, end, 0, ['', TASKS_DONE_HEADING]);
      doneAt = end + 1;
    }
    insertIntoSection(doc, doneAt, freshDone);
  }
  doc.finalNewline = true;
  return serializeLines(doc);
}

/** Line indexes of each item whose line identity is in `identities`, with its continuation lines. */
export function itemBlocks(
  doc: LineDocument,
  text: string,
  identities: ReadonlySet<string>,
  keep: (item: KnowledgeItem) => boolean = () => true,
): number[][] {
  return listItems(text)
    .filter((item) => identities.has(lineIdentity(item.raw)) && keep(item))
    .map((item) => itemBlock(doc, item.line));
}

/** Line indexes of the item whose first line is `line`: that line and the ones that continue it. */
export function itemBlock(doc: LineDocument, line: number): number[] {
  const block = [line];
  for (let i = line + 1; i < doc.lines.length && continuesItem(doc.lines[i]); i++) block.push(i);
  return block;
}

function spliceOut(doc: LineDocument, blocks: number[][]): void {
  for (const i of blocks.flat().sort((a, b) => b - a)) spliceLines(doc, i, 1);
}

/**
 * Deletes the items whose line identity (see lineIdentity) is in `identities`, continuation
 * lines included; every other line stays as it was. Undefined when none of them is there.
 */
export function removeItems(text: string, identities: ReadonlySet<string>): string | undefined {
  const doc = parseLines(text);
  const blocks = itemBlocks(doc, text, identities);
  if (blocks.length === 0) return undefined;
  spliceOut(doc, blocks);
  return serializeLines(doc);
}

/**
 * Moves open tasks (by line identity) to the end of `## Done` in tasks.md, creating the heading
 * when the file has none. Undefined when none of them is open (already done, or gone).
 */
export function markTasksDone(text: string, identities: ReadonlySet<string>): string | undefined {
  const doc = parseLines(text);
  const blocks = itemBlocks(
    doc,
    text,
    identities,
    (item) => item.section?.trim().toLowerCase() !== TASKS_DONE_HEADING.slice(3).toLowerCase(),
  );
  if (blocks.length === 0) return undefined;
  const moved = blocks.flatMap((block) => block.map((i) => doc.lines[i]));
  spliceOut(doc, blocks);
  let doneAt = findHeading(doc.lines, TASKS_DONE_HEADING);
  if (doneAt < 0) {
    // A new last section: the blank lines that ended the file go, or they would follow the task.
    const end = endOfContent(doc.lines, 0, doc.lines.length);
    spliceLines(doc, end, doc.lines.length - end, ['', TASKS_DONE_HEADING]);
    doneAt = end + 1;
  }
  insertIntoSection(doc, doneAt, moved);
  return serializeLines(doc);
}
