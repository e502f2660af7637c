/**
 * What `lore tidy` proposes for the items of one file, without a model: duplicates merged into one
 * line carrying every source, and older items marked superseded by a newer one that corrects them.
 *
 * - Exact duplicates (the same statement, whoever taught it: sameStatement.ts) always merge; near duplicates merge when
 *   their content words overlap at NEAR_DUPLICATE or more (itemSimilarity.ts) with the same
 *   polarity and the same numbers, versions, identifiers and names (sameSpecifics: "bucket
 *   acme-builds-us" and "bucket acme-builds-eu" are two facts, and a merge keeps only one text;
 *   a model's "same" is held to this too). The oldest line survives (its id stays what agents and links know), the others'
 *   sources are added to it, oldest first, and they go.
 * - A newer item supersedes an older one on the same subject when it says the opposite (same
 *   words, the other polarity), when it announces a change ("instead", "switched to", "no longer"
 *   …) about the same subject, or when it is a playbook of the same name.
 *
 * Only items with provenance take part (a person's own lines are theirs to tidy), only current
 * ones, and open and done tasks only among themselves.
 */
import { listItems, type KnowledgeItem } from '../../model/categoryFile';
import { listItemId } from '../../model/itemId';
import { lineIdentity } from '../../model/itemLines';
import {
  itemSpecifics,
  itemTerms,
  sameSpecifics,
  sharedTerms,
  termSimilarity,
  type ItemSpecifics,
  type ItemTerms,
} from '../search/itemSimilarity';
import { addSources, parseProvenance, plainSources, stripProvenance, type Provenance } from '../../model/provenance';
import { isCurrent, withoutSupersession } from '../../model/supersession';
import { sameStatementKey } from '../../model/sameStatement';

/** Content-word overlap (Dice) from which two items of the same polarity are one item. */
export const NEAR_DUPLICATE = 0.7;
/** Overlap from which two items of opposite polarity are about the same thing (a correction). */
const SAME_SUBJECT = 0.6;
/** Overlap a change announcement needs with the item it changes. */
const CHANGED_SUBJECT = 0.3;
/** Content words shared at least, so that two short items do not meet on one word. */
const MIN_SHARED = 2;
/** A term in more items than this is too common to find candidates by (they still score). */
const MAX_POSTINGS = 300;

/** Words by which a newer item says that something changed. */
const CHANGE_CUE =
  /\b(instead|no longer|switched|switching|replaced?|replaces|replacing|migrated|moved (?:to|from|off)|now (?:use|uses|using|is|are|runs|lives|goes)|(?:is|are) now|any ?more|deprecated|changed to|rather than|in favou?r of|dropped|superseded)\b/i;

/** One item of a file as tidy compares it. */
export interface TidyItem {
  id: string;
  identity: string;
  raw: string;
  /** Text without list marker, provenance and markers, whitespace and case folded. */
  key: string;
  /** The item's text as written, without provenance and markers (what a model is shown). */
  text: string;
  terms: ItemTerms;
  /** Its numbers, versions, identifiers and names: near duplicates must share them all. */
  specifics: ItemSpecifics;
  sources: Provenance[];
  /** The first source's date. */
  date: string;
  line: number;
  /** Open and done tasks are compared among themselves. */
  group: string;
  playbook?: string;
  changeCue: boolean;
}

export interface MergeProposal {
  file: string;
  keep: TidyItem;
  drop: TidyItem[];
  /** The surviving line as it will read. */
  line: string;
  /** exact: the same text; near: the lowest similarity in the group. */
  similarity: number;
}

export interface SupersedeProposal {
  file: string;
  old: TidyItem;
  by: TidyItem;
  reason: 'opposite' | 'change' | 'playbook' | 'model';
}

/** The items of a file that tidy compares (current, with provenance). */
export function tidyItems(text: string): TidyItem[] {
  return listItems(text)
    .map(tidyItem)
    .filter((i): i is TidyItem => i !== undefined);
}

function tidyItem(item: KnowledgeItem): TidyItem | undefined {
  const provenance = parseProvenance(item.raw);
  if (!provenance || !isCurrent(item.raw)) return undefined;
  const identity = lineIdentity(item.raw);
  const text = identity.slice(identity.indexOf('\u0000') + 1);
  const done = /^done$/i.test(item.section?.trim() ?? '');
  return {
    id: listItemId(item),
    identity,
    raw: item.raw,
    key: text,
    text: withoutSupersession(stripProvenance(item.text)).trim(),
    terms: itemTerms(item.raw),
    specifics: itemSpecifics(item.raw),
    sources: plainSources(provenance.sources),
    date: provenance.date,
    line: item.line,
    group: done ? 'done' : 'main',
    playbook: /^\*\*([^*]+)\*\*:/.exec(item.text)?.[1].trim().toLowerCase(),
    changeCue: CHANGE_CUE.test(text),
  };
}

/** Whether `b` came after `a`: a later first date, or the same day further down the file. */
function newer(b: TidyItem, a: TidyItem): boolean {
  return b.date > a.date || (b.date === a.date && b.line > a.line);
}

