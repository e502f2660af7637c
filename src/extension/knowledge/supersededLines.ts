/**
 * Where the superseded items of a store file are, for the strike-through: per item line the range
 * of its text (list marker and markers left out) and what superseded it. Pure, so it is tested in
 * plain Node.
 */
import { listItems } from '../../core/model/categoryFile';
import { readSupersession } from '../../core/model/supersession';

export interface SupersededLine {
  /** 0-based line. */
  line: number;
  /** Character range of the item's statement on that line. */
  start: number;
  end: number;
  by: string;
  date?: string;
}

/** The superseded item lines of a category or note file's text. */
export function supersededLines(text: string): SupersededLine[] {
  if (!text.includes('[superseded by')) return [];
  const out: SupersededLine[] = [];
  for (const item of listItems(text)) {
    const marker = readSupersession(item.raw);
    if (!marker) continue;
    const start = /^\s*[-*+]\s+/.exec(item.raw)?.[0].length ?? 0;
    const at = item.raw.indexOf('[superseded by');
    const end = item.raw.slice(0, at).trimEnd().length;
    out.push({ line: item.line, start, end: Math.max(start, end), by: marker.by, ...(marker.date ? { date: marker.date } : {}) });
  }
  return out;
}
