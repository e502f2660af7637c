/**
 * The JSONL log of one task: read every line (a malformed one is reported with its line number
 * and kept: the file is never rewritten), and append artifacts durably under the store lock.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFully, fsyncDirectory } from '../store/atomicWrite';
import { NO_FOLLOW, refuseLinks } from '../store/storeLinks';
import type { StorePaths } from '../store/storePaths';
import { crashPoint } from '../util/crashPoints';
import { describeSchemaIssue } from '../util/schemaIssue';
import { artifactSchema, type TaskArtifact } from './artifactSchema';
import { listTaskIds, taskLogFile, tasksDir } from './taskFiles';

/** A line of a task log that is not a valid artifact: reported, never removed. */
export interface MalformedLine {
  /** Store-relative file, e.g. `tasks/fix-refunds.jsonl`. */
  file: string;
  line: number;
  reason: string;
}

/** What a task log holds. */
export interface TaskLog {
  taskId: string;
  artifacts: TaskArtifact[];
  malformed: MalformedLine[];
  /** Size and mtime of the file as read (the index refreshes a task when they change). */
  size: number;
  mtimeMs: number;
}

/** Parses the text of a task log. Blank lines are ignored; anything else that fails is reported. */
export function parseTaskLog(taskId: string, text: string): Pick<TaskLog, 'artifacts' | 'malformed'> {
  const artifacts: TaskArtifact[] = [];
  const malformed: MalformedLine[] = [];
  const file = `tasks/${taskId}.jsonl`;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      malformed.push({ file, line: i + 1, reason: `not JSON (${(error as Error).message.split('\n')[0]})` });
      return;
    }
    const parsed = artifactSchema.safeParse(json);
    if (!parsed.success) {
      malformed.push({ file, line: i + 1, reason: describeSchemaIssue(parsed.error) });
      return;
    }
    if (parsed.data.task_id !== taskId) {
      malformed.push({ file, line: i + 1, reason: `task_id "${parsed.data.task_id}" does not match the file` });
      return;
    }
    artifacts.push(parsed.data);
  });
  return { artifacts, malformed };
}

/** Reads a task's log; a task without a file has no artifacts. */
export function readTaskLog(paths: StorePaths, taskId: string): TaskLog {
  const file = taskLogFile(paths, taskId);
  let text: string;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { taskId, artifacts: [], malformed: [], size: 0, mtimeMs: 0 };
    throw error;
  }
  return { taskId, ...parseTaskLog(taskId, text), size: stat.size, mtimeMs: stat.mtimeMs };
}

/** Every task log of the store. */
export function readAllTaskLogs(paths: StorePaths): TaskLog[] {
  return listTaskIds(paths).map((id) => readTaskLog(paths, id));
}

/**
 * Appends artifacts of one task as JSON lines, fsynced. The caller holds the store lock. A file
 * whose last line was torn (a crash mid-append) gets a newline first, so the torn line stays a
 * line of its own (reported as malformed) and the new artifacts stay readable.
 */
export function appendArtifacts(paths: StorePaths, taskId: string, artifacts: readonly TaskArtifact[]): void {
  if (artifacts.length === 0) return;
  const file = taskLogFile(paths, taskId);
  refuseLinks(file);
  fs.mkdirSync(tasksDir(paths), { recursive: true });
  const created = !fs.existsSync(file);
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NO_FOLLOW, 0o644);
  try {
    const size = fs.fstatSync(fd).size;
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      const rfd = fs.openSync(file, 'r');
      try {
        fs.readSync(rfd, last, 0, 1, size - 1);
      } finally {
        fs.closeSync(rfd);
      }
      if (last[0] !== 0x0a) prefix = '\n';
    }
    const body = prefix + artifacts.map((a) => JSON.stringify(artifactSchema.parse(a))).join('\n') + '\n';
    writeFully(fd, Buffer.from(body, 'utf8'), file);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (created) fsyncDirectory(path.dirname(file));
  crashPoint(`appended ${path.basename(file)}`);
}
