/**
 * Secret redaction. Runs on every line before it is written to the store and on anything
 * cached, because conversations routinely contain pasted keys, tokens and connection strings.
 * Patterns err on the side of redacting; a redacted secret reads `[REDACTED:kind]`.
 */

interface SecretPattern {
  kind: string;
  pattern: RegExp;
  /** Replacement; `$1` etc. keep the non-secret context (a URL's user name, a variable name). */
  replace: string;
}

const PATTERNS: SecretPattern[] = [
  {
    kind: 'private-key',
    pattern: /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
    replace: '[REDACTED:private-key]',
  },
  // Anthropic before OpenAI: both start with `sk-`.
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, replace: '[REDACTED:anthropic-key]' },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g, replace: '[REDACTED:openai-key]' },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g, replace: '[REDACTED:github-token]' },
  { kind: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/g, replace: '[REDACTED:aws-access-key-id]' },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, replace: '[REDACTED:google-api-key]' },
  { kind: 'slack-token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: '[REDACTED:slack-token]' },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, replace: '[REDACTED:jwt]' },
  { kind: 'bearer-token', pattern: /\b(Bearer|Token)\s+[A-Za-z0-9._~+/-]{16,}=*/g, replace: '$1 [REDACTED:bearer-token]' },
  {
    kind: 'url-password',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@\/?#]+:)[^\s@\/?#]+@/gi,
    replace: '$1[REDACTED:password]@',
  },
  {
    // KEY=value / "api_key": "value" style assignments of secret-named variables.
    kind: 'secret-assignment',
    pattern:
      /\b([A-Za-z0-9_.-]*(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|access[_-]?key|private[_-]?key|client[_-]?secret)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?)(?!\[REDACTED)([^\s"'`,;]{8,})/gi,
    replace: '$1[REDACTED:secret]',
  },
];

/** Replaces every secret found in `text`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const { pattern, replace } of PATTERNS) out = out.replace(pattern, replace);
  return out;
}

/** The kinds of secret present in `text` (for reports and tests). */
export function findSecretKinds(text: string): string[] {
  const kinds: string[] = [];
  let rest = text;
  for (const { kind, pattern, replace } of PATTERNS) {
    pattern.lastIndex = 0;
    if (pattern.test(rest)) kinds.push(kind);
    pattern.lastIndex = 0;
    rest = rest.replace(pattern, replace);
  }
  return kinds;
}

/** Redacts every string inside a JSON-like value (for cached model replies). */
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
