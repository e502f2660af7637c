/**
 * Private spans: text a person wraps in `<private>` … `</private>` (or a marker pair of their own,
 * config.json `privateMarkers`) is removed from a conversation before anything else sees it: the
 * model, the stored transcript, the reply cache, the search index, the hook's copy in the inbox.
 * It runs where conversations are imported (detect.ts) and where a hook copies a raw session, so
 * no path can skip it. It fails closed: an opening marker without its closing one removes the
 * rest of the message, and a closing marker without an opening one removes the message up to it
 * (its opening marker was in an earlier part, or mistyped). Markers match case-insensitively.
 */

/** One pair of markers around private text. */
export interface PrivateMarkers {
  open: string;
  close: string;
}

/** The pair that always applies, whatever the configuration says. */
export const DEFAULT_PRIVATE_MARKERS: PrivateMarkers = { open: '<private>', close: '</private>' };

/** What a removed span leaves behind, so a reader (and the model) sees that something was withheld. */
export const PRIVATE_PLACEHOLDER = '[private]';

/** The default pair, plus the configured one when there is one (and it differs). */
export function privateMarkerList(configured?: PrivateMarkers): PrivateMarkers[] {
  const list = [DEFAULT_PRIVATE_MARKERS];
  if (configured && configured.open && configured.close && !sameMarkers(configured, DEFAULT_PRIVATE_MARKERS)) list.push(configured);
  return list;
}

function sameMarkers(a: PrivateMarkers, b: PrivateMarkers): boolean {
  return a.open.toLowerCase() === b.open.toLowerCase() && a.close.toLowerCase() === b.close.toLowerCase();
}

/**
 * Whether `text` holds any marker of the list (a cheap test before any copying). A text that
 * lacks one of a marker's caseless characters cannot hold it, and is not lower-cased whole to
 * learn so (an import asks this of every message).
 */
export function hasPrivateMarker(text: string, markers: readonly PrivateMarkers[] = [DEFAULT_PRIVATE_MARKERS]): boolean {
  const possible = markers
    .flatMap((m) => [m.open.toLowerCase(), m.close.toLowerCase()])
    .filter((marker) => caselessCharacters(marker).every((c) => text.includes(c)));
  if (possible.length === 0) return false;
  const lower = text.toLowerCase();
  return possible.some((marker) => lower.includes(marker));
}

/**
 * The ASCII characters of `marker` that are not letters (`<`, `/`, `>`, digits…): no other
 * character lower-cases to one of them (Unicode's lower-case mappings give letters and marks),
 * so the lower-cased text holds one only where the text itself does.
 */
function caselessCharacters(marker: string): string[] {
  return [...new Set(marker)].filter((c) => c < '\u0080' && !/[a-z]/i.test(c));
}

/** One message's text with the spans of one marker pair removed (see the module comment for the unbalanced cases). */
function stripPair(text: string, markers: PrivateMarkers): string {
  const lower = text.toLowerCase();
  const open = markers.open.toLowerCase();
  const close = markers.close.toLowerCase();
  let out = '';
  let at = 0;
  for (;;) {
    const nextOpen = lower.indexOf(open, at);
    const nextClose = lower.indexOf(close, at);
    if (nextClose >= 0 && (nextOpen < 0 || nextClose < nextOpen)) {
      // A closing marker with no opening one before it: everything before it in the message was private.
      out = PRIVATE_PLACEHOLDER;
      at = nextClose + close.length;
      continue;
    }
    if (nextOpen < 0) return out + text.slice(at);
    out += text.slice(at, nextOpen) + PRIVATE_PLACEHOLDER;
    const end = lower.indexOf(close, nextOpen + open.length);
    if (end < 0) return out; // Never closed: the rest of the message is private.
    at = end + close.length;
  }
}

/**
 * One message's text without its private spans. Each pair is applied in turn; text with no
 * marker comes back as it is (same string).
 */
export function stripPrivateSpans(text: string, markers: readonly PrivateMarkers[] = [DEFAULT_PRIVATE_MARKERS]): string {
  if (!hasPrivateMarker(text, markers)) return text;
  let out = text;
  for (const pair of markers) out = stripPair(out, pair);
  return out;
}

/**
 * Every string inside a parsed JSON value with its private spans removed (each string is one
 * message's worth: a spill stops at the string's end). For raw session records.
 */
export function stripPrivateDeep<T>(value: T, markers: readonly PrivateMarkers[]): T {
  if (typeof value === 'string') return stripPrivateSpans(value, markers) as T;
  if (Array.isArray(value)) return value.map((v) => stripPrivateDeep(v, markers)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[stripPrivateSpans(key, markers)] = stripPrivateDeep(v, markers);
    return out as T;
  }
  return value;
}

/**
 * A raw session file's text without private spans, keeping its format readable by its importer:
 * JSON Lines record by record (a line that is not JSON is treated as text), one JSON document as
 * a whole, anything else as one message. Lines without a marker keep their bytes.
 */
export function stripPrivateRaw(text: string, fileName: string, markers: readonly PrivateMarkers[]): string {
  if (!hasPrivateMarker(text, markers)) return text;
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.jsonl')) {
    return text
      .split('\n')
      .map((line) => {
        if (!hasPrivateMarker(line, markers)) return line;
        const trailing = line.endsWith('\r') ? '\r' : '';
        try {
          return JSON.stringify(stripPrivateDeep(JSON.parse(line), markers)) + trailing;
        } catch {
          return stripPrivateSpans(line, markers);
        }
      })
      .join('\n');
  }
  if (lower.endsWith('.json')) {
    try {
      return JSON.stringify(stripPrivateDeep(JSON.parse(text.replace(/^\ufeff/, '')), markers), null, 2) + '\n';
    } catch {
      // Not JSON after all: treated as text below.
    }
  }
  return stripPrivateSpans(text, markers);
}
