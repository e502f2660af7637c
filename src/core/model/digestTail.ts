/**
 * Reading only the end of a category file for the digest. The digest shows the newest items
 * (the last ones) up to 4 KB, so a store with 100,000 items need not be decoded and parsed
 * whole: this walks the raw bytes backwards, decoding only the lines it keeps. It yields
 * exactly what `listItems` would (same fences, headings, sections and continuation lines), in
 * reverse, and stops once the items collected exceed the byte budget.
 */

import { continuesItem, FENCE_LINE, HEADING_LINE, ITEM_LINE, renderItemLine } from './itemLines';

const NL = 0x0a;
const CR = 0x0d;
const HASH = 0x23;

interface Range {
  start: number;
  end: number;
}

/** [start, end) of every line, computed lazily from the end by the walker. */
function lineStart(buffer: Buffer, end: number): number {
  if (end <= 0) return 0;
  const nl = buffer.lastIndexOf(NL, end - 1);
  return nl < 0 ? 0 : nl + 1;
}

function lineText(buffer: Buffer, start: number, end: number): string {
  let e = end;
  if (e > start && buffer[e - 1] === CR) e--;
  let text = buffer.toString('utf8', start, e);
  if (start === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}

/** Lines that open or close a code fence, found with indexOf and confirmed with listItems' own rule. */
function fenceRanges(buffer: Buffer): Range[] {
  const toggles = new Set<number>();
  for (const marker of ['```', '~~~']) {
    for (let at = buffer.indexOf(marker); at >= 0; at = buffer.indexOf(marker, at + 1)) {
      const start = lineStart(buffer, at);
      if (toggles.has(start)) continue;
      const nl = buffer.indexOf(NL, start);
      if (FENCE_LINE.test(lineText(buffer, start, nl < 0 ? buffer.length : nl))) toggles.add(start);
    }
  }
  const sorted = [...toggles].sort((a, b) => a - b);
  const ranges: Range[] = [];
  for (let i = 0; i < sorted.length; i += 2) {
    const close = sorted[i + 1];
    const nl = close === undefined ? -1 : buffer.indexOf(NL, close);
    ranges.push({ start: sorted[i], end: close === undefined || nl < 0 ? buffer.length : nl + 1 });
  }
  return ranges;
}

export interface TailOptions {
  /** Stop after items totalling more than this many bytes (as `- text\n`). */
  budgetBytes: number;
  /** Keep only items whose `##` section has this name (case-insensitive), e.g. `open`. */
  section?: string;
  /** Keep only items (`- text` lines) this returns true for; the budget counts kept items only. */
  keep?: (line: string) => boolean;
}

/** The last items of a category file, newest (last) first, as `- text` lines. */
export function tailItems(buffer: Buffer, options: TailOptions): string[] {
  const fences = fenceRanges(buffer);
  let fenceIndex = fences.length - 1;
  // Sections need the level-2 headings outside fences, forward, to know where each one starts.
  const headings: Array<{ at: number; name: string }> = [];
  if (options.section !== undefined) {
    const inFence = (pos: number) => fences.some((f) => pos >= f.start && pos < f.end);
    const bom = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
    const firstAt = buffer[bom] === HASH ? bom : -1;
    for (let at = firstAt >= 0 ? firstAt : buffer.indexOf('\n#'); at >= 0; at = buffer.indexOf('\n#', at + 1)) {
      const start = at === firstAt ? 0 : at + 1;
      if (inFence(start)) continue;
      const nl = buffer.indexOf(NL, start);
      const match = HEADING_LINE.exec(lineText(buffer, start, nl < 0 ? buffer.length : nl));
      if (match && match[1].length === 2) headings.push({ at: start, name: match[2].trim().toLowerCase() });
    }
  }
  let headingIndex = headings.length - 1;
  const wanted = options.section?.toLowerCase();

  const items: string[] = [];
  let used = 0;
  let pending: string[] = [];
  let end = buffer.length;
  // A final newline does not start another line.
  if (end > 0 && buffer[end - 1] === NL) end--;
  while (end >= 0 && used <= options.budgetBytes) {
    const start = lineStart(buffer, end);
    while (fenceIndex >= 0 && fences[fenceIndex].start > start) fenceIndex--;
    const fenced = fenceIndex >= 0 && start < fences[fenceIndex].end && start >= fences[fenceIndex].start;
    if (fenced) {
      pending = [];
    } else {
      // The same rules, in the same order, as listItems.
      const text = lineText(buffer, start, end);
      const item = HEADING_LINE.test(text) ? undefined : ITEM_LINE.exec(text);
      if (item) {
        while (headingIndex >= 0 && headings[headingIndex].at > start) headingIndex--;
        const section = headingIndex >= 0 ? headings[headingIndex].name : undefined;
        const line = renderItemLine([item[2].trim(), ...pending].join(' '));
        if ((wanted === undefined || section === wanted) && (!options.keep || options.keep(line))) {
          items.push(line);
          used += Buffer.byteLength(line, 'utf8') + 1;
        }
        pending = [];
      } else if (continuesItem(text) && !HEADING_LINE.test(text)) {
        pending.unshift(text.trim());
      } else if (text.trim() !== '') {
        pending = [];
      }
    }
    if (start === 0) break;
    end = start - 1;
  }
  return items;
}
