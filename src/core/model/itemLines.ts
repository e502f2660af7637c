/**
 * Turns validated harvest items into the markdown lines of the category files, in the line
 * shapes of design.md: `- statement — detail [from: ID, date]` and
 * `- **name**: steps [from: ID, date]`.
 */
import type { PlaybookItem, StatementItem } from './categories';
import { formatProvenance, neutralizeItemText, parseProvenance, type Provenance } from './provenance';
import { withoutSupersession } from './supersession';

/** `- statement — detail [from: …]` (the detail part only when there is one). */
export function statementLine(item: StatementItem, provenance: Provenance): string {
  const statement = neutralizeItemText(item.statement);
  const detail = item.detail ? neutralizeItemText(item.detail) : '';
  const body = detail ? `${statement} — ${detail}` : statement;
  return `- ${body} ${formatProvenance(provenance)}`;
}

/** `- **name**: steps [from: …]`. */
export function playbookLine(item: PlaybookItem, provenance: Provenance): string {
  const name = neutralizeItemText(item.name).replace(/\*\*/g, '');
  return `- **${name}**: ${neutralizeItemText(item.steps)} ${formatProvenance(provenance)}`;
}

/** `- path: note [from: …]`, the facts.md fallback for a note whose file does not resolve. */
export function orphanNoteLine(filePath: string, note: string, provenance: Provenance): string {
  return `- ${neutralizeItemText(filePath)}: ${neutralizeItemText(note)} ${formatProvenance(provenance)}`;
}

/** `- note [from: …]` inside a per-file note file. */
export function noteLine(note: string, provenance: Provenance): string {
  return `- ${neutralizeItemText(note)} ${formatProvenance(provenance)}`;
}

/**
 * The identity of an item line for de-duplication: its text without provenance date, with
 * whitespace and case folded, plus the provenance source. Re-running a harvest after a crash
 * recognises lines it already wrote this way. A `[superseded by id, date]` marker (supersession.ts)
 * is not part of it: marking an item superseded keeps its id; nor are the sources after the first
 * (a merged line keeps the id it had).
 */
export function lineIdentity(line: string): string {
  const trimmed = withoutSupersession(line).trim().replace(/^[-*+]\s+/, '');
  // Only the first source counts: sources merged into a line later (provenance.ts) keep its id.
  const provenance = parseProvenance(trimmed);
  const text = (provenance ? trimmed.slice(0, provenance.start) : trimmed).replace(/\s+/g, ' ').trim().toLowerCase();
  return provenance ? `${provenance.source}\u0000${text}` : text;
}

/**
 * Every identity a line answers to: lineIdentity, and the same text under each further source it
 * carries (a merged line, provenance.ts). A harvest that meets one of those sources again finds
 * its line already there, merged, and does not add it a second time.
 */
export function lineIdentities(line: string): string[] {
  const identity = lineIdentity(line);
  const provenance = parseProvenance(line);
  if (!provenance || provenance.sources.length < 2) return [identity];
  const text = identity.slice(identity.indexOf('\u0000') + 1);
  return [identity, ...provenance.sources.slice(1).map((p) => `${p.source}\u0000${text}`)];
}

/** An indexed item as the line it came from (provenance put back), as the rules and review.md see it. */
export function recordLine(record: { text: string; source?: string; date?: string }): string {
  const { text, source, date } = record;
  return source && date ? `- ${text} [from: ${source}, ${date}]` : text;
}
