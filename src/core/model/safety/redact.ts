/**
 * Secret redaction: the one step every boundary runs (text entering the store, the reply cache,
 * the search index, an embedding request or an agent reply; ids and file names included), always
 * before any truncation, because conversations routinely contain pasted keys, tokens and
 * connection strings. The rules are data (secretRules.ts); a redacted secret reads
 * `[REDACTED:kind]` and the context around it (a variable name, a URL's user) stays.
 */
import { SECRET_RULES, TOKEN_RUN, normalizeSecretName, type SecretRule } from './secretRules';
import { sha256Hash } from '../../base/lazyCrypto';
import { lazy } from '../../base/lazy';
import { maxOf } from '../../base/bulkArrays';

const MARKER_PREFIX = '[REDACTED:';

interface CompiledRule {
  rule: SecretRule;
  /** The pattern with match indices (`d`), global. */
  regex: RegExp;
}

const COMPILED: CompiledRule[] = SECRET_RULES.map((rule) => ({
  rule,
  regex: new RegExp(rule.pattern.source, [...new Set(`${rule.pattern.flags}dg`)].join('')),
}));

/** The rules' screens in one pattern per flag set (with or without `i`), so a text is screened in at most two scans. */
const SCREENS: RegExp[] = ['', 'i'].flatMap((flags) => {
  const sources = SECRET_RULES.filter((r) => r.screen && r.screen.flags.includes('i') === (flags === 'i')).map((r) => r.screen!.source);
  return sources.length === 0 ? [] : [new RegExp([...new Set(sources)].map((s) => `(?:${s})`).join('|'), flags)];
});

/** Whether `text` has a run of `TOKEN_RUN` characters of `[A-Za-z0-9_-]` (a loop: faster than the regex engine for this). */
function hasTokenRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const token = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
    if (!token) run = 0;
    else if (++run >= TOKEN_RUN) return true;
  }
  return false;
}

/**
 * Whether any rule can match `text`: every match holds a long token run or matches its rule's
 * screen (secretRules.ts), so a text with neither, as almost every line of prose is, is left as
 * it is without running the rules.
 */
export function mayHoldSecret(text: string): boolean {
  return hasTokenRun(text) || SCREENS.some((screen) => screen.test(text));
}

/**
 * The rules that can match `text`: those without hints and those whose hints it contains.
 * Hints are looked up in the original text: a redaction only inserts markers, and no rule
 * matches inside a marker.
 */
function candidates(text: string): CompiledRule[] {
  return COMPILED.filter(({ rule }) => !rule.hints || rule.hints.some((h) => text.includes(h)));
}

/** Longest marker `[REDACTED:kind]`, for the look back that keeps rules out of earlier markers. */
const MAX_MARKER_LENGTH = MARKER_PREFIX.length + maxOf(SECRET_RULES.map((r) => r.kind.length)) + 1;

/** Whether `at` lies inside a marker an earlier rule wrote (a bounded look back). */
function insideMarker(text: string, at: number): boolean {
  const from = Math.max(0, at - MAX_MARKER_LENGTH);
  const back = text.slice(from, at).lastIndexOf(MARKER_PREFIX);
  return back >= 0 && text.indexOf(']', from + back) >= at;
}

/**
 * Where the secret lies in a match: a span, `'name'` when the variable name says it is no
 * secret, `'value'` when the value does not count (a placeholder, a reference, a marker).
 */
function secretSpan(rule: SecretRule, match: RegExpExecArray): [number, number] | 'name' | 'value' {
  if (rule.name) {
    const name = match[rule.name.group];
    if (name === undefined) return 'name';
    const normalized = normalizeSecretName(name);
    if (!rule.name.pattern.test(normalized) || rule.name.unless?.test(normalized)) return 'name';
  }
  let span: [number, number] = [match.index, match.index + match[0].length];
  for (const group of rule.secret ?? []) {
    const at = match.indices?.[group];
    if (at) {
      span = at;
      break;
    }
  }
  const secret = match.input.slice(span[0], span[1]);
  if (secret === '' || secret.includes(MARKER_PREFIX) || insideMarker(match.input, span[0]) || rule.unless?.test(secret)) return 'value';
  return span;
}

