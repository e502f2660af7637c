/**
 * Executing a plan in the crash-safe order: knowledge lines durable first (atomic writes),
 * then the ledger (which also records the reclaims about to happen), then the digest, and the
 * reclaims last. Killed at any point, a re-run loses no line (nothing is reclaimed before the
 * ledger proves its harvest), duplicates no line (appends skip lines already present) and
 * deletes nothing unproven; a reclaim the ledger recorded but the crash prevented is simply
 * done by the next run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fsyncDirectory, writeFileAtomic } from '../store/atomicWrite';
import { writeLedger } from '../store/ledger';
import { resolveInStore, type StorePaths } from '../store/storePaths';
import { crashPoint } from '../util/crashPoints';
import type { HarvestPlan } from './plan';

export interface ApplyResult {
  written: string[];
  reclaimed: Array<{ path: string; action: 'delete' | 'archive'; to?: string; bytes: number }>;
  reclaimErrors: Array<{ path: string; message: string }>;
}

export function applyPlan(paths: StorePaths, plan: HarvestPlan): ApplyResult {
  const result: ApplyResult = { written: [], reclaimed: [], reclaimErrors: [] };
  const knowledge = plan.changes.filter((c) => c.file !== 'digest.md');
  const digest = plan.changes.find((c) => c.file === 'digest.md');

  // 1. Knowledge: category files and note files.
  for (const change of knowledge) {
    if (change.after === undefined) continue; // A harvest never removes knowledge files.
    writeFileAtomic(resolveInStore(paths, change.file), change.after);
    result.written.push(change.file);
  }
  // 2. The ledger: from here on the harvest is proven.
  writeLedger(paths.ledger, plan.ledger);
  result.written.push('ledger.json');
  // 3. The digest, a projection that can always be regenerated.
  if (digest) {
    if (digest.after === undefined) {
      fs.rmSync(paths.digest, { force: true });
      fsyncDirectory(paths.root);
    } else {
      writeFileAtomic(paths.digest, digest.after);
    }
    result.written.push('digest.md');
  }
  // 4. Reclaims, last.
  const touchedDirs = new Set<string>();
  for (const outcome of plan.outcomes) {
    if (!outcome.reclaim) continue;
    try {
      if (outcome.reclaim === 'delete') {
        fs.rmSync(outcome.path);
        result.reclaimed.push({ path: outcome.path, action: 'delete', bytes: outcome.bytes });
      } else {
        const to = resolveInStore(paths, path.relative(paths.root, outcome.archiveTo!));
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.renameSync(outcome.path, to);
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
  return result;
}
