/**
 * Where task artifacts live: one append-only JSONL file per task under `.lore/tasks/`
 * (`<task-id>.jsonl`, the source of truth) beside its markdown rendering (`<task-id>.md`,
 * regenerated). Project-wide digests live in the reserved task `_project`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveInStore, type StorePaths } from '../../store/storePaths';
import { TASK_ID_PATTERN } from './taskNames';

/** The pseudo task that holds project-scoped digests (project_brief and the libraries). */
export const PROJECT_SCOPE_TASK = '_project';

/** The folder of task files. */
export function tasksDir(paths: StorePaths): string {
  return path.join(paths.root, 'tasks');
}

/** True for a task id that may name a file (a slug) or the project scope. */
export function isTaskId(id: string): boolean {
  return id === PROJECT_SCOPE_TASK || TASK_ID_PATTERN.test(id);
}

function checked(id: string): string {
  if (!isTaskId(id)) throw new Error(`not a task id: ${JSON.stringify(id.slice(0, 100))} (lowercase letters, digits, '.', '_' and '-')`);
  return id;
}

/** The JSONL file of a task. */
export function taskLogFile(paths: StorePaths, taskId: string): string {
  return resolveInStore(paths, path.join('tasks', `${checked(taskId)}.jsonl`));
}

/** The markdown rendering of a task. */
export function taskPageFile(paths: StorePaths, taskId: string): string {
  return resolveInStore(paths, path.join('tasks', `${checked(taskId)}.md`));
}

/** The ids of every task with a JSONL file, sorted (the project scope included). */
export function listTaskIds(paths: StorePaths): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(tasksDir(paths));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => n.slice(0, -'.jsonl'.length))
    .filter(isTaskId)
    .sort();
}
