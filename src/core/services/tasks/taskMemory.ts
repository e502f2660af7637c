/**
 * Task memory of one store as the surfaces use it (MCP tools, CLI, language server): writes
 * through recordArtifact, reads from the side tables refreshed from the logs first, so a read
 * always sees every artifact written before it, by this process or another.
 */
import type { StorePaths } from '../../store/storePaths';
import type { TaskArtifact } from './artifactSchema';
import { dream, type DreamPlan } from './dream';
import { acquireStoreLock } from '../../base/storeLock';
import { recordArtifact, writeTaskPage, type ArtifactInput, type RecordContext, type RecordResult } from './recordArtifact';
import { listTaskIds } from './taskFiles';
import { TaskIndex, type TaskIndexReport } from './taskIndex';
import { getArtifact, getTask, listTasks, type ArtifactRecord, type TaskListRow } from './taskRecords';
import { searchTasks, type TaskSearchReply, type TaskSearchRequest } from './taskSearch';
import type { TaskState } from './taskState';

/** The task memory of a store. */
export class TaskMemory {
  private index: TaskIndex | undefined;

  constructor(readonly paths: StorePaths) {}

  /** The side tables, opened on first use and refreshed from the logs. */
  fresh(): TaskIndex {
    this.index ??= TaskIndex.open(this.paths);
    this.index.refresh();
    return this.index;
  }

  record(input: ArtifactInput, context: RecordContext): Promise<RecordResult> {
    return recordArtifact(this.paths, input, context);
  }

  search(request: TaskSearchRequest): TaskSearchReply {
    return searchTasks(this.fresh(), request);
  }

  getArtifact(artifactId: string, showHeld = false): ArtifactRecord | undefined {
    return getArtifact(this.fresh(), artifactId, showHeld);
  }

  getTask(taskId: string, showHeld = false): TaskState | undefined {
    return getTask(this.fresh(), taskId, showHeld);
  }

  list(status?: string): TaskListRow[] {
    return listTasks(this.fresh(), status);
  }

  /** The events of a task in order (the Tasks view's timeline). */
  timeline(taskId: string): TaskArtifact[] {
    return this.getTask(taskId)?.artifacts ?? [];
  }

  /** Rebuilds the side tables from the logs and regenerates every task's page (under the store lock). */
  async reindex(): Promise<TaskIndexReport> {
    this.index ??= TaskIndex.open(this.paths);
    const lock = await acquireStoreLock(this.paths.root);
    try {
      for (const taskId of listTaskIds(this.paths)) writeTaskPage(this.paths, taskId);
    } finally {
      lock.release();
    }
    return this.index.rebuild();
  }

  dream(apply: boolean, context: RecordContext): Promise<DreamPlan> {
    return dream(this.paths, { apply, context, index: this.index });
  }

  close(): void {
    this.index?.close();
    this.index = undefined;
  }
}
