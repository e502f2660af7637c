/**
 * The three-way merge of ledger.json (ledgerFormat.ts) when two clones harvested and forgot:
 *
 * - Entries by conversation hash, a union. An entry one side removed and the other left as it was
 *   stays removed. One hash with two different entries: the one that proves more wins
 *   (harvested > deleted-unharvested > too-large > harvest-failed > unrecognized), then the later
 *   `at`, then the greater text (so every clone picks the same); a field only the loser has
 *   (a stored transcript) is kept.
 * - Tombstones (`forgotten`) are a union and always win: a conversation's contents are united and
 *   the first forget's time kept; an item forgotten on both sides keeps the first record. A forget
 *   reaches every clone, and the store's reconcile (store/reconcile.ts) drops its items.
 * - Any other top-level key: three-way by value, ours when both changed it.
 *
 * A side with conflict markers (a hand merge that stopped half-way) is read as both of its halves
 * merged (conflictMarkers.ts); a side that is no ledger at all makes the merge fail, so git keeps
 * the conflict for a person rather than Lore guessing.
 */
import { canonicalJson } from '../../base/canonicalJson';
import { ledgerText, type Ledger, type LedgerEntry, type LedgerStatus, type Tombstones } from '../ledgerFormat';
import { lazy } from '../../base/lazy';
import { conflictSides } from './conflictMarkers';

// Loaded on first use: zod is a large share of the CLI's start-up, and only a ledger needs it.
const ledgerSchemaModule = lazy(() => require('../ledgerSchema') as typeof import('../ledgerSchema'));

/** How much an entry proves, for two entries of one hash. */
const STATUS_RANK: Record<LedgerStatus, number> = {
  harvested: 4,
  'deleted-unharvested': 3,
  'too-large': 2,
  'harvest-failed': 1,
  unrecognized: 0,
};

const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/** The entry that wins for one hash changed differently on both sides (see the module comment). */
function pickEntry(ours: LedgerEntry, theirs: LedgerEntry): LedgerEntry {
  const rank = (STATUS_RANK[ours.status] ?? -1) - (STATUS_RANK[theirs.status] ?? -1);
  const later = ours.at === theirs.at ? 0 : ours.at > theirs.at ? 1 : -1;
  const oursWins = rank !== 0 ? rank > 0 : later !== 0 ? later > 0 : canonicalJson(ours) >= canonicalJson(theirs);
  return oursWins ? { ...theirs, ...ours } : { ...ours, ...theirs };
}

/** Three-way over a record's keys: `pick` decides a key both sides changed. */
function mergeRecords<T>(
  base: Record<string, T>,
  ours: Record<string, T>,
  theirs: Record<string, T>,
  pick: (ours: T, theirs: T) => T,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
    const [b, o, t] = [base[key], ours[key], theirs[key]];
    if (o === undefined) {
      if (b === undefined || !same(b, t)) out[key] = t;
    } else if (t === undefined) {
      if (b === undefined || !same(b, o)) out[key] = o;
    } else if (same(o, t) || same(b, t)) out[key] = o;
    else if (same(b, o)) out[key] = t;
    else out[key] = pick(o, t);
  }
  return out;
}

/** Tombstones of both sides, united (a forget is never undone by a merge). */
function uniteTombstones(ours: Tombstones | undefined, theirs: Tombstones | undefined): Tombstones | undefined {
  if (!ours && !theirs) return undefined;
  const conversations = { ...theirs?.conversations };
  for (const [id, record] of Object.entries(ours?.conversations ?? {})) {
    const other = conversations[id];
    conversations[id] = other
      ? {
          ...other,
          ...record,
          at: record.at < other.at ? record.at : other.at,
          sha256: [...new Set([...record.sha256, ...other.sha256])].sort(),
        }
      : record;
  }
  const items = { ...theirs?.items };
  for (const [id, record] of Object.entries(ours?.items ?? {})) {
    const other = items[id];
    items[id] = other && other.at < record.at ? other : record;
  }
  return { ...theirs, ...ours, conversations, items };
}

/** Three-way merge of ledgers (see the module comment). */
export function mergeLedgers(base: Ledger, ours: Ledger, theirs: Ledger): Ledger {
  const rest = mergeRecords<unknown>(withoutKnown(base), withoutKnown(ours), withoutKnown(theirs), (o) => o);
  const forgotten = uniteTombstones(ours.forgotten, theirs.forgotten);
  return {
    ...rest,
    entries: mergeRecords(base.entries, ours.entries, theirs.entries, pickEntry),
    ...(forgotten ? { forgotten } : {}),
  };
}

function withoutKnown(ledger: Ledger): Record<string, unknown> {
  const { entries: _entries, forgotten: _forgotten, ...rest } = ledger as Ledger & Record<string, unknown>;
  return rest;
}

/** A ledger's text as a Ledger: empty text is an empty ledger; undefined when it is not a valid one. */
function parseLedgerText(text: string): Ledger | undefined {
  if (text.trim() === '') return { entries: {} };
  try {
    const checked = ledgerSchemaModule().validateLedger(JSON.parse(text.replace(/^\ufeff/, '')));
    return 'ledger' in checked ? checked.ledger : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A ledger's text read even when a hand merge left conflict markers in it: both halves parsed and
 * merged (as if from an empty ancestor). Undefined when it is no ledger either way.
 */
export function readLedgerText(text: string): Ledger | undefined {
  const plain = parseLedgerText(text);
  if (plain) return plain;
  const { ours, theirs } = conflictSides(text);
  if (ours === theirs) return undefined;
  const [o, t] = [parseLedgerText(ours), parseLedgerText(theirs)];
  return o && t ? mergeLedgers({ entries: {} }, o, t) : undefined;
}

/** The merged ledger.json text, or undefined when ours or theirs is no ledger (git then keeps the conflict). */
export function mergeLedgerTexts(base: string, ours: string, theirs: string): string | undefined {
  const [o, t] = [readLedgerText(ours), readLedgerText(theirs)];
  if (!o || !t) return undefined;
  return ledgerText(mergeLedgers(readLedgerText(base) ?? { entries: {} }, o, t));
}
