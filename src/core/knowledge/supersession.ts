/**
 * Supersession: an item replaced by a newer one stays in its file, visible to a person, marked
 * `[superseded by: <id>]` just before its provenance:
 *
 *     - deploys go through Jenkins [superseded by: k3m9x2ab] [from: c1, 2026-11-20]
 *
 * The marker is not part of the item's identity (lineIdentity drops it), so the marked line keeps
 * its id and a person can still find it by the id an agent named. A superseded item leaves the
 * digest and ranks lower in search; deleting the marker by hand brings the item back.
 */
import { parseProvenance } from './provenance';

/** The marker anywhere in a line (identity drops it wherever a person moved it). */
const MARKER = /\s*\[superseded by:\s*([0-9a-z]{8})\s*\]/gi;
const HAS_MARKER = /\[superseded by:\s*([0-9a-z]{8})\s*\]/i;

/** The id of the item that superseded this line or text, or undefined when it is current. */
export function supersededBy(text: string): string | undefined {
  return HAS_MARKER.exec(text)?.[1].toLowerCase();
}

/** The text without supersession markers (for identities). */
export function withoutSupersession(text: string): string {
  return text.includes('[') ? text.replace(MARKER, '') : text;
}

/**
 * The line marked as superseded by `newId`: the marker goes right before the provenance (which
 * must stay last), or at the end of a line without one. A line already marked is re-pointed.
 */
export function markSuperseded(line: string, newId: string): string {
  const base = withoutSupersession(line);
  const marker = `[superseded by: ${newId}]`;
  const provenance = parseProvenance(base);
  if (!provenance) return `${base.trimEnd()} ${marker}`;
  return `${base.slice(0, provenance.start).trimEnd()} ${marker} ${base.slice(provenance.start)}`;
}
