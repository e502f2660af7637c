/**
 * The task side tables kept in step with the JSONL logs. A refresh re-reads only the tasks whose
 * log changed (size or mtime) and replaces all of that task's rows in one transaction; a rebuild
 * clears everything and reads every log. Either can run at any time: the logs are the truth.
 */
import type { StorePaths } from '../../store/storePaths';
import { openTaskDb, type TaskDb, type TaskStatement } from './taskDb';
import type { TaskArtifact } from './artifactSchema';
import { flagInstruction } from '../../model/safety/instructionFlags';
import { artifactTexts } from './artifactText';
import { projectArtifact } from './projection';
import { HELD_TAG } from './recordArtifact';
import { listTaskIds } from './taskFiles';
import { PER_TASK_TABLES, initTaskSchema } from './taskIndexSchema';
import { readTaskLog, type MalformedLine, type TaskLog } from './taskLog';
import { foldTask } from './taskState';
import { verificationsOf } from './verification';
import * as fs from 'node:fs';
import { taskLogFile } from './taskFiles';

/** What a refresh or rebuild did. */
export interface TaskIndexReport {
  tasks: number;
  artifacts: number;
  reindexed: string[];
  removed: string[];
  malformed: MalformedLine[];
}

/** Raised when better-sqlite3 cannot load: the side tables need it. */
export class TaskIndexUnavailable extends Error {
  constructor(reason: string) {
    super(`task memory needs the SQLite index, which is unavailable here: ${reason}`);
    this.name = 'TaskIndexUnavailable';
  }
}

/** Whether an artifact is held (instruction-like): stored, its text withheld from agents. */
export function isHeld(a: TaskArtifact): boolean {
  // A line written by hand (not through recordArtifact) has no tag: its text is checked too.
  return (a.policy_tags?.includes(HELD_TAG) ?? false) || artifactTexts(a).some((t) => flagInstruction(t).length > 0);
}

/** The ids of digests that a newer digest with the same digest_key replaced. */
export function supersededDigests(artifacts: readonly TaskArtifact[]): Set<string> {
  const newest = new Map<string, TaskArtifact>();
  const out = new Set<string>();
  for (const a of artifacts) {
    if (a.artifact_kind !== 'digest' || !a.digest_key) continue;
    const prev = newest.get(a.digest_key);
    if (prev) out.add(prev.artifact_id);
    newest.set(a.digest_key, a);
  }
  return out;
}

/** A verification's own status, or `unverified` when its agent made the claim it verifies (that does not count). */
function verifierStatus(v: TaskArtifact, byId: ReadonlyMap<string, TaskArtifact>): string {
  const claim = v.reply_to_artifact_id ? byId.get(v.reply_to_artifact_id) : undefined;
  return claim && claim.agent_id !== v.agent_id ? (v.verification_status ?? 'verified') : 'unverified';
}

function eventTitle(a: TaskArtifact): string {
  const text = a.summary ?? a.goal ?? a.command ?? a.tool_name ?? '';
  return text.replace(/\s+/g, ' ').slice(0, 160);
}

/** The task side tables of one store. */
export class TaskIndex {
  private readonly statements = new Map<string, TaskStatement>();
  /** Bumped whenever rows change, so what is derived from them in memory (the ranker) is rebuilt. */
  generation = 0;
  private lastReport: TaskIndexReport | undefined;

  private constructor(
    readonly db: TaskDb,
    private readonly paths: StorePaths,
  ) {}

  /** A prepared statement, prepared once per index: a rebuild runs each thousands of times. */
  private stmt(sql: string): TaskStatement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** Opens (creating) the tables in the store's index database. */
  static open(paths: StorePaths, env: NodeJS.ProcessEnv = process.env): TaskIndex {
    try {
      return new TaskIndex(openTaskDb(paths, initTaskSchema, env), paths);
    } catch (error) {
      throw new TaskIndexUnavailable((error as Error).message.split('\n')[0]);
    }
  }

  close(): void {
    this.db.close();
  }

