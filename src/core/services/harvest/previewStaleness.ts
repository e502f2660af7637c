/**
 * Whether a previewed harvest plan still describes the world it would be applied to. Apply
 * writes exactly what the preview showed and never calls a model, so it must refuse when the
 * preview no longer holds: a conversation it harvests or reclaims changed or went away, a new
 * conversation waits that the preview never saw, or the ledger it would overwrite moved on.
 * Knowledge files that changed are not a reason: apply re-applies its edits on top of them.
 */
import { printable } from '../../model/format';
import type { Ledger } from '../../model/ledgerFormat';
import { resolveInStore, type StorePaths } from '../../store/storePaths';
import { readStoreFile, readTextLossless } from '../../base/readText';
import { classifyConversations } from './classify';
import type { KnownFiles } from './knownFiles';
import type { HarvestPlan } from '../../store/harvestPlan';
import { scanSources } from '../discovery/scanSources';
import { sha256Hash } from '../../base/lazyCrypto';

/** sha256 of a file's bytes, '' when it does not exist. */
export function fileSha256(file: string): string {
  try {
    return sha256Hash().update(readStoreFile(file)).digest('hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

export interface StalenessOptions {
  /** The conversation sources the preview scanned. */
  sources: string[];
  /** The ledger as it is now (read under the store lock). */
  ledger: Ledger;
  now: number;
  liveWindowMs: number;
  /** Unchanged known files outside the inbox are not read again to be found unchanged. */
  knownFiles?: KnownFiles;
}

/** Why the plan can no longer be applied as previewed; empty when it can. */
export function staleReasons(paths: StorePaths, plan: HarvestPlan, options: StalenessOptions): string[] {
  const reasons: string[] = [];
  if (fileSha256(paths.ledger) !== plan.ledgerSha256) reasons.push('ledger.json changed since the preview (another harvest ran?)');

  const scan = scanSources(paths, options.sources);
  const current = new Map(
    classifyConversations(scan.files, options.ledger, {
      now: options.now,
      liveWindowMs: options.liveWindowMs,
      knownFiles: options.knownFiles,
    }).map((c) => [c.path, c]),
  );
  const previewed = new Map(plan.outcomes.map((o) => [o.path, o]));
  for (const outcome of plan.outcomes) {
    // Only the conversations the plan records or reclaims must be as they were.
    if (!outcome.status && !outcome.reclaim) continue;
    const now = current.get(outcome.path);
    if (!now) reasons.push(`${printable(outcome.path)} is gone`);
    else if (now.sha256 !== outcome.sha256 || now.bytes !== outcome.bytes || now.mtimeMs !== outcome.mtimeMs)
      reasons.push(`${printable(outcome.path)} changed since the preview`);
  }
  for (const now of current.values()) {
    if (now.class !== 'harvest' && now.class !== 'retry') continue;
    const seen = previewed.get(now.path);
    // A file the preview saw with the same bytes (left live or deferred then) is not new; one the
    // plan acts on was checked above.
    if (!seen) reasons.push(`${printable(now.path)} is a new conversation`);
    else if (seen.sha256 !== now.sha256 && !seen.status && !seen.reclaim) reasons.push(`${printable(now.path)} changed since the preview`);
  }
  // A change apply cannot re-apply (no edit) must find its file exactly as previewed.
  for (const change of plan.changes) {
    if (change.edit || change.file === 'digest.md') continue;
    if (readTextLossless(resolveInStore(paths, change.file)) !== change.before)
      reasons.push(`${printable(change.file)} changed since the preview`);
  }
  return reasons;
}
