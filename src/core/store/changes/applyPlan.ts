/**
 * Executing a plan in the crash-safe order: the transcripts it keeps first (written once), the
 * day's journal, then knowledge lines durable (guarded, verified writes that re-apply Lore's edit on top of anything
 * a person saved meanwhile), then the ledger (which also records the reclaims about to happen), then the digest, and the
 * reclaims last. Killed at any point, a re-run loses no line (nothing is reclaimed before the
 * ledger proves its harvest), duplicates no line (appends skip lines already present) and
 * deletes nothing unproven; a reclaim the ledger recorded but the crash prevented is simply
 * done by the next run.
 */
import * as path from 'node:path';
import { fsyncDirectory, removeStaleTempFiles } from '../../base/atomicWrite';
import { readCategoryTexts, regenerateDigest } from '../digest';
import { removeDigest, writeDigest } from '../digestSwitch';
import { sleepSync } from '../../base/fileVersion';
import { recoverStaleAsides, type GuardedReplace } from '../../base/guardedReplace';
import { ensureStoreLayout } from '../initStore';
import { readLedger, serializeLedger, writeLedger } from '../ledger';
import { acquireStoreLock, type StoreLock } from '../../base/storeLock';
import { removeStrayFiles } from '../strayFiles';
import { mkdirNoFollow, refuseLinks, renameNoFollow } from '../../base/storeLinks';
import { replaceTextGuarded, type TextEdit, editStoreFile } from '../../base/storeText';
import { beforeCopy, beginUndoRecord, finishUndoRecord, keepReclaimed, type PlannedApply, type UndoRecord } from '../undoRecord';
import { resolveInStore, storeRelative, type StorePaths } from '../storePaths';
import { writeTranscriptsOnce } from '../transcriptFiles';
import { readQueuedSessions } from '../captureQueue';
import { crashPoint } from '../../base/crashPoints';
import { toIsoDate } from '../../model/provenance';
import {
  JOURNAL_DIR,
  journalEntries,
  journalFile,
  mergeEntries,
  parseJournal,
  renderJournal,
  type JournalEntry,
} from '../../model/journalFormat';
import { planJournalEntries } from '../journal/planJournal';
import { encodeLossless } from '../../base/losslessText';
import type { HarvestPlan, PlanChange } from '../harvestPlan';
import { applyPlanEdit } from '../../model/planEdits';
import { clock } from '../../base/clock';
import { pushAll } from '../../base/bulkArrays';
import { readStoreFile } from '../../base/readText';

export interface ApplyResult {
  written: string[];
  reclaimed: Array<{ path: string; action: 'delete' | 'archive'; to?: string; bytes: number }>;
  reclaimErrors: Array<{ path: string; message: string }>;
}

/**
 * Late writes into a replaced file (an editor that opened it just before the swap) are looked
 * for at least this long after the last replacement before anything is reclaimed.
 */
const SETTLE_GRACE_MS = 50;

/**
 * The text apply writes for a change: the previewed one, or the same edit on what is there now
 * (`onDrift` hears of that: the previewed digest no longer matches the files).
 */
function editFor(change: PlanChange, onDrift: () => void): TextEdit {
  return (current) => {
    if (current === change.before) return change.after;
    onDrift();
    return change.edit ? applyPlanEdit(change.edit, current) : change.after;
  };
}

/**
 * Takes the store lock an apply writes under. Holding it, any temporary file or set-aside copy
 * in the store was left by a writer that crashed, so they are cleaned up first.
 */
export async function lockStoreForApply(paths: StorePaths, lockTimeoutMs?: number): Promise<StoreLock> {
  ensureStoreLayout(paths);
  const lock = await acquireStoreLock(paths.root, lockTimeoutMs);
  try {
    // The folders whose files are replaced in place: the category files, the notes, the journal.
    for (const dir of [paths.root, paths.files, path.join(paths.root, JOURNAL_DIR)]) {
      removeStaleTempFiles(dir);
      recoverStaleAsides(dir);
    }
    // Anywhere else in the store (.undo/, tasks/, transcripts/, .logs/ …): those of dead processes.
    removeStrayFiles(paths);
  } catch (error) {
    // A person saving facts.md while an aside is merged back (FileBusyError), a full disk: the
    // caller never gets the lock, so it must not stay held (in a long-lived extension host every
    // later harvest would wait for it).
    lock.release();
    throw error;
  }
  return lock;
}

