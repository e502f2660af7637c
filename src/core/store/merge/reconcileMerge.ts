/**
 * The store after a merge brought teammates' changes (design.md, "A team shares the store through
 * git"): a teammate's forget finished on what this clone harvested of the conversation before it
 * pulled (forgetConversation.ts: lines, transcript, journal section, review entries), each file of items reconciled with the merged ledger (model/merge/reconcileItems.ts:
 * forgotten items and conversations dropped, one statement on two lines folded into one line with
 * every source), then the derived files (digest.md, instruction blocks) regenerated, never merged.
 *
 * When: `lore merge-driver` leaves a mark in `.cache/` (git-ignored) whenever git merged a store
 * file with it; the next Lore command that writes the store, the language server, or
 * `lore reconcile` finds the mark and reconciles, then removes it. Without a mark nothing runs,
 * so reading never changes a file (`git status` stays clean). A merge still in progress (a
 * conflict in another file) is left alone until it is committed.
 */
import * as fs from 'node:fs';
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { acquireStoreLock } from '../../base/storeLock';
import { editStoreFile } from '../../base/storeText';
import { listNames } from '../../base/walkTree';
import { CATEGORY_FILES } from '../../model/categories';
import { reconcileItems, type ReconcileRules } from '../../model/merge/reconcileItems';
import { isNoteFileName } from '../../model/noteFile';
import { REVIEW_FILE } from '../../model/reviewFile';
import { forgottenLineTest } from '../../model/tombstones';
import { refreshDerivedFiles, type DerivedRefresh } from '../derivedFiles';
import { readLedger } from '../ledger';
import { storeRelative, type StorePaths } from '../storePaths';
import { findStoreRepo, repoBusy } from '../history/storeRepo';
import { recordStoreChange } from '../history/storeHistory';
import { knowledgeArchiveDir } from '../lifecycle/archivePaths';
import { mergedMarkFile, mergePending } from './mergeDriver';
import { finishForgottenConversations } from '../forget/forgetConversation';

export interface ReconcileResult {
  /** Store-relative files whose items changed. */
  files: string[];
  derived: DerivedRefresh;
}

/** The store's files of items: category files, archived knowledge, note files. (review.md holds items not yet in the store.) */
function itemFiles(paths: StorePaths): string[] {
  const inFolder = (dir: string) =>
    listNames(dir)
      .filter(isNoteFileName)
      .sort()
      .map((n) => path.join(dir, n));
  return [
    ...Object.values(CATEGORY_FILES).map((c) => path.join(paths.root, c.file)),
    ...inFolder(knowledgeArchiveDir(paths)),
    ...inFolder(paths.files),
  ].filter((f) => fs.existsSync(f) && path.basename(f) !== REVIEW_FILE);
}

/** Reconciles the store with its merged ledger and regenerates the derived files (see the module comment). Takes the store lock. */
export async function reconcileStore(paths: StorePaths): Promise<ReconcileResult> {
  const lock = await acquireStoreLock(paths.root);
  try {
    // A teammate's forget reaches what this clone harvested of the conversation before it pulled.
    const forgotten = finishForgottenConversations(paths);
    const ledger = readLedger(paths.ledger);
    const rules: ReconcileRules = {
      forgottenLine: forgottenLineTest(ledger),
      forgottenSources: new Set(Object.keys(ledger.forgotten?.conversations ?? {})),
    };
    const files: string[] = [...forgotten];
    for (const file of itemFiles(paths)) {
      if (editStoreFile(file, (text) => (text === undefined ? undefined : reconcileItems(text, rules))))
        if (!files.includes(storeRelative(paths, file))) files.push(storeRelative(paths, file));
    }
    const derived = refreshDerivedFiles(paths);
    if (files.length || derived.digest || derived.instructionFiles.length) {
      // A store that keeps its history commits the reconcile like any other change of Lore's.
      await recordStoreChange(paths, { type: 'maintenance', subject: `reconciled after a merge (${files.length} files)` });
    }
    removeNoFollow(mergedMarkFile(paths), { force: true });
    return { files, derived };
  } finally {
    lock.release();
  }
}

/**
 * Reconciles when a merge left its mark and is finished; undefined when there was nothing to do
 * (or the repository is still in the merge, which the person finishes first).
 */
export async function reconcileIfMerged(paths: StorePaths): Promise<ReconcileResult | undefined> {
  if (!mergePending(paths)) return undefined;
  const repo = await findStoreRepo(paths);
  if (repo && repoBusy(repo)) return undefined;
  return reconcileStore(paths);
}