/** Pairs of items that share enough words to be compared, found through a term index. */
function candidatePairs(items: TidyItem[]): Array<[number, number]> {
  const postings = new Map<string, number[]>();
  items.forEach((item, i) => {
    for (const term of item.terms.terms) {
      const list = postings.get(term) ?? [];
      list.push(i);
      postings.set(term, list);
    }
  });
  const pairs: Array<[number, number]> = [];
  items.forEach((item, i) => {
    const counts = new Map<number, number>();
    for (const term of item.terms.terms) {
      const list = postings.get(term)!;
      if (list.length > MAX_POSTINGS) continue;
      for (const j of list) if (j > i) counts.set(j, (counts.get(j) ?? 0) + 1);
    }
    for (const [j, shared] of counts) if (shared >= MIN_SHARED && items[j].group === item.group) pairs.push([i, j]);
  });
  // Playbooks of the same name are compared whatever their steps share.
  const byName = new Map<string, number[]>();
  items.forEach((item, i) => item.playbook !== undefined && byName.set(item.playbook, [...(byName.get(item.playbook) ?? []), i]));
  const paired = new Set(pairs.map(([i, j]) => `${i}:${j}`));
  for (const same of byName.values()) {
    for (let a = 0; a < same.length; a++)
      for (let b = a + 1; b < same.length; b++) if (!paired.has(`${same[a]}:${same[b]}`)) pairs.push([same[a], same[b]]);
  }
  return pairs;
}

/** Why `by` supersedes `old` (both of one group, `by` newer), or undefined when it does not. */
function supersession(old: TidyItem, by: TidyItem, similarity: number): SupersedeProposal['reason'] | undefined {
  if (old.playbook !== undefined && old.playbook === by.playbook) return old.key === by.key ? undefined : 'playbook';
  if (old.terms.negated !== by.terms.negated && similarity >= SAME_SUBJECT) return 'opposite';
  if (by.changeCue && !old.changeCue && similarity >= CHANGED_SUBJECT && sharedTerms(old.terms, by.terms) >= MIN_SHARED) return 'change';
  return undefined;
}

/**
 * The tidy proposals for one file's text (`file` store-relative, for the proposals). `judged`: a
 * model's answers (modelJudgment.ts), applied after the lexical rules.
 */
export function tidyProposals(
  file: string,
  text: string,
  judged?: Judged,
): { merges: MergeProposal[]; supersessions: SupersedeProposal[] } {
  const items = tidyItems(text);
  const supersessions: SupersedeProposal[] = [];
  const superseded = new Set<number>();
  const parent = items.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const union = (a: number, b: number) => (parent[find(a)] = find(b));

  // Exact duplicates: the same statement (model/sameStatement.ts: the same words, whatever their case, spacing, final full stop or emphasis).
  const byKey = new Map<string, number>();
  items.forEach((item, i) => {
    const key = `${item.group}\u0000${sameStatementKey(item.raw)}`;
    const first = byKey.get(key);
    if (first === undefined) byKey.set(key, i);
    else union(i, first);
  });
  // Pairs: the oldest supersession per item wins; near duplicates joined.
  const pairs = candidatePairs(items)
    .map(([i, j]) => ({ i, j, s: termSimilarity(items[i].terms, items[j].terms) }))
    .sort((a, b) => b.s - a.s);
  for (const { i, j, s } of pairs) {
    if (find(i) === find(j)) continue;
    if (
      s >= NEAR_DUPLICATE &&
      items[i].terms.negated === items[j].terms.negated &&
      items[i].playbook === items[j].playbook &&
      sameSpecifics(items[i].specifics, items[j].specifics)
    ) {
      union(i, j);
      continue;
    }
    const [old, by] = newer(items[j], items[i]) ? [i, j] : [j, i];
    const reason = supersession(items[old], items[by], s);
    if (reason && !superseded.has(old) && !superseded.has(by)) {
      superseded.add(old);
      supersessions.push({ file, old: items[old], by: items[by], reason });
    }
  }

  if (judged) {
    const index = new Map(items.map((item, i) => [item.id, i]));
    for (const { old, by } of judged.supersedes) {
      const [o, b] = [index.get(old), index.get(by)];
      if (o === undefined || b === undefined || superseded.has(o) || superseded.has(b) || find(o) === find(b)) continue;
      superseded.add(o);
      supersessions.push({ file, old: items[o], by: items[b], reason: 'model' });
    }
    for (const [x, y] of judged.same) {
      const [i, j] = [index.get(x), index.get(y)];
      if (
        i !== undefined &&
        j !== undefined &&
        !superseded.has(i) &&
        !superseded.has(j) &&
        sameSpecifics(items[i].specifics, items[j].specifics)
      )
        union(i, j);
    }
  }
  const groups = new Map<number, number[]>();
  items.forEach((_, i) => {
    if (superseded.has(i)) return;
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  });
  const merges: MergeProposal[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const sorted = members.map((i) => items[i]).sort((a, b) => (newer(a, b) ? 1 : -1));
    const [keep, ...drop] = sorted;
    const sources = [...keep.sources];
    for (const other of drop) sources.push(...other.sources);
    const exact = drop.every((d) => sameStatementKey(d.raw) === sameStatementKey(keep.raw));
    const similarity = exact ? 1 : Math.min(...drop.map((d) => termSimilarity(keep.terms, d.terms)));
    merges.push({ file, keep, drop, line: mergedLine(keep, drop), similarity });
  }
  return { merges, supersessions };
}

/** The sources the survivor gains: the others', by date, then source id (as every clone orders them). */
export function addedSources(drop: readonly TidyItem[]): Provenance[] {
  return drop
    .flatMap((d) => d.sources)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

/** The surviving line with every source of the group, the survivor's own first. */
function mergedLine(keep: TidyItem, drop: TidyItem[]): string {
  return addSources(keep.raw, addedSources(drop));
}

/** What a model judged, by item id. */
export interface Judged {
  same: Array<[string, string]>;
  supersedes: Array<{ old: string; by: string }>;
}
