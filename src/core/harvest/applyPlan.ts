/**
 * Executing a plan in the crash-safe order: knowledge lines durable first (atomic writes),
 * then the ledger, then the digest, and only then the reclaims, each followed by a ledger
 * update. Killed at any point, a re-run loses no line (nothing is reclaimed before the ledger
 * proves it), duplicates no line (appends skip lines already present) and deletes nothing
 * unproven.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fsyncDirectory, writeFileAtomic } from '../store/atomicWrite';
import { writeLedger, type Ledger } from '../store/ledger';
import { resolveInStore, type StorePaths } from '../store/storePaths';
import { crashPoint } from '../util/crashPoints';
import type { HarvestPlan } from './plan';

export interface ApplyResult {
  written: string[];
  reclaimed: Array<{ path: string; action: 'delete' | 'archive'; to?: string; bytes: number }>;
  reclaimErrors: Array<{ path: string; message: string }>;
}

/** A free path in the archive for a conversation file (never overwrites). */
function archiveTarget(paths: StorePaths, file: string, sha256: string, now: Date): string {
  const month = now.toISOString().slice(0, 7);
  const dir = resolveInStore(paths, path.join('archive', month));
  const base = path.basename(file);
  let target = path.join(dir, base);
  if (fs.existsSync(target)) {
    const ext = path.extname(base);
    target = path.join(dir, `${base.slice(0, base.length - ext.length)}-${sha256.slice(0, 12)}${ext}`);
  }
  return target;
}

export function applyPlan(paths: StorePaths, plan: HarvestPlan, now: Date): ApplyResult {
  const result: ApplyResult = { written: [], reclaimed: [], reclaimErrors: [] };
  const knowledge = plan.changes.filter((c) => c.file !== 'digest.md');
  const digest = plan.changes.find((c) => c.file === 'digest.md');

  // 1. Knowledge: category files and note files.
  for (const change of knowledge) {
    const target = resolveInStore(paths, change.file);
    if (change.after === undefined) continue; // Knowledge files are never removed by a harvest.
    writeFileAtomic(target, change.after);
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
    crashPoint('digest');
  }
  // 4. Reclaims, last, each one recorded in the ledger once done.
  const ledger: Ledger = plan.ledger;
  let ledgerDirty = false;
  for (const outcome of plan.outcomes) {
    if (!outcome.reclaim) continue;
    try {
      if (outcome.reclaim === 'delete') {
        fs.rmSync(outcome.path);
        fsyncDirectory(path.dirname(outcome.path));
        result.reclaimed.push({ path: outcome.path, action: 'delete', bytes: outcome.bytes });
      } else {
        const to = archiveTarget(paths, outcome.path, outcome.sha256, now);
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.renameSync(outcome.path, to);
        fsyncDirectory(path.dirname(to));
        result.reclaimed.push({ path: outcome.path, action: 'archive', to, bytes: outcome.bytes });
      }
      crashPoint('reclaim');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') result.reclaimErrors.push({ path: outcome.path, message: (error as Error).message });
      continue;
    }
    const entry = ledger.entries[outcome.sha256];
    if (entry) {
      const last = result.reclaimed[result.reclaimed.length - 1];
      ledger.entries[outcome.sha256] = last.action === 'delete' ? { ...entry, deleted: true } : { ...entry, archived: last.to };
      ledgerDirty = true;
    }
  }
  if (ledgerDirty) writeLedger(paths.ledger, ledger);
  return result;
}
