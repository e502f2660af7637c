/**
 * Full records for selected ids (after a compact search): one artifact with what relates to it
 * and its verification, or one task with its state, timeline, runs and links. Read from the side
 * tables; held text withheld unless a person asks.
 */
import { redactDeep } from '../../model/safety/redact';
import { artifactSchema, type TaskArtifact } from './artifactSchema';
import { isHeld, type TaskIndex } from './taskIndex';
import { foldTask, type TaskState } from './taskState';
import { verificationsOf, type ClaimVerification } from './verification';

const WITHHELD = '[withheld: reads as an instruction to an agent]';

/** An artifact with the text fields replaced when it is held and `showHeld` is off. */
function visible(a: TaskArtifact, showHeld: boolean): TaskArtifact {
  if (showHeld || !isHeld(a)) return redactDeep(a);
  const out: Record<string, unknown> = { ...a };
  for (const key of ['goal', 'motivation', 'hypothesis', 'scientific_question', 'summary', 'command', 'why_chosen', 'requested_action'])
    if (key in out) out[key] = WITHHELD;
  for (const key of ['blockers', 'what_worked', 'what_failed', 'validation', 'uncertainty', 'followups'])
    if (key in out) out[key] = [WITHHELD];
  return redactDeep(out as TaskArtifact);
}

function artifactsOf(index: TaskIndex, sql: string, ...params: unknown[]): TaskArtifact[] {
  return (index.db.prepare(sql).all(...params) as Array<{ json: string }>).flatMap((r) => {
    const parsed = artifactSchema.safeParse(JSON.parse(r.json));
    return parsed.success ? [parsed.data] : [];
  });
}

/** One artifact, with the artifacts that reply to or relate to it, and its verification. */
export interface ArtifactRecord {
  artifact: TaskArtifact;
  related: Array<{ artifact_id: string; artifact_kind: string; relation_kind: string; agent_id: string; summary?: string }>;
  verification: ClaimVerification;
}

export function getArtifact(index: TaskIndex, artifactId: string, showHeld = false): ArtifactRecord | undefined {
  const [artifact] = artifactsOf(index, 'SELECT json FROM task_artifacts WHERE artifact_id = ?', artifactId);
  if (!artifact) return undefined;
  const relatedRows = index.db
    .prepare(
      'SELECT r.from_artifact_id AS id, r.relation_kind AS kind, a.json FROM artifact_relations r JOIN task_artifacts a ON a.artifact_id = r.from_artifact_id WHERE r.to_artifact_id = ? ORDER BY a.created_ms',
    )
    .all(artifactId) as Array<{ id: string; kind: string; json: string }>;
  const related = relatedRows.map((r) => {
    const a = visible(artifactSchema.parse(JSON.parse(r.json)), showHeld);
    return {
      artifact_id: r.id,
      artifact_kind: a.artifact_kind,
      relation_kind: r.kind,
      agent_id: a.agent_id,
      ...(a.summary ? { summary: a.summary } : {}),
    };
  });
  const all = artifactsOf(index, 'SELECT json FROM task_artifacts WHERE task_id = ? ORDER BY seq', artifact.task_id);
  const verification = verificationsOf(all).get(artifactId) ?? { status: 'unverified' as const, by: [], selfVerifications: [] };
  return { artifact: visible(artifact, showHeld), related, verification };
}

/** One task: its folded state (held text withheld) and its artifacts in order. */
export function getTask(index: TaskIndex, taskId: string, showHeld = false): TaskState | undefined {
  const artifacts = artifactsOf(index, 'SELECT json FROM task_artifacts WHERE task_id = ? ORDER BY seq', taskId).map((a) =>
    visible(a, showHeld),
  );
  if (artifacts.length === 0) return undefined;
  return foldTask(taskId, artifacts);
}

/** A row of the task list. */
export interface TaskListRow {
  task_id: string;
  goal: string | null;
  status: string;
  agent_id: string | null;
  updated_ms: number;
  artifact_count: number;
  summary: string | null;
}

/** Tasks, newest first, optionally of one status. */
export function listTasks(index: TaskIndex, status?: string): TaskListRow[] {
  const rows = index.db
    .prepare(
      `SELECT task_id, goal, status, agent_id, updated_ms, artifact_count, summary FROM tasks${status ? ' WHERE status = ?' : ''} ORDER BY updated_ms DESC, task_id`,
    )
    .all(...(status ? [status] : [])) as TaskListRow[];
  return redactDeep(rows);
}
