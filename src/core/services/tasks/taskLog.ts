/**
 * The JSONL log of one task: read every line (a malformed one is reported with its line number
 * and kept: lines are never rewritten, only a torn last line is moved aside), and append
 * artifacts durably under the store lock.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFully, fsyncDirectory } from '../../base/atomicWrite';
import { mkdirNoFollow, NO_FOLLOW, refuseLinks } from '../../base/storeLinks';
import type { StorePaths } from '../../store/storePaths';
import { crashPoint } from '../../base/crashPoints';
import { describeSchemaIssue } from '../../base/schemaIssue';
import { artifactSchema, type TaskArtifact } from './artifactSchema';
import { listTaskIds, taskLogFile, tasksDir } from './taskFiles';
import { readStoreFile, openStoreFile } from '../../base/readText';

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
    text = readStoreFile(file, 'utf8');
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
 * Appends artifacts of one task as JSON lines, fsynced. The caller holds the store lock. A last
 * line without its newline is dealt with first (setAsideTornTail), so the new artifacts start a
 * line of their own and are never glued onto a torn one.
 */
export function appendArtifacts(paths: StorePaths, taskId: string, artifacts: readonly TaskArtifact[]): void {
  if (artifacts.length === 0) return;
  const file = taskLogFile(paths, taskId);
  refuseLinks(file);
  mkdirNoFollow(tasksDir(paths));
  const created = !fs.existsSync(file);
  // eslint-disable-next-line no-restricted-properties -- an append, checked above and opened with NO_FOLLOW
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NO_FOLLOW, 0o644);
  try {
    const prefix = setAsideTornTail(fd, file);
    const body = prefix + artifacts.map((a) => JSON.stringify(artifactSchema.parse(a))).join('\n') + '\n';
    writeFully(fd, Buffer.from(body, 'utf8'), file);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (created) fsyncDirectory(path.dirname(file));
  crashPoint(`appended ${path.basename(file)}`);
}

function lastByte(file: string, size: number): number {
  const last = Buffer.alloc(1);
  const fd = openStoreFile(file);
  try {
    fs.readSync(fd, last, 0, 1, size - 1);
  } finally {
    fs.closeSync(fd);
  }
  return last[0];
}

/** Where the torn lines of a task log are set aside: `<task-id>.jsonl.torn`, beside it. */
export function tornLinesFile(file: string): string {
  return `${file}.torn`;
}

/**
 * The log's last line when it has no newline: an append cut short (a full disk, a file-size
 * limit, a kill). When it is not a whole JSON value it is torn: its bytes are appended to the
 * `.torn` file beside the log (fsynced: nothing is lost) and then cut off the log, which reads
 * clean again. A whole value that only lacks its newline (a hand edit) stays, and the append
 * starts with the newline it needs. Returns that prefix. `fd` is the log opened for appending.
 */
function setAsideTornTail(fd: number, file: string): string {
  const size = fs.fstatSync(fd).size;
  if (size === 0 || lastByte(file, size) === 0x0a) return ''; // The usual case: one byte read.
  const text = readStoreFile(file);
  const start = text.lastIndexOf(0x0a) + 1;
  const tail = text.subarray(start);
  try {
    JSON.parse(tail.toString('utf8'));
    return '\n';
  } catch {
    // Torn: set aside below.
  }
  const aside = tornLinesFile(file);
  refuseLinks(aside); // A committed `.torn` link would otherwise get the torn line written where it points.
  const created = !fs.existsSync(aside);
  // eslint-disable-next-line no-restricted-properties -- an append, checked above and opened with NO_FOLLOW
  const afd = fs.openSync(aside, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NO_FOLLOW, 0o644);
  try {
    writeFully(afd, Buffer.concat([tail, Buffer.from('\n')]), aside);
    fs.fsyncSync(afd);
  } finally {
    fs.closeSync(afd);
  }
  if (created) fsyncDirectory(path.dirname(aside));
  fs.ftruncateSync(fd, start);
  fs.fsyncSync(fd);
  return '';
}
