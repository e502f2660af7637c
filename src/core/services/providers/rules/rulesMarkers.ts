/**
 * The line-level rules of the rules extractor: which explicit markers a line carries and how the
 * marked text is cleaned. Markers sit at the start of a line, after an optional heading `#`,
 * list bullet (`- `, `* `, `1. `) and bold (`**`).
 */

import type { ItemCategory } from '../../../model/categories';

/** Longest statement kept; longer ones are cut at a word boundary with an ellipsis. */
const MAX_STATEMENT_CHARS = 300;
/** Longest playbook steps text kept. */
export const MAX_STEPS_CHARS = 1000;
/**
 * What a marked line contributes. `peopleOnly` marks the markers that count only in a person's
 * turn: an agent's checklists are plan micro-steps and its `Note:` lines are caveats about the
 * step at hand, not knowledge anyone agreed on.
 */
export type LineMarker =
  | { kind: 'statement'; category: Exclude<ItemCategory, 'playbooks' | 'files'>; text: string; peopleOnly?: true }
  | { kind: 'playbook'; text: string }
  | { kind: 'file'; path: string; note: string };

const LEAD = /^\s*(?:#{1,6}\s+)?(?:(?:[-*+]|\d{1,3}[.)])\s+)?/;
const CHECKBOX = /^\[([ xX])\]\s+(.*)$/;
const STATEMENT =
  /^(?:\*\*|__)?(open question|question|decision|decided|to ?do|done|fact|learned|note)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*)$/i;
const FILE_NOTE = /^(?:\*\*|__)?(?:note for|file note(?: for)?)\s+(.+?)(?:\*\*|__)?\s*:(?:\*\*|__)?\s+(.*)$/i;
const PLAYBOOK = /^(?:\*\*|__)?playbook(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*)$/i;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$/;

const CATEGORY_OF_WORD: Record<string, Exclude<ItemCategory, 'playbooks' | 'files'>> = {
  'open question': 'questions',
  question: 'questions',
  decision: 'decisions',
  decided: 'decisions',
  todo: 'tasks_open',
  'to do': 'tasks_open',
  done: 'tasks_done',
  fact: 'facts',
  learned: 'facts',
  note: 'facts',
};

/** The line without its heading hashes and list bullet. */
export function stripLead(line: string): string {
  return line.replace(LEAD, '');
}

/** The marker a line carries, if any. */
export function matchMarker(line: string): LineMarker | undefined {
  const body = stripLead(line);
  const checkbox = CHECKBOX.exec(body);
  if (checkbox) {
    const text = clean(checkbox[2]);
    return text ? { kind: 'statement', category: checkbox[1] === ' ' ? 'tasks_open' : 'tasks_done', text, peopleOnly: true } : undefined;
  }
  const file = FILE_NOTE.exec(body);
  if (file) {
    const note = clean(file[2]);
    if (!note) return undefined;
    const rawPath = clean(file[1]);
    // "Note for the team: …" names no file; keep what it says as a fact.
    return looksLikePath(file[1]) ? { kind: 'file', path: rawPath, note } : { kind: 'statement', category: 'facts', text: note };
  }
  const playbook = PLAYBOOK.exec(body);
  if (playbook) return { kind: 'playbook', text: playbook[1].trim() };
  const statement = STATEMENT.exec(body);
  if (statement) {
    const text = clean(statement[2]);
    const word = statement[1].toLowerCase().replace(/\s+/g, ' ');
    if (!text) return undefined;
    return word === 'note'
      ? { kind: 'statement', category: 'facts', text, peopleOnly: true }
      : { kind: 'statement', category: CATEGORY_OF_WORD[word], text };
  }
  return undefined;
}

/** The text of a list item line (bullet or number removed), for playbook steps. */
export function listItemText(line: string): string | undefined {
  const item = LIST_ITEM.exec(line);
  return item ? clean(item[1]) || undefined : undefined;
}

/** Splits `statement — detail` or `statement because detail`. */
export function splitDetail(text: string): { statement: string; detail?: string } {
  const dash = /\s+(?:—|–|--)\s+/.exec(text);
  const because = /\s+because\s+/i.exec(text);
  const split = dash ?? because;
  if (split && split.index > 0) {
    const statement = clean(text.slice(0, split.index));
    const detail = clean(text.slice(split.index + split[0].length));
    if (statement && detail) return { statement, detail };
  }
  return { statement: clean(text) };
}

/** Splits a playbook's `name: steps` or `name — steps`; steps may be absent (a list follows). */
export function splitPlaybook(text: string): { name: string; steps?: string } {
  const split = /:\s+|\s+(?:—|–|--)\s+/.exec(text);
  if (split && split.index > 0) {
    const name = clean(text.slice(0, split.index));
    const steps = clean(text.slice(split.index + split[0].length), MAX_STEPS_CHARS);
    if (name) return steps ? { name, steps } : { name };
  }
  return { name: clean(text.replace(/:\s*$/, '')) };
}

/** Removes emphasis wrapping the whole text, collapses whitespace, caps the length. */
export function clean(text: string, max = MAX_STATEMENT_CHARS): string {
  let result = text.replace(/\s+/g, ' ').trim();
  for (;;) {
    const unwrapped = unwrapOnce(result);
    if (unwrapped === result) break;
    result = unwrapped;
  }
  // Left over from `**Decision: text**`, where the opening pair was eaten with the marker.
  result = result
    .replace(/^(?:\*\*|__)\s*/, '')
    .replace(/\s*(?:\*\*|__)$/, '')
    .trim();
  return capLength(result, max);
}

function unwrapOnce(text: string): string {
  for (const mark of ['**', '__', '~~', '*', '_', '`']) {
    if (text.length > 2 * mark.length && text.startsWith(mark) && text.endsWith(mark)) {
      const inner = text.slice(mark.length, -mark.length);
      // `a` and `b` is not wrapped in backticks: the delimiter must not occur inside.
      if (!inner.includes(mark)) return inner.trim();
    }
  }
  return text;
}

function capLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd() + '…';
}

function looksLikePath(raw: string): boolean {
  return /`/.test(raw) || /[/\\]/.test(raw) || /\.[A-Za-z0-9]{1,8}\b/.test(raw);
}
