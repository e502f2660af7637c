/**
 * Provenance: every harvested line ends `[from: ID, YYYY-MM-DD]`. This module is the single
 * parser/formatter for it; everything else (digest, notes, hovers, links, diagnostics) uses it.
 *
 * A line that several conversations taught (duplicates merged by `lore tidy` or by a harvest's
 * `same_as`) carries every source, first one first: `[from: a, 2026-11-20; b, 2026-11-24]`. The
 * first source is the line's own (its identity and id, the link a lens opens); `sources` lists all.
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
  /** Every source the line carries, the first one (`source`, `date`) first; one for most lines. */
  sources: ParsedSource[];
}

/** One `ID, date` entry of a marker, with where it stands in the line (a link per source). */
export interface ParsedSource extends Provenance {
  /** Offset of the id in the line. */
  start: number;
  /** Offset just past the date. */
  end: number;
}

/** A trailing provenance marker: `[from: ` one or more `ID, date` separated by `;`, then `]`. */
const TRAILING = /\[from:([^[\]\r\n]*)\]\s*$/;
/**
 * One `ID, date` entry, read from where the last one ended. The id may not contain `,` `[` `]`
 * (a `;` inside an id of an older line stays part of it: an entry ends only at its date); spaces
 * around parts are tolerated.
 */
const ENTRY = /\s*([^,[\]\r\n\s;][^,[\]\r\n]*?)\s*,\s*(\d{4}-\d{2}-\d{2})\s*(?:;|$)/y;
/** Any marker-looking text, used to spot broken provenance (for diagnostics). */
const ANY_MARKER = /\[from:[^\]\r\n]*\]?/;

/** Formats the marker for a source and date. */
export function formatProvenance(p: Provenance): string {
  return `[from: ${p.source}, ${p.date}]`;
}

/** Formats the marker for several sources, first one first: `[from: a, d1; b, d2]`. */
export function formatSources(sources: readonly Provenance[]): string {
  return `[from: ${sources.map((p) => `${p.source}, ${p.date}`).join('; ')}]`;
}

/** The `ID, date` entries inside a marker (`offset`: where `inner` starts in the line), or undefined when any part is not one. */
function parseEntries(inner: string, offset: number): ParsedSource[] | undefined {
  const entries: ParsedSource[] = [];
  ENTRY.lastIndex = 0;
  while (ENTRY.lastIndex < inner.length) {
    const at = ENTRY.lastIndex;
    const match = ENTRY.exec(inner);
    if (!match || ENTRY.lastIndex === at) return inner.slice(at).trim() === '' && entries.length ? entries : undefined;
    const start = offset + at + match[0].indexOf(match[1]);
    const end = offset + at + match[0].lastIndexOf(match[2]) + match[2].length;
    entries.push({ source: match[1], date: match[2], start, end });
  }
  return entries.length ? entries : undefined;
}

/** The sources of a parsed marker as plain provenance (no offsets), e.g. to add them to another line. */
export function plainSources(sources: readonly Provenance[]): Provenance[] {
  return sources.map(({ source, date }) => ({ source, date }));
}

/** Parses the provenance at the end of a line, or returns undefined when there is none. */
export function parseProvenance(line: string): ParsedProvenance | undefined {
  if (!line.includes('[from:')) return undefined;
  const match = TRAILING.exec(line);
  if (!match) return undefined;
  const sources = parseEntries(match[1], match.index + '[from:'.length);
  if (!sources) return undefined;
  return {
    source: sources[0].source,
    date: sources[0].date,
    start: match.index,
    end: match.index + match[0].trimEnd().length,
    validDate: sources.every((p) => isCalendarDate(p.date)),
    sources,
  };
}

/**
 * The line with `more` sources added to its provenance (after the ones it has, each source and
 * date once), or with a marker of them when it has none. The line's own source stays first, so
 * its id does not change.
 */
export function addSources(line: string, more: readonly Provenance[]): string {
  const parsed = parseProvenance(line);
  const have = parsed?.sources ?? [];
  const seen = new Set(have.map((p) => `${p.source}\u0000${p.date}`));
  const added = more.filter((p) => {
    const key = `${p.source}\u0000${p.date}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (added.length === 0) return line;
  if (!parsed) return `${line.trimEnd()} ${formatSources(added)}`;
  return `${line.slice(0, parsed.start)}${formatSources([...have, ...added])}${line.slice(parsed.end)}`;
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
 * `[superseded by` that would hide an item from the digest. Conversation text is untrusted input.
 */
export function neutralizeItemText(text: string): string {
  return text
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ')
    .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')
    .replace(/\[from:/gi, '(from:')
    .replace(/\[superseded by\b/gi, '(superseded by')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