  /** Re-reads the logs that changed since the last refresh. */
  refresh(): TaskIndexReport {
    const known = new Map(
      (
        this.db.prepare('SELECT task_id, size, mtime_ms FROM task_sources').all() as Array<{
          task_id: string;
          size: number;
          mtime_ms: number;
        }>
      ).map((r) => [r.task_id, r]),
    );
    const ids = listTaskIds(this.paths);
    const changed = ids.filter((id) => {
      const row = known.get(id);
      if (!row) return true;
      const stat = fs.statSync(taskLogFile(this.paths, id));
      return stat.size !== row.size || stat.mtimeMs !== row.mtime_ms;
    });
    const present = new Set(ids);
    const removed = [...known.keys()].filter((id) => !present.has(id));
    // Every read refreshes first: when nothing changed, the last counts still hold.
    if (changed.length === 0 && removed.length === 0 && this.lastReport) return { ...this.lastReport, reindexed: [], removed: [] };
    const logs = changed.map((id) => readTaskLog(this.paths, id));
    this.db.transaction(() => {
      for (const id of [...removed, ...changed]) this.clearTask(id);
      for (const log of logs) this.ingest(log);
      if (removed.length || changed.length) this.dropOrphans();
    });
    if (removed.length || changed.length) this.generation++;
    return this.report(
      logs.map((l) => l.taskId),
      removed,
    );
  }

  /** Clears every table and reads every log again. */
  rebuild(): TaskIndexReport {
    const logs = listTaskIds(this.paths).map((id) => readTaskLog(this.paths, id));
    this.db.transaction(() => {
      for (const table of [...PER_TASK_TABLES, 'datasets', 'entities']) this.db.exec(`DELETE FROM ${table}`);
      for (const log of logs) this.ingest(log);
    });
    this.generation++;
    return this.report(
      logs.map((l) => l.taskId),
      [],
    );
  }

  /** Malformed lines of every log, as of the last refresh. */
  malformed(): MalformedLine[] {
    return (this.db.prepare('SELECT malformed FROM task_sources ORDER BY task_id').all() as Array<{ malformed: string }>).flatMap(
      (r) => JSON.parse(r.malformed) as MalformedLine[],
    );
  }

  private report(reindexed: string[], removed: string[]): TaskIndexReport {
    const count = (sql: string) => (this.stmt(sql).get() as { n: number }).n;
    this.lastReport = {
      tasks: count('SELECT count(*) AS n FROM tasks'),
      artifacts: count('SELECT count(*) AS n FROM task_artifacts'),
      reindexed,
      removed,
      malformed: this.malformed(),
    };
    return this.lastReport;
  }

  private clearTask(taskId: string): void {
    for (const table of PER_TASK_TABLES) this.stmt(`DELETE FROM ${table} WHERE task_id = ?`).run(taskId);
  }

  private dropOrphans(): void {
    this.db.exec(
      'DELETE FROM datasets WHERE NOT EXISTS (SELECT 1 FROM task_datasets t WHERE t.name = datasets.name AND t.version = datasets.version)',
    );
    this.db.exec(
      'DELETE FROM entities WHERE NOT EXISTS (SELECT 1 FROM task_entities t WHERE t.name = entities.name AND t.type = entities.type)',
    );
  }

