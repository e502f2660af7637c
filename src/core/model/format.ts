/** Human-readable sizes, token counts and item counts, shared by the CLI and the extension. */
import { ITEM_CATEGORIES, type ItemCategory, type ItemCounts } from './categories';
import { lazy } from '../base/lazy';

// The secret rules compile tens of patterns when loaded; most texts printed through here need none of them.
const redact = lazy(() => require('./safety/redact') as typeof import('./safety/redact'));

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}K`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** How a person says each category's count: [one, many]. */
const ITEM_WORDS: Record<ItemCategory, [string, string]> = {
  facts: ['fact', 'facts'],
  decisions: ['decision', 'decisions'],
  tasks_done: ['done task', 'done tasks'],
  tasks_open: ['open task', 'open tasks'],
  questions: ['question', 'questions'],
  playbooks: ['playbook', 'playbooks'],
  files: ['file note', 'file notes'],
};

/** `fact`, `open task`, `file note`: one item of a category, as a person says it. */
export function categoryWord(category: ItemCategory): string {
  return ITEM_WORDS[category][0];
}

/** `3 facts, 1 decision, 2 open tasks` in schema order, zeros left out; `no new items` when all are zero. */
export function itemCountsText(items: ItemCounts): string {
  const parts = ITEM_CATEGORIES.filter((k) => (items[k] ?? 0) > 0).map((k) => `${items[k]} ${ITEM_WORDS[k][items[k] === 1 ? 0 : 1]}`);
  return parts.length ? parts.join(', ') : 'no new items';
}

/**
 * What a harvest does with the inbox conversations it reclaims, in words rather than "reclaimed":
 * `2 conversations removed from the inbox, 1 moved to the archive`; `planned` says what will
 * happen (`… to be removed from the inbox`). Empty when there are none.
 */
export function reclaimText(actions: ReadonlyArray<'delete' | 'archive'>, planned = false): string {
  const count = (n: number) => `${n} conversation${n === 1 ? '' : 's'}${planned ? ' to be' : ''}`;
  const deleted = actions.filter((a) => a === 'delete').length;
  const archived = actions.length - deleted;
  return [deleted ? `${count(deleted)} removed from the inbox` : '', archived ? `${count(archived)} moved to the archive` : '']
    .filter(Boolean)
    .join(', ');
}

/**
 * Control characters a terminal acts on (C0 except tab, DEL, C1) plus the Unicode line
 * separators and bidirectional overrides that make printed text look like something else.
 */
const UNPRINTABLE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNPRINTABLE_KEEPING_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r' };

/**
 * `text` safe to print on a terminal: a file name such as `x\x1b]0;pwned\x07.md` would otherwise
 * retitle the window, clear the screen or forge report lines. Each control character becomes a
 * visible escape (`\x1b`, `\r`, `\x07`, `\u202e`); tabs stay. Names and ids lose line breaks too;
 * `keepLineBreaks` keeps `\n` for multi-line messages.
 */
export function printable(text: string, options: { keepLineBreaks?: boolean } = {}): string {
  return text.replace(options.keepLineBreaks ? UNPRINTABLE_KEEPING_LINES : UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return NAMED_ESCAPES[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/**
 * A file's path as printed for a person: a file can be named by what it holds (an agent's session
 * id, a pasted key), so secrets in its name are redacted as in every other text Lore shows.
 */
export function printablePath(file: string): string {
  return printable(redact().redactSecrets(file));
}

/**
 * One line of at most `max` characters (whitespace folded), cut at a space when one is not too far
 * back, with `…`. Secrets are redacted first: what is cut here (items, snippets, queries) goes to
 * an agent or a model, and a cut through a key would keep its front where no rule finds it.
 */
export function cutToLine(text: string, max: number): string {
  const flat = redact().redactSecrets(text).replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(' ', max - 1);
  return redact().cutRedacted(flat, space > max / 2 ? space : max - 1) + '…';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A moment as a person says it, in the local time zone, for what Lore lists (views, the CLI's
 * text): `today 14:05`, `yesterday 09:30`, `Monday 16:20` within the past week, `12 Mar` earlier
 * this year, `12 Mar 2025` before that; `withTime: false` leaves the time of day out. Files Lore
 * writes and --json keep ISO 8601: this is for reading, not for parsing. An unreadable value is
 * returned as it is (a hand-edited ledger's `at`). A day alone (`2026-03-12`, as provenance
 * dates are) is that calendar day here, said without a time.
 */
export function humanTime(at: string | number | Date, options: { now?: number | Date; withTime?: boolean } = {}): string {
  const dayOnly = typeof at === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(at) : null;
  const date = dayOnly ? new Date(Number(dayOnly[1]), Number(dayOnly[2]) - 1, Number(dayOnly[3])) : at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  const now = new Date(options.now ?? Date.now());
  const time =
    options.withTime === false || dayOnly
      ? ''
      : ` ${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
  const midnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  // Days between the two calendar dates (rounded: a daylight-saving day is 23 or 25 hours).
  const days = Math.round((midnight(now) - midnight(date)) / DAY_MS);
  if (days === 0) return `today${time}`;
  if (days === 1) return `yesterday${time}`;
  if (days > 1 && days < 7) return `${WEEKDAYS[date.getDay()]}${time}`;
  const day = `${date.getDate()} ${MONTHS[date.getMonth()]}`;
  return date.getFullYear() === now.getFullYear() && days > 0 ? day : `${day} ${date.getFullYear()}`;
}
