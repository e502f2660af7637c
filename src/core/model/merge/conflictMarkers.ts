/**
 * Conflict markers a merge left in a store file (`<<<<<<<`, `|||||||`, `=======`, `>>>>>>>`): a
 * clone merged without Lore's driver, or a person resolved a conflict half-way. Lore never writes
 * them; when it meets them it reads both halves instead (nothing is lost), so a ledger or a
 * category file left that way is recovered rather than refused.
 */

const OPEN = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const SPLIT = /^={7}\s*$/;
const CLOSE = /^>{7}(?: |$)/;

/** Whether the text holds a conflict (an opening marker with its closing one). */
export function hasConflictMarkers(text: string): boolean {
  const lines = text.split(/\r?\n/);
  const open = lines.findIndex((l) => OPEN.test(l));
  return open >= 0 && lines.slice(open).some((l) => CLOSE.test(l));
}

type Part = 'both' | 'ours' | 'base' | 'theirs';

/** Each line of the text (its break kept) with the part of a conflict it is in; marker lines are left out. */
function parts(text: string): Array<[Part, string]> {
  const out: Array<[Part, string]> = [];
  let where: Part = 'both';
  for (const line of text.split(/(?<=\n)/)) {
    const bare = line.replace(/\r?\n$/, '');
    if (OPEN.test(bare) && where === 'both') where = 'ours';
    else if (BASE.test(bare) && where === 'ours') where = 'base';
    else if (SPLIT.test(bare) && (where === 'ours' || where === 'base')) where = 'theirs';
    else if (CLOSE.test(bare) && where === 'theirs') where = 'both';
    else out.push([where, line]);
  }
  return out;
}

/**
 * The two versions a conflicted text stands for: `ours` with each conflict's first half,
 * `theirs` with its second (the ancestor's part of a diff3 conflict is dropped from both). Text
 * without markers is both.
 */
export function conflictSides(text: string): { ours: string; theirs: string } {
  if (!hasConflictMarkers(text)) return { ours: text, theirs: text };
  const lines = parts(text);
  const side = (name: Part) =>
    lines
      .filter(([part]) => part === 'both' || part === name)
      .map(([, line]) => line)
      .join('');
  return { ours: side('ours'), theirs: side('theirs') };
}

/** The text with its conflicts' marker lines (and diff3 ancestor parts) taken out: both halves stay, ours first. */
export function withoutConflictMarkers(text: string): string {
  if (!hasConflictMarkers(text)) return text;
  return parts(text)
    .filter(([part]) => part !== 'base')
    .map(([, line]) => line)
    .join('');
}
