/**
 * "Undo Last Harvest" (`lore undo`): puts the store back as it was before the last apply, from
 * its undo record (store/undoRecord.ts): knowledge, note and review files, digest, ledger as they
 * were; transcripts the apply wrote removed; reclaimed inbox files back in the inbox.
 *
 * A file a person changed after the apply makes undo refuse and change nothing: undoing means
 * taking Lore's lines out again, and a person's edit may have reworded, moved or built on them,
 * so no merge could say which of their bytes to keep. They can edit the file back, or take
 * Lore's lines out by hand.
 *
 * Under the store lock. Crash-safe: the record says `undoing` before the first restore, every
 * step accepts a file already restored, and the record goes only at the end, so an undo
 * interrupted anywhere is finished by running it again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fsyncDirectory, writeFileAtomic } from '../../base/atomicWrite';
import { replaceGuarded } from '../../base/guardedReplace';
import { resolveInStore, type StorePaths } from '../storePaths';
import { refuseLinks, removeNoFollow, renameNoFollow } from '../../base/storeLinks';
import { beforeCopy, clearUndo, fileSha, keptPath, readUndoRecord, writeUndoRecord, type UndoRecord } from '../undoRecord';
import { crashPoint } from '../../base/crashPoints';
import { sha256Hash } from '../../base/lazyCrypto';
import { lockStoreForApply } from './applyPlan';
import { recordStoreChange } from '../history/storeHistory';
import type { UndoOutcome } from './undoOutcome';

import { parseJournal, removeEntries, renderJournal, type JournalEntry } from '../../model/journalFormat';
import { editStoreFile } from '../../base/storeText';
import { readStoreFile } from '../../base/readText';

export interface UndoOptions {
  lockTimeoutMs?: number;
}

/** Undoes the last apply of this store, or says why not. */
export async function undoLastHarvest(paths: StorePaths, options: UndoOptions = {}): Promise<UndoOutcome> {
  const lock = await lockStoreForApply(paths, options.lockTimeoutMs);
  try {
    const record = readUndoRecord(paths);
    if (!record) return { status: 'nothing' };
    if (record.state === 'begun') return { status: 'unfinished', at: record.at };
    const edited = editedSinceApply(paths, record);
    if (edited.length) return { status: 'refused', at: record.at, edited };
    if (record.state !== 'undoing') {
      writeUndoRecord(paths, { ...record, state: 'undoing' });
      crashPoint('undo begun');
    }
    const undone = restore(paths, record);
    const history = await recordStoreChange(paths, {
      type: 'maintenance',
      subject: `undo the harvest of ${record.at}`,
      body: [...undone.restored.map((f) => `Restored: ${f}`), ...undone.removed.map((f) => `Removed: ${f}`)],
    });
    return { status: 'undone', at: record.at, ...undone, ...(history ? { history } : {}) };
  } finally {
    lock.release();
  }
}

/**
 * Files that hold neither what the apply left nor (an undo interrupted half-way) what was there
 * before it; transcripts changed since; an inbox name taken again by a new file.
 */
function editedSinceApply(paths: StorePaths, record: UndoRecord): string[] {
  const edited: string[] = [];
  for (const f of record.files) {
    if (f.restoreIfMissing || f.journalAdded) continue; // A journal is merged back, never refused over.
    const now = fileSha(resolveInStore(paths, f.file));
    if (now !== f.after && now !== f.before) edited.push(f.file);
  }
  for (const t of record.transcripts) {
    const now = fileSha(resolveInStore(paths, t.file));
    if (now !== null && now !== t.sha256) edited.push(t.file);
  }
  for (const r of record.reclaims) {
    const away = r.kept ? keptPath(paths, r.kept) : resolveInStore(paths, r.archivedTo!);
    if (fs.existsSync(away) && fs.existsSync(resolveInStore(paths, r.from))) edited.push(r.from);
  }
  return edited;
}

