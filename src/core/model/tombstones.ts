/**
 * Tombstones: what a person forgot for good (`lore forget`), kept in ledger.json beside the
 * entries so that a later harvest keeps it forgotten. A conversation is remembered by its id and
 * the sha256 of each content it was harvested from (a session that grew since has new content
 * but the same id); an item by its id and the hash of its statement (its text without list
 * marker, provenance and case or spacing differences), so the same statement coming back from a
 * harvest, of that conversation or another, is left out and the report says so.
 *
 * Format, under the ledger's top-level `forgotten` key (sorted keys, like the rest):
 * `{"conversations": {id: {at, sha256: [...]}}, "items": {itemId: {at, hash, same?, from?}}}`.
 */
import { lineIdentity } from './itemLines';
import { itemId } from './itemId';
import { sha256Hash } from '../base/lazyCrypto';
import { sameStatementKey } from './sameStatement';
import type { Ledger, Tombstones } from './ledgerFormat';

/**
 * The hash a forgotten statement is known by: sha256 of its identity (lineIdentity) without the
 * provenance source, so it matches the same words from any conversation.
 */
export function statementHash(line: string): string {
  const identity = lineIdentity(line);
  const cut = identity.indexOf('\u0000');
  return sha256Hash()
    .update(cut >= 0 ? identity.slice(cut + 1) : identity)
    .digest('hex');
}

/**
 * The hash a forgotten statement is also known by: sha256 of its sameStatementKey (sameStatement.ts),
 * so the same words with another final full stop or emphasis stay forgotten too.
 */
export function sameStatementHash(line: string): string {
  return sha256Hash().update(sameStatementKey(line)).digest('hex');
}

/** The ledger's tombstones, empty when it has none. */
export function tombstonesOf(ledger: Ledger): Tombstones {
  return { conversations: { ...ledger.forgotten?.conversations }, items: { ...ledger.forgotten?.items } };
}

/** When the conversation `id`, or content `sha256`, was forgotten; undefined when it was not. */
export function forgottenConversationAt(ledger: Ledger, id: string | undefined, sha256?: string): string | undefined {
  const conversations = ledger.forgotten?.conversations;
  if (!conversations) return undefined;
  if (id !== undefined && conversations[id]) return conversations[id].at;
  if (sha256 === undefined) return undefined;
  for (const record of Object.values(conversations)) if (record.sha256.includes(sha256)) return record.at;
  return undefined;
}

/**
 * forgottenConversationAt for many lookups (a harvest classifies thousands of files): the
 * contents' hashes are indexed once.
 */
export function forgottenConversationLookup(ledger: Ledger): (id: string | undefined, sha256?: string) => string | undefined {
  const conversations = ledger.forgotten?.conversations;
  if (!conversations || Object.keys(conversations).length === 0) return () => undefined;
  const bySha = new Map<string, string>();
  for (const record of Object.values(conversations)) for (const sha of record.sha256) bySha.set(sha, record.at);
  return (id, sha256) =>
    id !== undefined && conversations[id] ? conversations[id].at : sha256 === undefined ? undefined : bySha.get(sha256);
}

/**
 * A test for item lines a harvest must leave out: their id or their statement was forgotten.
 * Built once per plan (a set of ids and one of hashes).
 */
export function forgottenLineTest(ledger: Ledger): ((line: string) => boolean) | undefined {
  const items = ledger.forgotten?.items;
  if (!items || Object.keys(items).length === 0) return undefined;
  const ids = new Set(Object.keys(items));
  const hashes = new Set(Object.values(items).map((i) => i.hash));
  const same = new Set(Object.values(items).flatMap((i) => (i.same ? [i.same] : [])));
  return (line) => ids.has(itemId(line)) || hashes.has(statementHash(line)) || (same.size > 0 && same.has(sameStatementHash(line)));
}

/** The ledger with `lines` recorded as forgotten (from conversation `from`, when given). */
export function withForgottenItems(ledger: Ledger, lines: readonly string[], at: string, from?: string): Ledger {
  if (lines.length === 0) return ledger;
  const tombstones = tombstonesOf(ledger);
  for (const line of lines)
    tombstones.items[itemId(line)] = { at, hash: statementHash(line), same: sameStatementHash(line), ...(from ? { from } : {}) };
  return { ...ledger, forgotten: tombstones };
}

/** The ledger with conversation `id` recorded as forgotten, with the contents it was harvested from. */
export function withForgottenConversation(ledger: Ledger, id: string, sha256: readonly string[], at: string): Ledger {
  const tombstones = tombstonesOf(ledger);
  const earlier = tombstones.conversations[id]?.sha256 ?? [];
  tombstones.conversations[id] = { at, sha256: [...new Set([...earlier, ...sha256])].sort() };
  return { ...ledger, forgotten: tombstones };
}
