/**
 * Supersession, a relation between two items: an item replaced by a newer one stays in its file,
 * visible to a person, marked with the newer item's id and the day it was superseded, just before
 * its provenance:
 *
 *     - deploys go through Jenkins [superseded by k3m9x2ab, 2026-11-27] [from: c1, 2026-11-20]
 *
 * Lines marked by earlier versions (`[superseded by: k3m9x2ab]`, no date) are read the same way
 * and rewritten in the new form when marked again. The marker is not part of the item's identity
 * (lineIdentity drops it), so the marked line keeps its id and a person can still find it by the id
 * an agent named. A superseded item leaves the digest, the context and default search results;
 * deleting the marker by hand brings the item back.
 */
import { isCalendarDate, parseProvenance } from './provenance';

/** The marker anywhere in a line, either form (identity drops it wherever a person moved it). */
const MARKER = /\s*\[superseded by:?\s*([0-9a-z]{8})\s*(?:,\s*(\d{4}-\d{2}-\d{2})\s*)?\]/gi;
const HAS_MARKER = /\[superseded by:?\s*([0-9a-z]{8})\s*(?:,\s*(\d{4}-\d{2}-\d{2})\s*)?\]/i;

/** What a marker says: the newer item's id and, for lines marked since dates were written, the day. */
export interface Supersession {
  by: string;
  date?: string;
}

/** The marker of a line or text, or undefined when the item is current. */
export function readSupersession(text: string): Supersession | undefined {
  if (!text.includes('[')) return undefined;
  const match = HAS_MARKER.exec(text);
  if (!match) return undefined;
  const date = match[2] && isCalendarDate(match[2]) ? match[2] : undefined;
  return { by: match[1].toLowerCase(), ...(date ? { date } : {}) };
}

/** The id of the item that superseded this line or text, or undefined when it is current. */
export function supersededBy(text: string): string | undefined {
  return readSupersession(text)?.by;
}

/** Whether an item is current (not superseded): what the digest, context and default search serve. */
export function isCurrent(text: string): boolean {
  return supersededBy(text) === undefined;
}

/** The text without supersession markers (for identities). */
export function withoutSupersession(text: string): string {
  return text.includes('[') ? text.replace(MARKER, '') : text;
}

/** The marker for `newId`, superseded on `date` (`YYYY-MM-DD`). */
export function formatSupersession(newId: string, date: string): string {
  return `[superseded by ${newId}, ${date}]`;
}

/**
 * The line marked as superseded by `newId` on `date`: the marker goes right before the
 * provenance (which must stay last), or at the end of a line without one. A line already marked
 * is re-pointed (and an old-form marker rewritten).
 */
export function markSuperseded(line: string, newId: string, date: string): string {
  const base = withoutSupersession(line);
  const marker = formatSupersession(newId, date);
  const provenance = parseProvenance(base);
  if (!provenance) return `${base.trimEnd()} ${marker}`;
  return `${base.slice(0, provenance.start).trimEnd()} ${marker} ${base.slice(provenance.start)}`;
}
