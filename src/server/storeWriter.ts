/**
 * Every write the language server makes to the store, each under the store lock so it never
 * races a harvest or a `lore` command: following renames a person makes in the editor (the
 * note file records the new path, and keeps its name), marking notes valid and deleting a note. After a write the touched note
 * files are re-read into the index at once, so the next lens request already sees them (the
 * watcher reports them again ~150 ms later, which the index recognises as unchanged).
 *
 * Nothing here creates a store: without the store folder, writes are refused.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseLines, serializeLines, spliceLines } from '../core/model/categoryFile';
import { findNotesForFile, healDeletedFiles, metaFor, recordNotePath, workspaceRelative } from '../core/store/fileNotes';
import { replaceTextGuarded } from '../core/base/storeText';
import { applyNoteMigration, type NoteRename } from '../core/store/noteMigration';
import { identifyFile } from '../core/base/fileIdentity';
import { parseNoteFile, renderNoteFile } from '../core/model/noteFile';
import { acquireStoreLock } from '../core/base/storeLock';
import { recordStoreChange, type StoreChange } from '../core/store/history/storeHistory';
import { isInside, type StorePaths } from '../core/store/storePaths';
import type { DeleteNoteArgs } from '../shared/protocol';
import type { IndexChange, IndexEntry, NoteIndex } from '../core/store/noteIndex';
import type { StalenessTracker } from './staleness';

const REQUEST_LOCK_TIMEOUT_MS = 10_000;

export class StoreWriter {
  /** mtime of files/ when the index last caught up with the folder itself (see catchUpWithNewNoteFiles). */
  private filesDirSeen: bigint | undefined;

  constructor(
    private readonly paths: StorePaths,
    private readonly index: NoteIndex,
    private readonly staleness: StalenessTracker,
    private readonly onChanged: (changes: IndexChange[]) => void,
    private readonly log: (message: string) => void,
  ) {}

  /** Follows renames of files and folders: note files record the new path (their names stay). */
  async renameFiles(files: Array<{ oldPath: string; newPath: string }>): Promise<number> {
    const moves: Array<{ entry: IndexEntry; absolute: string }> = [];
    for (const { oldPath, newPath } of files) {
      const oldRel = workspaceRelative(this.paths, path.resolve(oldPath));
      const newAbs = path.resolve(newPath);
      let stat: fs.Stats | undefined;
      try {
        stat = fs.statSync(newAbs);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        for (const entry of this.index.underFolder(oldRel))
          moves.push({ entry, absolute: path.join(newAbs, entry.meta.path.slice(oldRel.length + 1)) });
        continue;
      }
      const identity = identifyFile(newAbs, false);
      const entry =
        this.index.withRecordedPath(oldRel).find((e) => e.meta.path === oldRel) ??
        (identity ? this.index.withLocalId(identity.id)[0] : undefined);
      if (entry) moves.push({ entry, absolute: newAbs });
    }
    if (moves.length === 0) return 0;
    let updated = 0;
    await this.withLock(REQUEST_LOCK_TIMEOUT_MS, { type: 'maintenance', subject: 'notes follow renamed files' }, () => {
      const touched: Array<string | undefined> = [];
      for (const { entry, absolute } of moves) {
        const identity = identifyFile(absolute, false);
        if (!identity) continue;
        const relative = workspaceRelative(this.paths, absolute);
        this.index.learn(entry.name, identity.id);
        if (entry.meta.path === relative || !recordNotePath(this.paths, entry.file, relative)) continue;
        touched.push(entry.name);
        updated++;
      }
      return touched;
    });
    return updated;
  }

  /**
   * Files deleted in the editor: their notes move to facts.md (core's heal of just those paths,
   * facts first), or stay when the path holds a file again.
   */
  async deleteFiles(files: string[]): Promise<{ healed: number; orphaned: number }> {
    const result = { healed: 0, orphaned: 0 };
    await this.catchUpWithNewNoteFiles();
    await this.withLock(REQUEST_LOCK_TIMEOUT_MS, { type: 'maintenance', subject: 'notes of deleted files moved to facts.md' }, () => {
      const report = healDeletedFiles(this.paths, files, this.index);
      for (const o of report.orphaned) this.log(`notes of deleted ${o.path} moved to facts.md (${o.notes})`);
      result.healed = report.healed.length;
      result.orphaned = report.orphaned.length;
      return report.touched;
    });
    return result;
  }

  /**
   * A note file created just before a deletion (Add Note, then delete) may not have reached the
   * index through the client's file events yet: they are debounced and the client's watcher lags.
   * A new note file changes the folder's mtime, so one stat tells whether the index can be
   * trusted; only then is the folder re-listed (one stat per note file, changed ones re-read).
   */
  private async catchUpWithNewNoteFiles(): Promise<void> {
    const mtime = fs.statSync(this.paths.files, { bigint: true, throwIfNoEntry: false })?.mtimeNs;
    if (mtime === undefined || mtime === this.filesDirSeen) return;
    await this.index.refresh();
    this.filesDirSeen = mtime;
  }

  /** Renames an older Lore's device-inode note files to their portable names (noteMigration.ts). */
  async migrateNotes(): Promise<NoteRename[]> {
    let done: NoteRename[] = [];
    await this.withLock(REQUEST_LOCK_TIMEOUT_MS, { type: 'maintenance', subject: 'note files renamed to portable ids' }, () => {
      done = applyNoteMigration(this.paths);
      return done.flatMap((r) => [r.from, r.to]);
    });
    return done;
  }

  /** Records the file's current size and fingerprint as the state its notes describe. */
  async markValid(absolute: string): Promise<{ updated: boolean; noteFile?: string }> {
    let noteFile: string | undefined;
    await this.withLock(REQUEST_LOCK_TIMEOUT_MS, { type: 'memory', subject: 'notes marked still valid' }, () => {
      const found = findNotesForFile(this.paths, absolute, { index: this.index });
      const identity = identifyFile(absolute);
      if (!found || !identity) return [];
      const meta = metaFor(found.file, workspaceRelative(this.paths, absolute), identity);
      replaceTextGuarded(found.file, (text) =>
        renderNoteFile(meta, text === undefined ? found.note.body : parseNoteFile(text).body),
      ).settle();
      this.staleness.captureBaseline(absolute, identity.fingerprint);
      noteFile = found.file;
      return [path.basename(found.file), ...this.index.withRecordedPath(meta.path).map((e) => e.name)];
    });
    return { updated: noteFile !== undefined, noteFile };
  }

  /** Deletes one note line (and its continuation lines) when the line still reads as expected. */
  async deleteNote(args: DeleteNoteArgs): Promise<boolean> {
    const file = path.resolve(args.noteFile);
    if (!isInside(this.paths.files, file) || path.dirname(file) !== path.resolve(this.paths.files) || !file.endsWith('.md')) return false;
    let deleted = false;
    await this.withLock(REQUEST_LOCK_TIMEOUT_MS, { type: 'memory', subject: 'a note deleted' }, () => {
      const replaced = replaceTextGuarded(file, (text) => {
        if (text === undefined) return undefined;
        const doc = parseLines(text);
        const at = doc.lines[args.line] === args.raw ? args.line : doc.lines.indexOf(args.raw);
        if (at < 0) return undefined;
        let end = at + 1;
        while (end < doc.lines.length && /^\s{2,}\S/.test(doc.lines[end])) end++;
        spliceLines(doc, at, end - at);
        return serializeLines(doc);
      }).settle();
      deleted = replaced.changed;
      return deleted ? [path.basename(file)] : [];
    });
    return deleted;
  }

  /** Runs a write under the store lock, then re-reads the note files it names into the index. */
  private async withLock(timeoutMs: number, change: StoreChange, write: () => Array<string | undefined>): Promise<void> {
    if (!fs.existsSync(this.paths.files)) return;
    let lock;
    try {
      lock = await acquireStoreLock(this.paths.root, timeoutMs);
    } catch (error) {
      this.log(`store busy, not written: ${(error as Error).message}`);
      return;
    }
    let touched: Array<string | undefined> = [];
    try {
      touched = write();
      if (touched.some((n) => n !== undefined)) {
        // Still under the lock: the store's git history takes the write (when it is on).
        const history = await recordStoreChange(this.paths, change);
        if (history?.warning) this.log(history.warning);
      }
    } catch (error) {
      this.log(`write failed: ${(error as Error).stack ?? String(error)}`);
    } finally {
      lock.release();
    }
    const names = new Set(touched.filter((n): n is string => n !== undefined));
    if (names.size === 0) return;
    const changes = await this.index.refresh(names);
    if (changes.length > 0) this.onChanged(changes);
  }
}
