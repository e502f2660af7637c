/**
 * The item grammar, the one place that says what a knowledge item line is, and the line shapes
 * Lore writes (design.md): `- statement — detail [from: ID, date]`, `- **name**: steps [from: ID, date]`.
 *
 * An item is a line that starts, at column 0, with a bullet (`-`, `*` or `+`) and white space, as
 * markdown lists are written by hand; an indented line under it continues it (a wrapped item or a
 * nested bullet, see categoryFile's listItems). After the bullet: an optional task checkbox (`[ ]`,
 * `[x]`), the statement, an optional `[superseded by id, date]` marker (supersession.ts) and the
 * trailing provenance `[from: ID, date]` (provenance.ts). No line inside a code fence is an item, and a
 * `##` heading starts a section (FENCE_LINE, HEADING_LINE). Lore writes `- `; every reader (category
 * and note files, review.md, the digest, search, forget, tidy, the context) accepts all three
 * bullets through this module, so a hand-written `+` item is an item everywhere. An item's id is
 * itemId(line) (itemId.ts), derived from lineIdentity below.
 */
import type { PlaybookItem, StatementItem } from './categories';
import {
  formatProvenance,
  formatSources,
  neutralizeItemText,
  parseProvenance,
  stripProvenance,
  type ParsedProvenance,
  type Provenance,
} from './provenance';
import { readSupersession, withoutSupersession, type Supersession } from './supersession';

/**
 * An item line: bullet at column 0, white space, the rest (group 1: the bullet, group 2: the rest,
 * whatever characters it holds: a `\r` left by a split on `\n`, or a U+2028, must not turn an item
 * into a non-item for one reader only).
 */
export const ITEM_LINE = /^([-*+])\s+([\s\S]*)$/;
/** A heading line (group 1: the `#`s, group 2: its text); in a category file `##` starts a section. */
export const HEADING_LINE = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
/** A line that opens or closes a code fence: no line inside one is an item. */
export const FENCE_LINE = /^\s*(```|~~~)/;
/** A bullet with any indentation before it and the white space after it, to take it off a line. */
const BULLET = /^\s*[-*+]\s+/;
/** A task checkbox right after the bullet. */
const CHECKBOX = /^\[([ xX])\]\s+/;

/** Whether a line continues the item above it: indented by two or more (a wrapped item, a nested bullet). */
export function continuesItem(line: string): boolean {
  return /^\s{2,}\S/.test(line);
}

/** Whether a line is an item line (bullet at column 0); an indented bullet continues the item above. */
export function isItemLine(line: string): boolean {
  return ITEM_LINE.test(line);
}

/** The line without its bullet (and any indentation before it); a text without one is returned as it is. */
export function withoutBullet(line: string): string {
  return line.replace(BULLET, '');
}

/** Where the text after the bullet starts in `line` (0 when it has no bullet). */
export function bulletLength(line: string): number {
  return BULLET.exec(line)?.[0].length ?? 0;
}

/**
 * The statement of an item's line or text: without bullet, checkbox, supersession marker and
 * provenance. What a person reads as "the item" (similarity, journal entries, where it came from).
 */
export function itemStatement(lineOrText: string): string {
  return withoutSupersession(stripProvenance(withoutBullet(lineOrText)))
    .replace(CHECKBOX, '')
    .trim();
}

/** One item line taken apart. */
export interface ParsedItemLine {
  bullet: '-' | '*' | '+';
  /** Everything after the bullet, marks and provenance included. */
  body: string;
  /** Set when the item starts with a task checkbox: whether it is ticked. */
  checked?: boolean;
  /** The statement (itemStatement). */
  text: string;
  /** The trailing provenance (offsets into the whole line). */
  provenance?: ParsedProvenance;
  /** Set when the item was superseded by a newer one. */
  supersession?: Supersession;
}

/** Takes an item line apart, or undefined when the line is not one (see isItemLine). */
export function parseItemLine(line: string): ParsedItemLine | undefined {
  const match = ITEM_LINE.exec(line);
  if (!match) return undefined;
  const body = match[2];
  const box = CHECKBOX.exec(body);
  const provenance = parseProvenance(line);
  const supersession = readSupersession(body);
  return {
    bullet: match[1] as ParsedItemLine['bullet'],
    body,
    ...(box ? { checked: box[1] !== ' ' } : {}),
    text: itemStatement(body),
    ...(provenance ? { provenance } : {}),
    ...(supersession ? { supersession } : {}),
  };
}

/**
 * An item line as Lore writes it: `- text`, with its provenance (one source, or several, first one
 * first) when given. The text is used as it is: neutralize untrusted text first (neutralizeItemText).
 */
export function renderItemLine(text: string, provenance?: Provenance | readonly Provenance[]): string {
  if (!provenance) return `- ${text}`;
  const marker = 'source' in provenance ? formatProvenance(provenance) : formatSources(provenance);
  return `- ${text} ${marker}`;
}

/** `- statement — detail [from: …]` (the detail part only when there is one). */
export function statementLine(item: StatementItem, provenance: Provenance): string {
  const statement = neutralizeItemText(item.statement);
  const detail = item.detail ? neutralizeItemText(item.detail) : '';
  return renderItemLine(detail ? `${statement} — ${detail}` : statement, provenance);
}

/** `- **name**: steps [from: …]`. */
export function playbookLine(item: PlaybookItem, provenance: Provenance): string {
  const name = neutralizeItemText(item.name).replace(/\*\*/g, '');
  return renderItemLine(`**${name}**: ${neutralizeItemText(item.steps)}`, provenance);
}

/** `- path: note [from: …]`, the facts.md fallback for a note whose file does not resolve. */
export function orphanNoteLine(filePath: string, note: string, provenance: Provenance): string {
  return renderItemLine(`${neutralizeItemText(filePath)}: ${neutralizeItemText(note)}`, provenance);
}

/** `- note [from: …]` inside a per-file note file. */
export function noteLine(note: string, provenance: Provenance): string {
  return renderItemLine(neutralizeItemText(note), provenance);
}

/**
 * The identity of an item line for de-duplication: its text without provenance date, with
 * whitespace and case folded, plus the provenance source. Re-running a harvest after a crash
 * recognises lines it already wrote this way. A `[superseded by id, date]` marker (supersession.ts)
 * is not part of it: marking an item superseded keeps its id; nor are the sources after the first
 * (a merged line keeps the id it had); nor is the bullet (`+ x` and `- x` are one item).
 */
export function lineIdentity(line: string): string {
  const trimmed = withoutBullet(withoutSupersession(line).trim());
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
  return source && date ? renderItemLine(text, { source, date }) : text;
}