export function applyPlan(paths: StorePaths, plan: HarvestPlan): ApplyResult {
  const result: ApplyResult = { written: [], reclaimed: [], reclaimErrors: [] };
  const knowledge = plan.changes.filter((c) => c.file !== 'digest.md');
  const digest = plan.changes.find((c) => c.file === 'digest.md');
  // The day's journal (the day of the apply, UTC like provenance dates) gets what is new.
  const learned = planJournalEntries(plan);
  let journal = learned.length ? journalFile(toIsoDate(new Date())) : undefined;

  // Before anything changes: a link anywhere the apply writes stops it whole, not after the files
  // before it were written (each write checks again; this only moves the refusal to the start).
  const targets = [...plan.changes.map((c) => c.file), ...(plan.transcripts ?? []).map((t) => t.file), ...(journal ? [journal] : [])];
  for (const file of [...targets.map((f) => resolveInStore(paths, f)), paths.ledger]) refuseLinks(file);
  // A reclaim moves the conversation out of its folder: not out of a folder a link names (an inbox
  // linked elsewhere would lose someone else's files).
  for (const outcome of plan.outcomes) if (outcome.reclaim) refuseLinks(path.dirname(outcome.path));

  // Before anything changes: what undo needs to put the store back (undoRecord.ts). An apply
  // that changes nothing keeps the previous one's undo.
  const undo = beginUndoRecord(paths, plannedForUndo(paths, plan, journal), { keepPrevious: !changesSomething(paths, plan) });

  // 0. Transcripts, before any line that links to them and before the ledger that points at
  //    them: a crash after this leaves a transcript the re-run recognises (same raw_sha256).
  pushAll(result.written, writeTranscriptsOnce(paths, plan.transcripts ?? []));

  // 0b. The day's journal, before the knowledge lines: "new" is judged against the files as the
  //     plan read them, so after a crash past the knowledge the re-run would find nothing new to
  //     journal. Merged, so the re-run after an earlier crash adds nothing twice.
  if (journal) {
    const file = resolveInStore(paths, journal);
    mkdirNoFollow(path.dirname(file));
    const day = path.basename(journal, '.md');
    if (undo) noteJournalAdded(paths, undo, journal, learned);
    if (!editStoreFile(file, (current) => renderJournal(mergeEntries(parseJournal(day, current), learned)))) journal = undefined;
  }

  // 1. Knowledge: category files and note files, each re-applied on top of any edit made since the plan read it.
  const replaced: GuardedReplace[] = [];
  let lastSwap = 0;
  let drifted = false;
  const drift = () => (drifted = true);
  try {
    for (const change of knowledge) {
      if (change.after === undefined) continue; // A harvest never removes knowledge files.
      const expectedBytes = change.before === undefined ? undefined : encodeLossless(change.before).length;
      replaced.push(replaceTextGuarded(resolveInStore(paths, change.file), editFor(change, drift), { expectedBytes }));
      lastSwap = clock().now();
      result.written.push(change.file);
    }
    // 2. The ledger: from here on the harvest is proven.
    writeLedger(paths.ledger, plan.ledger);
    result.written.push('ledger.json');
    // 3. Writes that reached a replaced file late are merged into the new one (after a short grace).
    sleepSync(lastSwap + SETTLE_GRACE_MS - clock().now());
  } finally {
    // Also on failure: a file replaced before the error must not lose a late hand-written line.
    for (const replacement of replaced.splice(0)) if (replacement.settle() !== replacement) drifted = true;
  }
  // 4. The digest, a projection that can always be regenerated: from the files as written when
  //    someone edited them meanwhile, else exactly as previewed.
  if (drifted && plan.digestEnabled) {
    regenerateDigest(paths, { enabled: true, texts: readCategoryTexts(paths) });
    result.written.push('digest.md');
  } else if (digest) {
    if (digest.after === undefined) removeDigest(paths, plan.digestEnabled ? 'emptied' : 'off');
    else writeDigest(paths, digest.after);
    result.written.push('digest.md');
  }
  // 5. Reclaims, last.
  const touchedDirs = new Set<string>();
  for (const outcome of plan.outcomes) {
    if (!outcome.reclaim) continue;
    try {
      if (outcome.reclaim === 'delete') {
        keepReclaimed(paths, undo, outcome.path); // Unlinked for good by the next apply.
        result.reclaimed.push({ path: outcome.path, action: 'delete', bytes: outcome.bytes });
      } else {
        const to = resolveInStore(paths, path.relative(paths.root, outcome.archiveTo!));
        renameNoFollow(outcome.path, to);
        touchedDirs.add(path.dirname(to));
        result.reclaimed.push({ path: outcome.path, action: 'archive', to, bytes: outcome.bytes });
      }
      touchedDirs.add(path.dirname(outcome.path));
      crashPoint('reclaim');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // Already gone.
      result.reclaimErrors.push({ path: outcome.path, message: (error as Error).message });
      // The ledger said it would be reclaimed; say it was not.
      const entry = plan.ledger.entries[outcome.sha256];
      if (entry) plan.ledger.entries[outcome.sha256] = { ...entry, deleted: false, archived: undefined };
    }
  }
  for (const dir of touchedDirs) fsyncDirectory(dir);
  if (result.reclaimErrors.length) writeLedger(paths.ledger, plan.ledger);
  if (journal) result.written.push(journal); // Reported after the knowledge it derives from.
  if (undo) finishUndoRecord(paths, undo);
  return result;
}