/** Applies one rule; `found` is told when it redacted something. */
function applyRule({ rule, regex }: CompiledRule, text: string, found?: (kind: string) => void): string {
  regex.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    const span = secretSpan(rule, match);
    if (typeof span === 'string' || span[0] < last) {
      // Not a secret after all. A refused name: look again from the next character (the value
      // may hold another assignment). A refused value: go on after it, so hostile input such as
      // `token=token=…` stays linear.
      regex.lastIndex = span === 'value' ? Math.max(match.index + match[0].length, match.index + 1) : match.index + 1;
      continue;
    }
    out += text.slice(last, span[0]) + `${MARKER_PREFIX}${rule.kind}]`;
    last = span[1];
    regex.lastIndex = Math.max(match.index + match[0].length, match.index + 1);
  }
  if (last === 0) return text;
  found?.(rule.kind);
  return out + text.slice(last);
}

/**
 * Identifies the rule set: anything keyed on redacted content (the reply cache) includes it, so
 * what older rules let through is not reused after the rules change. Computed on first use, not
 * when the module loads (which every bundle's start does, the extension's activation included).
 */
export const redactionRulesId = lazy(() =>
  sha256Hash()
    .update(
      SECRET_RULES.map(
        (r) =>
          `${r.kind}\n${r.pattern.source}\n${r.pattern.flags}\n${r.unless?.source ?? ''}\n${r.name?.pattern.source ?? ''}\n${r.name?.unless?.source ?? ''}`,
      ).join('\n'),
    )
    .digest('hex')
    .slice(0, 16),
);

/** Replaces every secret found in `text` with `[REDACTED:kind]`. Idempotent. */
export function redactSecrets(text: string): string {
  return mayHoldSecret(text) ? redactEveryRule(text) : text;
}

/** Every rule run on `text`, screened or not: what redactSecrets does, and what its screen's test compares it with. */
export function redactEveryRule(text: string): string {
  let out = text;
  for (const compiled of candidates(text)) out = applyRule(compiled, out);
  return out;
}

/**
 * The first `max` characters of a redacted text, without the front half of a marker the cut
 * goes through (`… [REDACTED` reads like a damaged line) or of a surrogate pair.
 */
export function cutRedacted(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = text.slice(0, max);
  const open = out.lastIndexOf('[', max - 1);
  if (open >= 0 && max - open <= MAX_MARKER_LENGTH && !out.includes(']', open) && text.startsWith(MARKER_PREFIX, open))
    return out.slice(0, open).trimEnd();
  if (/[\ud800-\udbff]$/.test(out)) out = out.slice(0, -1);
  return out;
}

/**
 * Untrusted text redacted, then cut to at most `max` characters, `…` included when it is cut:
 * the order every shortening of untrusted text (a tool call's one-line summary, a snippet, a
 * title) must follow. Cut first, a secret that straddles the cut loses the tail its rule needs
 * and its front half (a JWT's header, a key's prefix) stays in the text.
 */
export function redactAndCut(text: string, max: number): string {
  const clean = redactSecrets(text);
  return clean.length <= max ? clean : `${cutRedacted(clean, Math.max(0, max - 1)).trimEnd()}…`;
}

/**
 * A name made from untrusted text (a conversation id, a conversation's file name, a title's slug):
 * its secrets redacted and shown as `REDACTED-kind`, which every file system, provenance marker
 * and git tree takes. Every name Lore derives from such text goes through here, before any cut.
 */
export function redactName(text: string): string {
  return redactSecrets(text).replace(/\[REDACTED:([a-z0-9-]+)\]/g, 'REDACTED-$1');
}

/** The kinds of secret present in `text` (for reports and tests), in rule order. */
export function findSecretKinds(text: string): string[] {
  const kinds: string[] = [];
  if (!mayHoldSecret(text)) return kinds;
  let rest = text;
  for (const compiled of candidates(text)) rest = applyRule(compiled, rest, (kind) => kinds.push(kind));
  return kinds;
}

/** Redacts every string inside a JSON-like value (cached model replies, tool results). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
