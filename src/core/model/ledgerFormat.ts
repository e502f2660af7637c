/**
 * The ledger (`ledger.json`) as data: one entry per conversation content, by sha256, proving what
 * was harvested, and what a person forgot for good. Reading and writing it is the store's
 * (store/ledger.ts); its schema is ledgerSchema.ts.
 */
import type { ItemCounts } from './categories';

/**
 * `unrecognized` (Lore's addition): no importer read the content as a conversation (`error` says
 * why). It proves nothing: it never permits a reclaim, and the next run (perhaps a Lore version
 * with a new importer) reads the content again.
 */
export type LedgerStatus = 'harvested' | 'harvest-failed' | 'deleted-unharvested' | 'too-large' | 'unrecognized';

export const LEDGER_STATUSES: readonly LedgerStatus[] = ['harvested', 'harvest-failed', 'deleted-unharvested', 'too-large', 'unrecognized'];

export interface LedgerEntry {
  path: string;
  status: LedgerStatus;
  /** ISO timestamp of the last change. */
  at: string;
  /** True once the conversation file was removed by a reclaim. */
  deleted: boolean;
  items?: ItemCounts;
  error?: string;
  /** Where the conversation was moved when reclaim mode is `archive` (Lore's addition). */
  archived?: string;
  /** Conversation id used in provenance (Lore's addition). */
  id?: string;
  /**
   * The conversation's title when it was read (conversationTitle.ts; Lore's addition): how the
   * Ledger view names it, also once its file is gone. Conversation text, one line, redacted.
   */
  title?: string;
  /**
   * Store-relative path of the conversation's stored transcript (`transcripts/…`), written before
   * this entry was (Lore's addition): where provenance leads once the raw file is reclaimed.
   */
  transcript?: string;
}

export interface Ledger {
  entries: Record<string, LedgerEntry>;
  /** What a person forgot for good (Lore's addition; see tombstones.ts). */
  forgotten?: Tombstones;
}

/** True when the ledger proves that the content was dealt with and may be reclaimed. */
export function permitsReclaim(entry: LedgerEntry | undefined): boolean {
  return entry?.status === 'harvested' || entry?.status === 'deleted-unharvested';
}

export interface ForgottenConversation {
  /** ISO time of the forget. */
  at: string;
  /** The contents (ledger keys) it had been harvested from. */
  sha256: string[];
}

export interface ForgottenItem {
  at: string;
  /** statementHash of the line. */
  hash: string;
  /** sameStatementHash of the line (tombstones.ts): the same statement with another final full stop or emphasis. Absent in older ledgers. */
  same?: string;
  /** The conversation it came from, when known. */
  from?: string;
}

export interface Tombstones {
  conversations: Record<string, ForgottenConversation>;
  items: Record<string, ForgottenItem>;
}

/**
 * Recursively sorts object keys, like Python's json.dumps(sort_keys=True). The recursion is
 * safe: a ledger is validated (ledgerSchema.ts) before it is written, and one nested deeper than
 * LEDGER_MAX_DEPTH is refused.
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** ledger.json's text for a ledger as stored (paths as the file has them): sorted keys, two-space indent, a final newline. */
export function ledgerText(ledger: Ledger): string {
  return JSON.stringify(sortKeys(ledger), null, 2) + '\n';
}

/**
 * The title the ledger keeps for a conversation id (its latest harvest's; LedgerEntry.title), for
 * naming a provenance source as a person knows it. Undefined when no entry of that id has one.
 */
export function ledgerTitle(ledger: Ledger, id: string): string | undefined {
  let latest: LedgerEntry | undefined;
  for (const entry of Object.values(ledger.entries))
    if (entry.id === id && entry.title && (!latest || entry.at > latest.at)) latest = entry;
  return latest?.title;
}
