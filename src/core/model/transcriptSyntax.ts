/**
 * The §2.1 transcript syntax shared by its parser (loreTranscript.ts) and its renderer
 * (renderTranscript.ts): turn headings, tool lines, `HH:MM` clocks and YAML frontmatter. Both sides
 * use these same definitions, which is what makes render ∘ parse stable.
 */
import { parseFrontmatter } from '../base/yamlFrontmatter';

/**
 * A turn heading: `## 18:45 — user`, `## 18:45 - agent [memory]`, `## user`. Groups: hour, minute,
 * role. A timed heading may capitalise the role; an untimed one must be lowercase, so that an
 * ordinary `## User` section in someone's notes is not taken for a turn.
 */
const TURN_HEADING =
  /^##[ \t]+(?:(\d{1,2}):(\d{2})(?::\d{2})?[ \t]+[—–-]+[ \t]+)?(user|agent|assistant|system)(?:[ \t]+\[[^\]\n]*\])?[ \t]*$/i;

/** A tool-ish summary: `[tool:Bash] npm test`, `[knowledge:updated] x.md`, `[attachment:img.png]`, `[tool] X`. */
const TOOL_STRING = /^\[[A-Za-z][\w.-]*(?::[^\]\n]*)?\](?: |$)/;

/** An ISO date-time's calendar date and clock; the zone suffix is checked separately. */
/**
 * Words YAML 1.2 reads as booleans or null, and YAML 1.1's other booleans (not read so by this
 * parser, kept out of the shortcut anyway): such a word is left to the parser.
 */
const YAML_WORDS = /^(?:true|false|null|yes|no|on|off|y|n)$/i;
/**
 * Text YAML can only read back as itself: a letter, `_` or `/` first (no number, date, `~`,
 * `.inf`, indicator or quote), then only letters, digits, `_`, `.`, `/` and `-` (no `: `, ` #`).
 */
const SURELY_PLAIN = /^[A-Za-z_/][\w./-]*$/;
/** A UTC ISO timestamp, which YAML reads as a date (`started:` keeps it plain). */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const ISO_PREFIX = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/;
const ZONE_SUFFIX = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/** A parsed turn heading. */
export interface TurnHeading {
  role: 'user' | 'assistant' | 'system';
  /** `HH:MM` when the heading carries a clock. */
  hour?: number;
  minute?: number;
}

/** Parses a `## …` turn heading line, or returns undefined for any other line. */
export function parseTurnHeading(line: string): TurnHeading | undefined {
  if (!line.startsWith('##')) return undefined;
  const m = TURN_HEADING.exec(line);
  if (!m) return undefined;
  const timed = m[1] !== undefined;
  const roleWord = m[3];
  if (!timed && roleWord !== roleWord.toLowerCase()) return undefined;
  const lower = roleWord.toLowerCase();
  const role = lower === 'user' ? 'user' : lower === 'system' ? 'system' : 'assistant';
  if (!timed) return { role };
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return { role };
  return { role, hour, minute };
}

/**
 * A turn's heading repeated where a piece of the transcript starts inside that turn:
 * `## 14:05 — agent [continued]`. The mark sits where the syntax allows a tag, replacing one the
 * heading had, so the line still parses as the same speaker's heading.
 */
export function continuedTurnHeading(heading: string): string {
  return `${heading.replace(/[ \t]+\[[^\]\n]*\][ \t]*$/, '').trimEnd()} [continued]`;
}

/**
 * True for any line a transcript reader might take for a turn heading, including ones this parser
 * does not (`## User guide`, `## agent notes`): the renderer escapes all of them inside turn text.
 */
export function looksLikeTurnHeading(line: string): boolean {
  return /^##[ \t]+(?:\d{1,2}:\d{2}(?::\d{2})?[ \t]+[—–-]+[ \t]+)?(?:user|agent|assistant|system)\b/i.test(line);
}

/** The tool summary of a `> [tool:…] …` line, or undefined when the line is not one. */
export function parseToolLine(line: string): string | undefined {
  if (!line.startsWith('> [')) return undefined;
  const tool = line.slice(2).trimEnd();
  return TOOL_STRING.test(tool) ? tool : undefined;
}

/** True when a tool summary already has the `[kind…]` shape the parser recognises. */
export function isToolString(tool: string): boolean {
  return TOOL_STRING.test(tool);
}

/** `HH:MM` of a timestamp: UTC when it carries a zone, its wall clock when it does not. */
export function formatClock(at: string | undefined): string | undefined {
  if (!at) return undefined;
  const text = at.trim();
  if (ZONE_SUFFIX.test(text)) {
    const d = new Date(text);
    if (!Number.isNaN(d.getTime())) {
      return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    }
  }
  const m = ISO_PREFIX.exec(text);
  return m && m[4] !== undefined ? `${m[4]}:${m[5]}` : undefined;
}

/** The day and clock a transcript's `started` gives, used to date its `HH:MM` headings. */
export interface ClockBase {
  /** Midnight of the start day, as epoch ms (UTC arithmetic only). */
  dayMs: number;
  /** Minutes after midnight of the start. */
  minutes: number;
  /** True when `started` carried a zone, so turn times are UTC (`…Z`). */
  zoned: boolean;
}

