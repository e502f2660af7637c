/**
 * Provenance: every harvested line ends `[from: ID, YYYY-MM-DD]`. This module is the single
 * parser/formatter for it; everything else (digest, notes, hovers, links, diagnostics) uses it.
 */

export interface Provenance {
  /** Conversation id (file stem or session id), or `manual` for notes a person added. */
  source: string;
  /** Calendar date `YYYY-MM-DD`. */
  date: string;
}

export interface ParsedProvenance extends Provenance {
  /** Offset of `[from:` in the line. */
  start: number;
  /** Offset just past the closing `]`. */
  end: number;
  /** False when the date is not a real calendar date (e.g. 2026-02-30). */
  validDate: boolean;
}

/** A trailing provenance marker. The id may not contain `,` `[` `]`; spaces around parts are tolerated. */
const TRAILING = /\[from:\s*([^,[\]\r\n\s][^,[\]\r\n]*?)\s*,\s*(\d{4}-\d{2}-\d{2})\s*\]\s*$/;
/** Any marker-looking text, used to spot broken provenance (for diagnostics). */
const ANY_MARKER = /\[from:[^\]\r\n]*\]?/;

/** Formats the marker for a source and date. */
export function formatProvenance(p: Provenance): string {
  return `[from: ${p.source}, ${p.date}]`;
}

/** Parses the provenance at the end of a line, or returns undefined when there is none. */
export function parseProvenance(line: string): ParsedProvenance | undefined {
  const match = TRAILING.exec(line);
  if (!match) return undefined;
  return {
    source: match[1],
    date: match[2],
    start: match.index,
    end: match.index + match[0].trimEnd().length,
    validDate: isCalendarDate(match[2]),
  };
}

/**
 * True when the line contains something that looks like a provenance marker but is not a
 * well-formed trailing one (unclosed bracket, missing date, text after it).
 */
export function hasMalformedProvenance(line: string): boolean {
  if (!ANY_MARKER.test(line)) return false;
  const parsed = parseProvenance(line);
  return !parsed || !parsed.validDate;
}

/** Removes the trailing provenance, returning the statement part. */
export function stripProvenance(line: string): string {
  const parsed = parseProvenance(line);
  return parsed ? line.slice(0, parsed.start).trimEnd() : line;
}

/** `YYYY-MM-DD` of a Date in UTC. */
export function toIsoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Checks that `YYYY-MM-DD` names a real day. */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Makes text safe to sit before a provenance marker on one line: no line breaks (which would
 * forge new list items or headings) and no `[from:` that could be mistaken for provenance, nor
 * `[superseded by:` that would hide an item from the digest. Conversation text is untrusted input.
 */
export function neutralizeItemText(text: string): string {
  return text
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ')
    .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')
    .replace(/\[from:/gi, '(from:')
    .replace(/\[superseded by:/gi, '(superseded by:')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