/**
 * Tells the undo record which entries this apply adds to the day's journal (those the journal
 * did not hold before it, judged on the record's copy so a re-run after a crash says the same).
 */
function noteJournalAdded(paths: StorePaths, undo: UndoRecord, journal: string, learned: readonly JournalEntry[]): void {
  const index = undo.files.findIndex((f) => f.file === journal);
  if (index < 0) return;
  const entry = undo.files[index];
  const before = entry.before === null ? undefined : readStoreFile(beforeCopy(paths, index, journal), 'utf8');
  const prior = new Set(
    journalEntries(parseJournal(path.basename(journal, '.md'), before)).map((e) => JSON.stringify([e.source, e.category, e.text])),
  );
  entry.journalAdded = learned.filter((e) => !prior.has(JSON.stringify([e.source, e.category, e.text])));
}

function changesSomething(paths: StorePaths, plan: HarvestPlan): boolean {
  if (plan.outcomes.some((o) => o.reclaim) || plan.transcripts?.length) return true;
  if (plan.changes.some((c) => c.after !== c.before)) return true;
  // Compared as this version writes it: a ledger an earlier Lore wrote (absolute paths) is no change.
  return serializeLedger(readLedger(paths.ledger), paths.root) !== serializeLedger(plan.ledger, paths.root);
}

/** Every file an apply may rewrite, the transcripts it writes and the reclaims it does. */
function plannedForUndo(paths: StorePaths, plan: HarvestPlan, journal: string | undefined): PlannedApply {
  const files = [...new Set([...plan.changes.map((c) => c.file), 'digest.md', 'ledger.json', ...(journal ? [journal] : [])])];
  const reclaims = plan.outcomes.flatMap((o) =>
    o.reclaim ? [{ path: o.path, sha256: o.sha256, action: o.reclaim, archiveTo: o.archiveTo }] : [],
  );
  const queued = readQueuedSessions(paths).map((entry) => storeRelative(paths, entry.file));
  return { files, queued, transcripts: (plan.transcripts ?? []).map((t) => ({ file: t.file, text: t.text })), reclaims };
}
