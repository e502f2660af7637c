/**
 * Text from outside Lore (an agent's tool call, a hook's input, a model's reply) made
 * well-formed Unicode: each lone UTF-16 surrogate (half of an emoji left by a cut, or sent on
 * purpose) becomes U+FFFD. It has to happen before such text meets a file, for two reasons:
 * written as UTF-8 a lone surrogate becomes U+FFFD anyway, so the line asked for never equals the
 * line read back and every "is it there yet?" check fails (an MCP `remember` wrote its item six
 * times); and lossless decoding (losslessText) stands for a person's invalid bytes by lone
 * surrogates U+DC80–U+DCFF, so one coming from outside would be written as a raw byte.
 */

/** `text` with every lone surrogate replaced by U+FFFD (String.prototype.toWellFormed). */
export function wellFormed(text: string): string {
  const s = text as string & { isWellFormed(): boolean; toWellFormed(): string };
  return s.isWellFormed() ? text : s.toWellFormed();
}

/** A JSON.parse reviver that makes every string of the parsed value well-formed. */
export function wellFormedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? wellFormed(value) : value;
}

/** A parsed JSON value (or any plain data) with every string in it, keys too, well-formed. */
export function wellFormedDeep<T>(value: T): T {
  if (typeof value === 'string') return wellFormed(value) as T;
  if (Array.isArray(value)) return value.map(wellFormedDeep) as T;
  if (value && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormedDeep(v)])) as T;
  }
  return value;
}
