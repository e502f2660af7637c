/**
 * ledger.json: the sha256-of-content audit log that proves what was harvested and gates every
 * reclaim. Format (as nagent): `{"entries": {sha256: {path, status, at, deleted, items?, error?}}}`
 * with sorted keys. The whole file is validated when it is read (ledgerSchema.ts), before any
 * knowledge is written.
 *
 * Paths inside the store (an inbox copy, an archived conversation) are written relative to the
 * store, so the ledger still names them after the project folder moved or was restored elsewhere
 * (forget finds the archived copy; nothing it should remove stays searchable). In memory every
 * path is absolute, as before. Ledgers written before keep absolute paths: on read, one that
 * points into an `inbox/` or `archive/` of a store folder of the same name that is no longer
 * there is taken as this store's (the store moved).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactSecrets } from '../model/safety/redact';
import { ledgerText, type LedgerEntry, type Ledger } from '../model/ledgerFormat';
import { writeFileAtomic } from '../base/atomicWrite';
import { readTextIfExists } from '../base/readText';
import { withPath } from './storeErrors';
import { isInside } from './storePaths';
import { lazy } from '../base/lazy';
import { hasConflictMarkers } from '../model/merge/conflictMarkers';

const ledgerSchemaModule = lazy(() => require('../model/ledgerSchema') as typeof import('../model/ledgerSchema'));
const ledgerMergeModule = lazy(() => require('../model/merge/ledgerMerge') as typeof import('../model/merge/ledgerMerge'));

export class LedgerCorruptError extends Error {
  constructor(
    readonly file: string,
    cause: string,
  ) {
    super(`${file} is not a valid ledger (${cause}). Lore will not overwrite it: fix the JSON or move the file away, then run again`);
    this.name = 'LedgerCorruptError';
  }
}

export function readLedger(file: string): Ledger {
  let text: string | undefined;
  try {
    text = readTextIfExists(file);
  } catch (error) {
    // Node's EISDIR on a read names no path; the error display needs it.
    throw withPath(error, file);
  }
  if (text === undefined || text.trim() === '') return { entries: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\ufeff/, ''));
  } catch (error) {
    // A merge without Lore's driver, resolved half-way, left conflict markers: both sides are read and merged.
    const recovered = hasConflictMarkers(text) ? ledgerMergeModule().readLedgerText(text) : undefined;
    if (!recovered) throw new LedgerCorruptError(file, (error as Error).message);
    raw = recovered;
  }
  // Loaded on first use: zod is a large share of the CLI's start-up.
  const checked = ledgerSchemaModule().validateLedger(raw);
  if ('problem' in checked) throw new LedgerCorruptError(file, checked.problem);
  const root = path.dirname(path.resolve(file));
  for (const entry of Object.values(checked.ledger.entries)) {
    entry.path = absoluteLedgerPath(root, entry.path);
    if (entry.archived !== undefined) entry.archived = absoluteLedgerPath(root, entry.archived);
  }
  return checked.ledger;
}

/** The store folders whose files the ledger names (re-rooted when an old ledger's store moved). */
const STORE_FOLDERS = new Set(['inbox', 'archive']);

/** A ledger path as the code uses it: absolute (see the module comment for old absolute ones). */
function absoluteLedgerPath(root: string, stored: string): string {
  if (!path.isAbsolute(stored) && !/^[a-zA-Z]:[\\/]|^[\\/]/.test(stored)) return path.resolve(root, stored);
  if (isInside(root, stored)) return stored;
  // An old ledger of a store that moved: `<old place>/<store folder>/inbox/…` is this store's inbox/….
  // (The file system is asked last: most outside paths are session logs, and a ledger has thousands.)
  const parts = stored.split(/[\\/]/);
  const at = parts.lastIndexOf(path.basename(root));
  if (at < 0 || at + 2 >= parts.length || !STORE_FOLDERS.has(parts[at + 1])) return stored;
  const moved = path.join(root, ...parts.slice(at + 1));
  return isInside(root, moved) && !fs.existsSync(stored) ? moved : stored;
}

/** A path as the ledger stores it: relative to the store (with `/`) when inside it, else as it is. */
function storedLedgerPath(root: string | undefined, absolute: string): string {
  if (!root || !path.isAbsolute(absolute) || !isInside(root, absolute)) return absolute;
  return path.relative(root, absolute).split(path.sep).join('/');
}

/**
 * The ledger as written for the store at `root`: paths inside it relative to it, and redacted (a
 * conversation's file or folder name may hold a secret, and ledger.json is often committed); ids
 * and errors are redacted where they are made.
 */
export function serializeLedger(ledger: Ledger, root?: string): string {
  const entries: Record<string, LedgerEntry> = {};
  for (const [sha, entry] of Object.entries(ledger.entries)) {
    const archived = entry.archived === undefined ? undefined : redactSecrets(storedLedgerPath(root, entry.archived));
    entries[sha] = { ...entry, path: redactSecrets(storedLedgerPath(root, entry.path)), archived };
  }
  return ledgerText({ ...ledger, entries });
}

export function writeLedger(file: string, ledger: Ledger): void {
  writeFileAtomic(file, serializeLedger(ledger, path.dirname(path.resolve(file))));
}
