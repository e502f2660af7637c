/**
 * Provenance markers in the store's own markdown (category files, note files, the digest): which
 * lines count, and what is wrong with a broken marker and how to fix it. Pure functions over
 * text; parsing and validity come from core's provenance module, the single parser.
 *
 * A line without provenance is fine (people write knowledge by hand). A marker is broken when it
 * is unclosed, is not at the end of the line, lacks an id or date, or names a day that does not
 * exist (2026-02-30).
 */
import * as path from 'node:path';
import { formatProvenance, hasMalformedProvenance, isCalendarDate, parseProvenance } from '../core/model/provenance';
import { FENCE_LINE } from '../core/model/itemLines';
import { REVIEW_FILE } from '../core/model/reviewFile';
import { isInside, type StorePaths } from '../core/store/storePaths';

export type StoreDocumentKind = 'category' | 'note' | 'digest';

/** Which kind of store markdown a file is, or undefined for anything else (transcripts, prompts…). */
export function storeDocumentKind(paths: StorePaths, absolute: string): StoreDocumentKind | undefined {
  if (!absolute.endsWith('.md') || !isInside(paths.root, absolute)) return undefined;
  const dir = path.dirname(absolute);
  if (dir === paths.files) return 'note';
  // The personal layer's category files are category files too (its review.md and digest are not).
  if (dir === paths.personal) return ['review.md', 'digest.md'].includes(path.basename(absolute)) ? undefined : 'category';
  if (dir !== paths.root) return undefined;
  // review.md's held lines end with a ` [flagged: …]` marker after their provenance: not items to check.
  if (path.basename(absolute) === REVIEW_FILE) return undefined;
  return absolute === paths.digest ? 'digest' : 'category';
}

/** The lines that can hold knowledge items: not in the note file's frontmatter, not in code fences. */
export function contentLines(text: string): Array<{ line: number; text: string }> {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const out: Array<{ line: number; text: string }> = [];
  let start = 0;
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
    if (close > 0) start = close + 1;
  }
  let inFence = false;
  for (let i = start; i < lines.length; i++) {
    if (FENCE_LINE.test(lines[i])) {
      inFence = !inFence;
      continue;
    }
    if (!inFence) out.push({ line: i, text: lines[i] });
  }
  return out;
}

export type ProvenanceProblemCode = 'provenance-date' | 'provenance-unclosed' | 'provenance-not-trailing' | 'provenance-malformed';

export interface ProvenanceFix {
  title: string;
  /** The whole line after the fix. */
  line: string;
}

export interface ProvenanceProblem {
  code: ProvenanceProblemCode;
  message: string;
  /** Character range of the broken marker in the line. */
  start: number;
  end: number;
  /** Best fix first; removing the marker is always offered last. */
  fixes: ProvenanceFix[];
}

const MARKER = /\[from:[^\]\r\n]*\]?/;

/**
 * Repairs a date written almost right: other separators, missing zero padding, or a day past
 * the end of its month (clamped to the last day). Undefined when the month is impossible.
 */
export function repairDate(text: string): string | undefined {
  const match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text.trim());
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  let day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > last) day = last;
  const iso = `${match[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return isCalendarDate(iso) ? iso : undefined;
}

/** The line without the marker at [start, end), spacing tidied. */
function withoutMarker(line: string, start: number, end: number): string {
  const before = line.slice(0, start).trimEnd();
  const after = line.slice(end).trim();
  return after ? `${before} ${after}` : before;
}

/** Keeps only fixes whose result parses as valid provenance (or has no marker left). */
function checked(fixes: ProvenanceFix[]): ProvenanceFix[] {
  return fixes.filter((f) => !hasMalformedProvenance(f.line));
}

/** What is wrong with a line's provenance, or undefined when nothing is. */
export function analyzeProvenance(line: string): ProvenanceProblem | undefined {
  if (!hasMalformedProvenance(line)) return undefined;
  const parsed = parseProvenance(line);
  if (parsed && !parsed.validDate) {
    const date = repairDate(parsed.date);
    const fixes: ProvenanceFix[] = [];
    if (date)
      fixes.push({
        title: `Change the date to ${date}`,
        line: line.slice(0, parsed.start) + formatProvenance({ source: parsed.source, date }) + line.slice(parsed.end),
      });
    fixes.push({ title: 'Remove the provenance marker', line: withoutMarker(line, parsed.start, parsed.end) });
    return {
      code: 'provenance-date',
      message: `${parsed.date} is not a calendar date`,
      start: parsed.start,
      end: parsed.end,
      fixes: checked(fixes),
    };
  }
  const match = MARKER.exec(line);
  if (!match) return undefined;
  const start = match.index;
  const end = start + match[0].length;
  const closed = match[0].endsWith(']');
  const inner = match[0].slice('[from:'.length, closed ? -1 : undefined);
  const comma = inner.indexOf(',');
  const source = (comma < 0 ? inner : inner.slice(0, comma)).trim();
  const dateText = comma < 0 ? '' : inner.slice(comma + 1).trim();
  const date = repairDate(dateText);
  const rest = line.slice(end).trim();
  const fixes: ProvenanceFix[] = [];
  const remove: ProvenanceFix = { title: 'Remove the provenance marker', line: withoutMarker(line, start, end) };
  let code: ProvenanceProblemCode;
  let message: string;
  if (!closed) {
    code = 'provenance-unclosed';
    message = 'Provenance marker is not closed with ]';
  } else if (source && date && rest) {
    code = 'provenance-not-trailing';
    message = 'Provenance must end the line';
  } else {
    code = 'provenance-malformed';
    message = !source
      ? 'Provenance has no conversation id'
      : !dateText
        ? 'Provenance has no date (expected [from: ID, YYYY-MM-DD])'
        : `${dateText} is not a date (expected YYYY-MM-DD)`;
  }
  if (source && date && !/[[\]]/.test(source)) {
    const marker = formatProvenance({ source, date });
    const fixed = `${withoutMarker(line, start, end)} ${marker}`;
    const title =
      code === 'provenance-unclosed'
        ? 'Close the provenance marker'
        : code === 'provenance-not-trailing'
          ? 'Move the provenance to the end of the line'
          : `Write the provenance as ${marker}`;
    fixes.push({ title, line: fixed });
  }
  fixes.push(remove);
  return { code, message, start, end, fixes: checked(fixes) };
}
