/**
 * `lore tasks dream`: plans the compaction of task memory, a dry run unless applied (seed:
 * memory.dream defaults to dry_run). The plan creates missing digests and refreshes stale ones
 * (a source newer than the digest's source_updated_at_ms); apply appends them as digest
 * artifacts under the store lock and refreshes the index. It reports what it cannot do safely:
 * superseded digests and malformed lines stay in the append-only logs (they leave the index and
 * are reported, never rewritten away).
 */
import { acquireStoreLock } from '../../base/storeLock';
import type { StorePaths } from '../../store/storePaths';
import { compileDigests, type DigestDraft } from './digests';
import { buildArtifact, writeTaskPage, type RecordContext } from './recordArtifact';
import type { TaskArtifact } from './artifactSchema';
import { supersededDigests, type TaskIndex } from './taskIndex';
import { appendArtifacts, readAllTaskLogs, readTaskLog, type MalformedLine, type TaskLog } from './taskLog';
import { foldTask } from './taskState';

/** Active tasks without an artifact for this long are reported as stale. */
export const STALE_TASK_DAYS = 14;

/** One digest the plan writes. */
export interface DreamAction {
  action: 'create' | 'refresh';
  digest_key: string;
  task_id: string;
  reason: string;
}

/** The plan (and, applied, what was done). */
export interface DreamPlan {
  dryRun: boolean;
  actions: DreamAction[];
  fresh: number;
  supersededDigests: number;
  staleTasks: string[];
  malformed: MalformedLine[];
  blocked: string[];
  /** Artifacts written (apply only). */
  written: string[];
}

function latestDigests(logs: readonly TaskLog[]): Map<string, TaskArtifact> {
  const latest = new Map<string, TaskArtifact>();
  for (const log of logs) for (const a of log.artifacts) if (a.artifact_kind === 'digest' && a.digest_key) latest.set(a.digest_key, a);
  return latest;
}

function planActions(logs: readonly TaskLog[]): { actions: Array<DreamAction & { draft: DigestDraft }>; fresh: number } {
  const latest = latestDigests(logs);
  const actions: Array<DreamAction & { draft: DigestDraft }> = [];
  let fresh = 0;
  for (const d of compileDigests(logs)) {
    const current = latest.get(d.key);
    if (!current) actions.push({ action: 'create', digest_key: d.key, task_id: d.scope, reason: 'no digest yet', draft: d });
    else if ((current.source_updated_at_ms ?? 0) < d.sourceUpdatedAtMs)
      actions.push({
        action: 'refresh',
        digest_key: d.key,
        task_id: d.scope,
        reason: `sources changed since ${new Date(current.source_updated_at_ms ?? 0).toISOString()}`,
        draft: d,
      });
    else fresh++;
  }
  return { actions, fresh };
}

/** Plans (and with `apply`, performs) the compaction. `index` is refreshed after an apply. */
export async function dream(paths: StorePaths, options: { apply: boolean; context: RecordContext; index?: TaskIndex }): Promise<DreamPlan> {
  let logs = readAllTaskLogs(paths);
  const now = options.context.now().getTime();
  const staleTasks = logs
    .map((l) => foldTask(l.taskId, l.artifacts))
    .filter((s) => s.goal && (s.status === 'active' || s.status === 'blocked') && now - s.updatedMs > STALE_TASK_DAYS * 86_400_000)
    .map((s) => s.taskId);
  const blocked = [
    'rewriting the append-only logs (superseded digests, malformed lines) is never done: they stay in the JSONL and are left out of the index',
  ];
  let { actions, fresh } = planActions(logs);
  const written: string[] = [];
  if (options.apply && actions.length) {
    const lock = await acquireStoreLock(paths.root);
    try {
      // Planned again under the lock: another writer may have added artifacts meanwhile.
      logs = readAllTaskLogs(paths);
      ({ actions, fresh } = planActions(logs));
      for (const action of actions) {
        const existing = readTaskLog(paths, action.task_id).artifacts;
        const { artifact } = buildArtifact(action.draft.input, existing, options.context);
        appendArtifacts(paths, action.task_id, [artifact]);
        written.push(artifact.artifact_id);
      }
      for (const taskId of new Set(actions.map((a) => a.task_id))) writeTaskPage(paths, taskId);
    } finally {
      lock.release();
    }
    options.index?.refresh();
    logs = readAllTaskLogs(paths);
  }
  const superseded = logs.reduce((n, l) => n + supersededDigests(l.artifacts).size, 0);
  return {
    dryRun: !options.apply,
    actions: actions.map(({ draft: _draft, ...a }) => a),
    fresh,
    supersededDigests: superseded,
    staleTasks,
    malformed: logs.flatMap((l) => l.malformed),
    blocked,
    written,
  };
}
