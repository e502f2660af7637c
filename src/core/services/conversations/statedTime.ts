/**
 * Times that tools write for people rather than for programs: Cursor's `<timestamp>Friday, May 8,
 * 2026, 6:05 AM (UTC+5:30)</timestamp>` and its export line `_Exported on 5/19/2025 at 11:13:55 EDT
 * from Cursor (0.50.4)_` (also `2025. 7. 6. at 18시 15분 42초 GMT+9` and `2025/12/16 at GMT+8
 * 16:06:09` in other locales). `new Date()` must not read them: it ignores a parenthesised offset
 * and falls back to the host's zone, so one file would date differently on two machines. Here the
 * stated zone is applied; without one the wall-clock time is kept as UTC, so the calendar day
 * written in the file is the day recorded.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Zone abbreviations that name one offset (minutes east of UTC); ambiguous ones (IST) are left out. */
const ZONE_ABBREVIATIONS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  JST: 540,
  KST: 540,
  AEST: 600,
  AEDT: 660,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
};
const NUMERIC_ZONE = /\b(?:UTC|GMT)\s*([+-])(\d{1,2})(?::?(\d{2}))?/i;
const NAMED_DATE = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})\b/i;
const YEAR_FIRST_DATE = /\b(\d{4})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{1,2})\b/;
const YEAR_LAST_DATE = /\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b/;
const CLOCK = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?/i;
/** Korean clock: `18시 15분 42초`, with 오전 / 오후 (a.m. / p.m.) before it. */
const KOREAN_CLOCK = /(오전|오후)?\s*(\d{1,2})시\s*(\d{1,2})분(?:\s*(\d{1,2})초)?/;

/** The time a person-readable stamp states, as ISO 8601 UTC, or undefined when it holds no date. */
export function statedTimeToIso(text: string): string | undefined {
  let rest = text;
  let offset = 0;
  const numeric = NUMERIC_ZONE.exec(rest);
  if (numeric) {
    offset = (numeric[1] === '-' ? -1 : 1) * (Number(numeric[2]) * 60 + Number(numeric[3] ?? 0));
    // Removed so that its `5:30` is not read as the clock.
    rest = rest.replace(numeric[0], ' ');
  } else {
    for (const word of rest.match(/\b[A-Z]{1,5}\b/g) ?? []) {
      if (word in ZONE_ABBREVIATIONS) {
        offset = ZONE_ABBREVIATIONS[word];
        break;
      }
    }
  }
  const date = readDate(rest);
  if (!date) return undefined;
  rest = rest.replace(date.matched, ' ');
  const clock = readClock(rest);
  const ms = Date.UTC(date.year, date.month - 1, date.day, clock.hour, clock.minute, clock.second) - offset * 60_000;
  const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
  // Date.UTC rolls 2/31 over into March: a day that does not exist is no date.
  if (Number.isNaN(ms) || check.getUTCDate() !== date.day || check.getUTCMonth() !== date.month - 1) return undefined;
  return new Date(ms).toISOString();
}

interface StatedDate {
  year: number;
  month: number;
  day: number;
  matched: string;
}

function readDate(text: string): StatedDate | undefined {
  const named = NAMED_DATE.exec(text);
  if (named) return { year: Number(named[3]), month: MONTHS.indexOf(named[1].toLowerCase()) + 1, day: Number(named[2]), matched: named[0] };
  const yearFirst = YEAR_FIRST_DATE.exec(text);
  if (yearFirst) return { year: Number(yearFirst[1]), month: Number(yearFirst[2]), day: Number(yearFirst[3]), matched: yearFirst[0] };
  const yearLast = YEAR_LAST_DATE.exec(text);
  if (!yearLast) return undefined;
  const [first, second] = [Number(yearLast[1]), Number(yearLast[2])];
  // en-US writes month/day; a first number over 12 can only be a day (en-GB and most of Europe).
  const dayFirst = first > 12 && second <= 12;
  return { year: Number(yearLast[3]), month: dayFirst ? second : first, day: dayFirst ? first : second, matched: yearLast[0] };
}

function readClock(text: string): { hour: number; minute: number; second: number } {
  const korean = KOREAN_CLOCK.exec(text);
  const latin = CLOCK.exec(text);
  let hour = 0;
  let minute = 0;
  let second = 0;
  let half: 'am' | 'pm' | undefined;
  if (latin) {
    [hour, minute, second] = [Number(latin[1]), Number(latin[2]), Number(latin[3] ?? 0)];
    if (latin[4]) half = latin[4].toLowerCase().startsWith('p') ? 'pm' : 'am';
  } else if (korean) {
    [hour, minute, second] = [Number(korean[2]), Number(korean[3]), Number(korean[4] ?? 0)];
    if (korean[1]) half = korean[1] === '오후' ? 'pm' : 'am';
  }
  if (half === 'pm' && hour < 12) hour += 12;
  if (half === 'am' && hour === 12) hour = 0;
  if (hour > 23 || minute > 59 || second > 59) return { hour: 0, minute: 0, second: 0 };
  return { hour, minute, second };
}
