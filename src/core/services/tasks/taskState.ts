/**
 * A task as its artifacts say it stands: the fold of its log in order. The markdown page, the
 * index's `tasks` and `runs` tables, `task_get` and the task_resume digest all read this one fold.
 */
import { artifactTimeMs, type TaskArtifact, type TaskStatus } from './artifactSchema';

/** A run: its run_start and, once finished, the run_finish that replies to it. */
export interface RunState {
  runId: string;
  start: TaskArtifact;
  finish?: TaskArtifact;
  status: string;
}

/** The current state of a task. */
export interface TaskState {
  taskId: string;
  goal?: string;
  motivation?: string;
  hypothesis?: string;
  scientificQuestion?: string;
  status: TaskStatus;
  agentId?: string;
  projectId?: string;
  parentTaskId?: string;
  createdMs: number;
  updatedMs: number;
  /** The newest summary of a progress or finish. */
  summary?: string;
  blockers: string[];
  worked: string[];
  failed: string[];
  validation: string[];
  uncertainty: string[];
  followups: string[];
  runs: RunState[];
  evidence: TaskArtifact[];
  decisions: TaskArtifact[];
  artifacts: TaskArtifact[];
}

const TASK_STATUS_KINDS = new Set(['task_start', 'task_progress', 'task_finish']);

/** Folds a task's artifacts (in log order) into its state. */
export function foldTask(taskId: string, artifacts: readonly TaskArtifact[]): TaskState {
  const state: TaskState = {
    taskId,
    status: 'active',
    createdMs: 0,
    updatedMs: 0,
    blockers: [],
    worked: [],
    failed: [],
    validation: [],
    uncertainty: [],
    followups: [],
    runs: [],
    evidence: [],
    decisions: [],
    artifacts: [...artifacts],
  };
  const runs = new Map<string, RunState>();
  for (const a of artifacts) {
    const at = artifactTimeMs(a);
    if (!state.createdMs || at < state.createdMs) state.createdMs = at;
    state.updatedMs = Math.max(state.updatedMs, at);
    if (a.artifact_kind === 'task_start') {
      state.goal = a.goal ?? state.goal;
      state.motivation = a.motivation ?? state.motivation;
      state.hypothesis = a.hypothesis ?? state.hypothesis;
      state.scientificQuestion = a.scientific_question ?? state.scientificQuestion;
      state.agentId ??= a.agent_id;
      state.projectId ??= a.project_id;
      state.parentTaskId ??= a.parent_task_id;
    }
    if (TASK_STATUS_KINDS.has(a.artifact_kind) && a.status && isTaskStatus(a.status)) state.status = a.status;
    if ((a.artifact_kind === 'task_progress' || a.artifact_kind === 'task_finish') && a.summary) state.summary = a.summary;
    if (a.artifact_kind === 'task_progress' || a.artifact_kind === 'task_finish') {
      // Blockers are the latest checkpoint's: an empty list clears them.
      if (a.blockers) state.blockers = [...a.blockers];
      if (a.hypothesis) state.hypothesis = a.hypothesis;
    }
    state.worked.push(...(a.what_worked ?? []));
    state.failed.push(...(a.what_failed ?? []));
    state.validation.push(...(a.validation ?? []));
    state.uncertainty.push(...(a.uncertainty ?? []));
    if (a.artifact_kind === 'task_finish' || a.artifact_kind === 'task_progress') state.followups.push(...(a.followups ?? []));
    if (a.artifact_kind === 'run_start') runs.set(a.artifact_id, { runId: a.artifact_id, start: a, status: a.status ?? 'running' });
    if (a.artifact_kind === 'run_finish' && a.reply_to_artifact_id) {
      const run = runs.get(a.reply_to_artifact_id);
      if (run) {
        run.finish = a;
        run.status = a.status ?? 'succeeded';
      }
    }
    if (a.artifact_kind === 'evidence') state.evidence.push(a);
    if (a.artifact_kind === 'decision') state.decisions.push(a);
  }
  state.runs = [...runs.values()];
  return state;
}

function isTaskStatus(status: string): status is TaskStatus {
  return status === 'active' || status === 'blocked' || status === 'done' || status === 'failed' || status === 'abandoned';
}