  /** Writes one task's rows (the caller cleared the old ones, inside a transaction). */
  private ingest(log: TaskLog): void {
    const { taskId, artifacts } = log;
    this.stmt('INSERT INTO task_sources(task_id, size, mtime_ms, malformed) VALUES (?, ?, ?, ?)').run(
      taskId,
      log.size,
      log.mtimeMs,
      JSON.stringify(log.malformed),
    );
    if (artifacts.length === 0) return;
    const state = foldTask(taskId, artifacts);
    const verifications = verificationsOf(artifacts);
    const superseded = supersededDigests(artifacts);
    const byId = new Map(artifacts.map((a) => [a.artifact_id, a]));
    const insertArtifact = this
      .stmt(`INSERT OR IGNORE INTO task_artifacts(artifact_id, task_id, seq, artifact_kind, status, agent_id, session_id, tenant_id, project_id, artifact_role,
      challenge_id, thread_id, reply_to_artifact_id, relation_kind, requested_action, verification_status, promotion_state, digest_key, superseded, tool_name, created_ms, held, json)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertEvent = this.stmt(
      'INSERT OR IGNORE INTO task_events(artifact_id, task_id, seq, artifact_kind, at_ms, agent_id, title) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertChunk = this.stmt('INSERT INTO task_chunks(artifact_id, task_id, chunk_kind, text, context) VALUES (?, ?, ?, ?, ?)');
    const insertLink = this.stmt('INSERT INTO artifact_links(artifact_id, task_id, target_kind, target) VALUES (?, ?, ?, ?)');
    const insertRelation = this.stmt(
      'INSERT INTO artifact_relations(from_artifact_id, to_artifact_id, relation_kind, task_id) VALUES (?, ?, ?, ?)',
    );
    artifacts.forEach((a, seq) => {
      const created = Date.parse(a.timestamp_created);
      // A claim's verification status is what other agents' verifications say, never its own field.
      const verification =
        a.artifact_kind === 'verification' ? verifierStatus(a, byId) : (verifications.get(a.artifact_id)?.status ?? 'unverified');
      insertArtifact.run(
        a.artifact_id,
        taskId,
        seq,
        a.artifact_kind,
        a.status ?? null,
        a.agent_id,
        a.session_id ?? null,
        a.tenant_id ?? null,
        a.project_id ?? state.projectId ?? null,
        a.artifact_role ?? null,
        a.challenge_id ?? null,
        a.thread_id ?? null,
        a.reply_to_artifact_id ?? null,
        a.relation_kind ?? null,
        a.requested_action ?? null,
        verification,
        a.promotion_state ?? null,
        a.digest_key ?? null,
        superseded.has(a.artifact_id) ? 1 : 0,
        a.tool_name ?? null,
        created,
        isHeld(a) ? 1 : 0,
        JSON.stringify(a),
      );
      insertEvent.run(a.artifact_id, taskId, seq, a.artifact_kind, created, a.agent_id, eventTitle(a));
      if (!superseded.has(a.artifact_id))
        for (const c of projectArtifact(a, state.goal)) insertChunk.run(c.artifactId, c.taskId, c.kind, c.text, c.context);
      for (const f of a.provenance?.files ?? []) insertLink.run(a.artifact_id, taskId, 'file', f);
      if (a.provenance?.conversation_id) insertLink.run(a.artifact_id, taskId, 'conversation', a.provenance.conversation_id);
      for (const u of a.provenance?.urls ?? []) insertLink.run(a.artifact_id, taskId, 'url', u);
      if (a.reply_to_artifact_id) insertRelation.run(a.artifact_id, a.reply_to_artifact_id, a.relation_kind ?? 'replies_to', taskId);
      for (const r of a.related_artifact_ids ?? []) insertRelation.run(a.artifact_id, r, a.relation_kind ?? 'related', taskId);
      for (const c of a.contributors ?? [])
        this.stmt('INSERT INTO artifact_contributors(artifact_id, task_id, contributor) VALUES (?, ?, ?)').run(a.artifact_id, taskId, c);
      if (a.challenge_id)
        this.stmt('INSERT INTO challenges(challenge_id, task_id, artifact_id) VALUES (?, ?, ?)').run(a.challenge_id, taskId, a.artifact_id);
      for (const d of a.dataset_refs ?? []) {
        this.stmt('INSERT OR IGNORE INTO datasets(name, version) VALUES (?, ?)').run(d.name, d.version ?? '');
        this.stmt('INSERT INTO task_datasets(task_id, artifact_id, name, version) VALUES (?, ?, ?, ?)').run(
          taskId,
          a.artifact_id,
          d.name,
          d.version ?? '',
        );
      }
      for (const e of a.entity_refs ?? []) {
        this.stmt('INSERT OR IGNORE INTO entities(name, type) VALUES (?, ?)').run(e.name, e.type ?? '');
        this.stmt('INSERT INTO task_entities(task_id, artifact_id, name, type) VALUES (?, ?, ?, ?)').run(
          taskId,
          a.artifact_id,
          e.name,
          e.type ?? '',
        );
      }
      if (a.artifact_kind === 'evidence') {
        this.stmt('INSERT INTO evidence(artifact_id, task_id, summary, confidence, verification_status) VALUES (?, ?, ?, ?, ?)').run(
          a.artifact_id,
          taskId,
          a.summary ?? '',
          a.confidence ?? null,
          verification,
        );
      }
    });
    for (const run of state.runs) {
      this.stmt(
        'INSERT INTO runs(run_id, task_id, tool_name, tool_version, command, status, started_ms, finished_ms, finish_artifact_id, metrics) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        run.runId,
        taskId,
        run.start.tool_name ?? null,
        run.start.tool_version ?? null,
        run.start.command ?? null,
        run.status,
        Date.parse(run.start.timestamp_created),
        run.finish ? Date.parse(run.finish.timestamp_created) : null,
        run.finish?.artifact_id ?? null,
        run.finish?.metrics ? JSON.stringify(run.finish.metrics) : null,
      );
    }
    if (artifacts.some((a) => a.artifact_kind === 'task_start')) {
      this.stmt(
        'INSERT INTO tasks(task_id, goal, status, agent_id, project_id, parent_task_id, created_ms, updated_ms, artifact_count, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        taskId,
        state.goal ?? null,
        state.status,
        state.agentId ?? null,
        state.projectId ?? null,
        state.parentTaskId ?? null,
        state.createdMs,
        state.updatedMs,
        artifacts.length,
        state.summary ?? null,
      );
    }
  }
}
