/**
 * Applying a previewed harvest: the plan the user saw is written as it is, with no model call
 * and no second distillation, so nothing lands that nobody saw. Under the store lock the preview
 * is checked first (previewStaleness.ts); a stale one writes nothing and says why, so the caller
 * can offer to preview again. Knowledge files edited since the preview get Lore's edits
 * re-applied on top (applyPlan).
 */
import * as path from 'node:path';
import { settleQueue } from '../../store/captureQueue';
import { readLedger } from '../../store/ledger';
import { checkStoreEntries } from '../../store/storeErrors';
import { isInside, type StorePaths } from '../../store/storePaths';
import { printable } from '../../model/format';
import { harvestChanges } from '../../store/changes/harvestChanges';
import { recordStoreChange } from '../../store/history/storeHistory';
import { applyPlan, lockStoreForApply } from '../../store/changes/applyPlan';
import { KnownFiles } from './knownFiles';
import type { HarvestPlan } from '../../store/harvestPlan';
import { staleReasons } from './previewStaleness';
import { DEFAULT_LIVE_WINDOW_MS, type HarvestReport } from './runHarvest';

export interface ApplyPreviewedOptions {
  now?: Date;
  /** As for the preview: agent logs modified within this window are not new conversations yet. */
  liveWindowMs?: number;
  lockTimeoutMs?: number;
}

/** Thrown when a plan (typically one read from a file) would touch what a harvest never touches. */
class PlanOutOfBoundsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanOutOfBoundsError';
  }
}

/**
 * A harvest reclaims only conversations in the store's inbox and archives them only into the
 * store's archive/. A plan is checked against that before anything is locked or written.
 */
function checkReclaims(paths: StorePaths, plan: HarvestPlan): void {
  for (const outcome of plan.outcomes) {
    if (!outcome.reclaim) continue;
    if (!outcome.inInbox || !isInside(paths.inbox, outcome.path) || path.resolve(outcome.path) === path.resolve(paths.inbox)) {
      throw new PlanOutOfBoundsError(`the plan reclaims ${printable(outcome.path)}, which is not in the store's inbox`);
    }
    if (outcome.reclaim === 'archive' && (!outcome.archiveTo || !isInside(path.join(paths.root, 'archive'), outcome.archiveTo))) {
      throw new PlanOutOfBoundsError(`the plan archives ${printable(outcome.path)} outside the store's archive/`);
    }
  }
}

/**
 * Writes the plan of a preview report. The result is the report in `apply` mode with `applied`
 * set, or with `stale` (the reasons) and nothing written.
 */
export async function applyPreviewedHarvest(
  paths: StorePaths,
  previewed: HarvestReport,
  options: ApplyPreviewedOptions = {},
): Promise<HarvestReport> {
  if (!previewed.plan) throw new Error('this harvest report has no plan to apply (it was a dry run or was cancelled)');
  // applyPlan notes failed reclaims in its plan's ledger; the preview stays as it was shown.
  const plan = structuredClone(previewed.plan);
  checkReclaims(paths, plan);
  const report: HarvestReport = {
    ...previewed,
    mode: 'apply',
    plan,
    conversations: plan.outcomes,
    modelCalls: 0,
    applied: undefined,
    stale: undefined,
  };
  const lock = await lockStoreForApply(paths, options.lockTimeoutMs);
  try {
    checkStoreEntries(paths);
    const knownFiles = KnownFiles.open(paths);
    const readAt = Date.now(); // Compared with the files' ctime: the real clock.
    const stale = staleReasons(paths, plan, {
      knownFiles,
      sources: previewed.sources,
      ledger: readLedger(paths.ledger),
      now: (options.now ?? new Date()).getTime(),
      liveWindowMs: options.liveWindowMs ?? DEFAULT_LIVE_WINDOW_MS,
    });
    if (stale.length) {
      report.stale = stale;
      return report;
    }
    report.applied = applyPlan(paths, plan);
    settleQueue(paths, plan.outcomes);
    // The staleness check just found every planned file as the preview hashed it.
    const unsaved = knownFiles.rememberProven(plan.outcomes, plan.ledger, readAt);
    if (unsaved) report.warnings = [...report.warnings, unsaved];
    // Still under the lock: the commit takes the store as this apply left it.
    report.history = await recordStoreChange(paths, harvestChanges(report.plan!, report.applied));
    if (report.history?.warning) report.warnings = [...report.warnings, report.history.warning];
    return report;
  } finally {
    lock.release();
  }
}