function restore(paths: StorePaths, record: UndoRecord): { restored: string[]; removed: string[]; returned: string[] } {
  const restored: string[] = [];
  const removed: string[] = [];
  const returned: string[] = [];
  // 1. Inbox files first: while the ledger still says they were harvested, a crash here leaves
  //    nothing a harvest would take for new.
  const dirs = new Set<string>();
  for (const r of record.reclaims) {
    const away = r.kept ? keptPath(paths, r.kept) : resolveInStore(paths, r.archivedTo!);
    const home = resolveInStore(paths, r.from);
    if (!fs.existsSync(away) || fs.existsSync(home)) continue; // Back already, or the reclaim never happened.
    renameNoFollow(away, home);
    dirs.add(path.dirname(home));
    returned.push(r.from);
    crashPoint(`returned ${path.basename(home)}`);
  }
  for (const dir of dirs) fsyncDirectory(dir);
  // 2. The ledger, then knowledge, notes, review.md and the digest, each only over the bytes the
  //    apply left (a guarded replace re-checks that at the moment it swaps).
  const files = [...record.files.entries()].sort(([, a], [, b]) => Number(b.file === 'ledger.json') - Number(a.file === 'ledger.json'));
  for (const [index, f] of files) {
    const full = resolveInStore(paths, f.file);
    if (fileSha(full) === f.before) continue;
    if (f.journalAdded && fileSha(full) !== f.after) {
      // Written to since the apply (a review accept, a note, an agent): only the apply's entries go.
      takeOutOfJournal(full, f.file, f.journalAdded, f.before === null);
    } else if (f.restoreIfMissing) {
      if (f.before === null || fs.existsSync(full)) continue; // A hook's newer entry wins.
      writeFileAtomic(full, readStoreFile(beforeCopy(paths, index, f.file)));
    } else if (f.before === null) {
      // Only the version the apply wrote is removed: a save since then is a person's file.
      if (fileSha(full) !== f.after)
        throw new Error(`${f.file} changed while it was being restored; nothing of it was removed: run undo again to see what changed`);
      removeNoFollow(full, { force: true });
      fsyncDirectory(path.dirname(full));
    } else {
      const before = readStoreFile(beforeCopy(paths, index, f.file));
      if (sha256Hash().update(before).digest('hex') !== f.before)
        throw new Error(`the undo copy of ${f.file} is damaged; nothing more was restored`);
      const after = f.after;
      // A file the apply removed (an emptied digest) comes back only while nothing took its place.
      replaceGuarded(full, (current) =>
        current === undefined
          ? after === null
            ? before
            : undefined
          : sha256Hash().update(current).digest('hex') === after
            ? before
            : undefined,
      ).settle();
      if (fileSha(full) !== f.before) throw new Error(`${f.file} changed while it was being restored; run undo again to see what changed`);
    }
    restored.push(f.file);
    crashPoint(`restored ${path.basename(full)}`);
  }
  // 3. Transcripts last: no line links to them any more.
  for (const t of record.transcripts) {
    const full = resolveInStore(paths, t.file);
    if (!fs.existsSync(full)) continue;
    removeNoFollow(full);
    removed.push(t.file);
    removeEmptyFolders(path.dirname(full), paths.transcripts);
    crashPoint(`removed ${path.basename(full)}`);
  }
  clearUndo(paths);
  return { restored, removed, returned };
}

/**
 * The journal of a day without an undone apply's entries; its model summary goes too, as it may
 * have been written from them among others. A day left empty that had no journal before the
 * apply has none again.
 */
function takeOutOfJournal(full: string, file: string, added: JournalEntry[], createdByApply: boolean): void {
  const date = path.basename(file, '.md');
  let gone = false;
  editStoreFile(full, (current) => {
    if (current === undefined) return undefined;
    const journal = parseJournal(date, current);
    if (!removeEntries(journal, added)) return undefined;
    journal.summary = [];
    gone = createdByApply && journal.sources.size === 0;
    return renderJournal(journal);
  });
  if (gone) {
    removeNoFollow(full, { force: true });
    fsyncDirectory(path.dirname(full));
  }
}

/** Day, month and year folders the apply created for its transcripts go with them. */
function removeEmptyFolders(dir: string, top: string): void {
  for (let d = dir; d.startsWith(top) && d !== path.dirname(top); d = path.dirname(d)) {
    try {
      refuseLinks(d);
      // eslint-disable-next-line no-restricted-properties -- an empty folder, just checked for links (rmSync would not remove only an empty one)
      fs.rmdirSync(d);
    } catch {
      break; // Not empty (or gone): the folders above are not empty either.
    }
    fsyncDirectory(path.dirname(d));
  }
}
