/**
 * Bytes that do not depend on the order in which an object was built: prompt-cache prefixes and
 * content fingerprints compare these, so the same value always renders the same way.
 */

/** Orders strings by UTF-16 code units: independent of locale and ICU data, unlike localeCompare. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * JSON with object keys sorted, so a schema built from a Map or a spread renders the same bytes.
 * Written out by hand rather than with a JSON.stringify replacer, which copies every object.
 */
export function canonicalJson(value: unknown): string {
  return canonical(value) ?? 'null';
}

function canonical(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonical((value as { toJSON(): unknown }).toJSON());
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item) ?? 'null').join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort(compareCodeUnits)) {
    const rendered = canonical(record[key]);
    if (rendered !== undefined) members.push(`${JSON.stringify(key)}:${rendered}`);
  }
  return `{${members.join(',')}}`;
}
