/**
 * A `when` clause evaluated as VS Code does, for the forms Lore's manifest uses: `a || b`, `a && b`,
 * `!key`, `key`, `key == value`, `key != value`, `true`, `false`. Anything else (parentheses, `=~`,
 * `in`) throws, so a test never reads a clause it does not understand as false.
 */
export type Context = Readonly<Record<string, string | boolean | undefined>>;

function term(text: string, context: Context): boolean {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (/[()]|=~| in /.test(t)) throw new Error(`unsupported when clause: ${t}`);
  const compare = /^([\w.]+)\s*(==|!=)\s*'?([\w.-]+)'?$/.exec(t);
  if (compare) {
    const equal = String(context[compare[1]] ?? '') === compare[3];
    return compare[2] === '==' ? equal : !equal;
  }
  const key = /^(!?)([\w.]+)$/.exec(t);
  if (!key) throw new Error(`unsupported when clause: ${t}`);
  const value = !!context[key[2]];
  return key[1] ? !value : value;
}

/** True when `clause` holds in `context` (an absent clause always holds). */
export function whenHolds(clause: string | undefined, context: Context): boolean {
  if (clause === undefined) return true;
  return clause.split('||').some((alternative) => alternative.split('&&').every((t) => term(t, context)));
}