/** Reads the start day and clock from a timestamp, or undefined when it is not ISO-like. */
export function clockBase(started: string | undefined): ClockBase | undefined {
  if (!started) return undefined;
  const text = started.trim();
  if (ZONE_SUFFIX.test(text) && /T|\s/.test(text)) {
    const d = new Date(text);
    if (Number.isNaN(d.getTime())) return undefined;
    return {
      dayMs: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()),
      minutes: d.getUTCHours() * 60 + d.getUTCMinutes(),
      zoned: true,
    };
  }
  const m = ISO_PREFIX.exec(text);
  if (!m) return undefined;
  const dayMs = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(dayMs)) return undefined;
  const minutes = m[4] !== undefined ? Number(m[4]) * 60 + Number(m[5]) : 0;
  return { dayMs, minutes, zoned: false };
}

/** The ISO timestamp of `HH:MM` on the start day plus `dayOffset` days. */
export function clockToIso(base: ClockBase, dayOffset: number, hour: number, minute: number): string {
  const day = new Date(base.dayMs + dayOffset * 86_400_000).toISOString().slice(0, 10);
  const clock = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`;
  return base.zoned ? `${day}T${clock}.000Z` : `${day}T${clock}`;
}

/** A transcript's frontmatter: parsed values plus the raw block (to recover scalars YAML retyped). */
export interface Frontmatter {
  data: Record<string, unknown>;
  raw: string;
  /** The text after the closing `---`. */
  body: string;
}

/**
 * Splits and parses YAML frontmatter. Returns undefined when there is none or when the YAML is
 * invalid: a broken header must not lose the transcript, which is then read as having no header.
 */
export function readFrontmatter(text: string): Frontmatter | undefined {
  const src = text.startsWith('\ufeff') ? text.slice(1) : text;
  if (!/^---[ \t]*\n/.test(src)) return undefined;
  const firstNl = src.indexOf('\n');
  let at = firstNl;
  for (;;) {
    const close = src.indexOf('\n---', at);
    if (close < 0) return undefined;
    const lineEnd = src.indexOf('\n', close + 4);
    const rest = src.slice(close + 4, lineEnd < 0 ? src.length : lineEnd);
    if (rest.trim() === '') {
      const raw = src.slice(firstNl + 1, close + 1);
      const data = parseYaml(raw);
      if (!data) return undefined;
      return { data, raw, body: lineEnd < 0 ? '' : src.slice(lineEnd + 1) };
    }
    at = close + 4;
  }
}

function parseYaml(block: string): Record<string, unknown> | undefined {
  if (block.trim() === '') return {};
  try {
    const data: unknown = parseFrontmatter(`---\n${block}---\n`).data;
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A frontmatter field as a string. YAML turns `started: 2026-02-16T18:45:00Z` into a Date and
 * `session_id: 123` into a number; for those the text as written is recovered from the raw block,
 * so that re-rendering reproduces it exactly.
 */
export function frontmatterString(fm: Frontmatter, key: string): string | undefined {
  const value = fm.data[key];
  if (typeof value === 'string') return value;
  if (value instanceof Date || typeof value === 'number' || typeof value === 'boolean') {
    const raw = rawScalar(fm.raw, key);
    if (raw !== undefined) return raw;
    return value instanceof Date ? (Number.isNaN(value.getTime()) ? undefined : value.toISOString()) : String(value);
  }
  return undefined;
}

function rawScalar(block: string, key: string): string | undefined {
  for (const line of block.split('\n')) {
    if (!line.startsWith(`${key}:`)) continue;
    let value = line.slice(key.length + 1).trim();
    const comment = value.indexOf(' #');
    if (comment >= 0) value = value.slice(0, comment).trim();
    if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      try {
        return String(JSON.parse(value));
      } catch {
        return value.slice(1, -1);
      }
    }
    return value === '' ? undefined : value;
  }
  return undefined;
}

/**
 * A one-line YAML scalar for `value`: plain when YAML reads it back as the same string, otherwise
 * double-quoted. With `timestamp`, a value YAML reads as a date stays plain too, as §2.1 writes
 * `started:` (the parser recovers the text as written).
 */
export function yamlScalar(value: string, timestamp = false): string {
  const flat = value.replace(/\s+/g, ' ');
  // What every transcript header holds (ids, models, paths, an ISO start): plain without asking
  // the YAML parser, which costs a dry run more than rendering a short conversation.
  if (SURELY_PLAIN.test(flat) && !YAML_WORDS.test(flat)) return flat;
  if (timestamp && ISO_UTC.test(flat)) return flat;
  if (flat !== '' && flat === flat.trim()) {
    const back = parseYaml(`k: ${flat}\n`);
    if (back && (back.k === flat || (timestamp && back.k instanceof Date && ISO_PREFIX.test(flat)))) return flat;
  }
  return JSON.stringify(flat);
}
