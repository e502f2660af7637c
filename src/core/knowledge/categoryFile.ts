/**
 * Reading and editing category files without losing what a person wrote. The file is kept as
 * raw lines; edits insert new lines at chosen places and leave every other byte alone (BOM,
 * CRLF, blank lines, headings and lines without provenance all survive a rewrite).
 */
import { TASKS_DONE_HEADING, TASKS_OPEN_HEADING } from './categories';
import { lineIdentity } from './itemLines';
import { parseProvenance, type ParsedProvenance } from './provenance';

/** A markdown file as lines, remembering how to write it back byte-for-byte. */
export interface LineDocument {
  bom: boolean;
  eol: '\n' | '\r\n';
  lines: string[];
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

const LIST_ITEM = /^[-*+]\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

export function parseLines(text: string): LineDocument {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = body.length === 0 || body.endsWith('\n');
  const lines = body.split(/\r?\n/);
  if (finalNewline) lines.pop();
  return { bom, eol, lines, finalNewline: body.length === 0 ? true : finalNewline };
}

export function serializeLines(doc: LineDocument): string {
  if (doc.lines.length === 0) return doc.bom ? '\ufeff' : '';
  return (doc.bom ? '\ufeff' : '') + doc.lines.join(doc.eol) + (doc.finalNewline ? doc.eol : '');
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
    if (FENCE.test(line)) {
      inFence = !inFence;
      current = undefined;
      continue;
    }
    if (inFence) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      if (heading[1].length === 2) section = heading[2];
      current = undefined;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      current = { text: item[1].trim(), raw: line, line: i, section, provenance: parseProvenance(line) };
      items.push(current);
      continue;
    }
    // An indented line right under an item continues it (a wrapped item or a nested bullet).
    if (current && /^\s{2,}\S/.test(line)) {
      current.text += ' ' + line.trim();
      current.provenance ??= parseProvenance(line);
      continue;
    }
    if (line.trim() === '') continue;
    current = undefined;
  }
  return items;
}

/** Identities of every item line already present, for de-duplication. */
function existingIdentities(lines: string[]): Set<string> {
  const seen = new Set<string>();
  for (const line of lines) if (LIST_ITEM.test(line)) seen.add(lineIdentity(line));
  return seen;
}

/** Drops lines already present in the document (and repeats within `lines`). */
function newLinesOnly(doc: LineDocument, lines: string[]): string[] {
  const seen = existingIdentities(doc.lines);
  const fresh: string[] = [];
  for (const line of lines) {
    const id = lineIdentity(line);
    if (seen.has(id)) continue;
    seen.add(id);
    fresh.push(line);
  }
  return fresh;
}

/** Index just past the last non-blank line in [from, to). */
function endOfContent(lines: string[], from: number, to: number): number {
  let end = to;
  while (end > from && lines[end - 1].trim() === '') end--;
  return end;
}

/**
 * Appends item lines at the end of a category file (creating `# Title` for a new file),
 * skipping lines that are already there. Returns the text unchanged when nothing is new.
 */
export function appendItems(text: string | undefined, title: string, lines: string[]): string {
  const doc = parseLines(text ?? '');
  const fresh = newLinesOnly(doc, lines);
  if (fresh.length === 0) return text ?? '';
  if (doc.lines.every((l) => l.trim() === '')) doc.lines = [`# ${title}`];
  const end = endOfContent(doc.lines, 0, doc.lines.length);
  const tail = doc.lines.slice(end);
  const head = doc.lines.slice(0, end);
  // Keep a blank line between a heading and the first item, as people write it.
  if (head.length > 0 && HEADING.test(head[head.length - 1])) head.push('');
  doc.lines = [...head, ...fresh, ...tail];
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

/**
 * Adds open tasks to the end of `## Open` (so they land before `## Done`) and done tasks to
 * the end of `## Done`, creating the headings a hand-edited file lacks.
 */
export function insertTasks(text: string | undefined, open: string[], done: string[]): string {
  const doc = parseLines(text ?? '');
  const freshOpen = newLinesOnly(doc, open);
  const freshDone = newLinesOnly(doc, done).filter((l) => !freshOpen.includes(l));
  if (freshOpen.length === 0 && freshDone.length === 0) return text ?? '';
  if (doc.lines.every((l) => l.trim() === '')) doc.lines = ['# Tasks'];
  let lines = doc.lines;

  let openAt = findHeading(lines, TASKS_OPEN_HEADING);
  let doneAt = findHeading(lines, TASKS_DONE_HEADING);
  if (openAt < 0) {
    // A new `## Open` goes before `## Done` when there is one, else at the end.
    const at = doneAt >= 0 ? doneAt : endOfContent(lines, 0, lines.length);
    const block = [TASKS_OPEN_HEADING];
    if (at > 0 && lines[at - 1].trim() !== '') block.unshift('');
    lines = [...lines.slice(0, at), ...block, ...(doneAt >= 0 ? [''] : []), ...lines.slice(at)];
    openAt = findHeading(lines, TASKS_OPEN_HEADING);
    doneAt = findHeading(lines, TASKS_DONE_HEADING);
  }
  if (freshOpen.length > 0) {
    const end = endOfContent(lines, openAt + 1, sectionEnd(lines, openAt));
    const insert = end === openAt + 1 ? ['', ...freshOpen] : freshOpen;
    lines = [...lines.slice(0, end), ...insert, ...lines.slice(end)];
    doneAt = findHeading(lines, TASKS_DONE_HEADING);
  }
  if (freshDone.length > 0) {
    if (doneAt < 0) {
      const end = endOfContent(lines, 0, lines.length);
      lines = [...lines.slice(0, end), '', TASKS_DONE_HEADING, ...lines.slice(end)];
      doneAt = findHeading(lines, TASKS_DONE_HEADING);
    }
    const end = endOfContent(lines, doneAt + 1, sectionEnd(lines, doneAt));
    const insert = end === doneAt + 1 ? ['', ...freshDone] : freshDone;
    lines = [...lines.slice(0, end), ...insert, ...lines.slice(end)];
  }
  // A section that is followed directly by another heading reads better with a blank line.
  for (let i = 1; i < lines.length; i++) {
    if (/^#{1,2}\s/.test(lines[i]) && lines[i - 1].trim() !== '') {
      lines.splice(i, 0, '');
      i++;
    }
  }
  doc.lines = lines;
  doc.finalNewline = true;
  return serializeLines(doc);
}
