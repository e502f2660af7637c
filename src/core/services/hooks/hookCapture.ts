/**
 * What `lore hook` does with a session: when the tool may delete or compact its transcript
 * (SessionEnd, PreCompact; VS Code's Stop, which ends its agent session) a copy goes into the
 * store's inbox; otherwise (Claude Code's Stop, after every reply) a queued entry names the
 * transcript where the tool keeps it, and the next harvest reads it from there.
 *
 * Copies are named `<tool>-<session>-<sha12>.<ext>` by their content, so a copy never replaces
 * bytes: a later copy of the same session is written beside the earlier one, and the earlier
 * one is removed only when the later one starts with every byte of it (the session grew). A
 * copy whose content is already in the inbox is not written again. The ledger therefore sees
 * each distinct content once, by its hash, like any other conversation.
 */
import * as fs from 'node:fs';
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { MAX_RAW_SOURCE_BYTES } from '../../model/constants';
import { vscodeUserDataDirs, claudeHome } from '../discovery/toolLocations';
import { comparablePath, type Host } from '../discovery/host';
import { isConversationFileName } from '../../model/conversation';
import { isUtf8 } from 'node:buffer';
import { hasPrivateMarker, stripPrivateRaw } from '../../model/safety/privateSpans';
import { redactName } from '../../model/safety/redact';
import { writeFileAtomic } from '../../base/atomicWrite';
import { storePrivateMarkers } from '../../store/storeConfig';
import { isInside, type StorePaths } from '../../store/storePaths';
import { sha256Hash } from '../../base/lazyCrypto';
import { CAPTURE_EVENTS } from './hookEvents';
import { foreignTranscriptReason } from './hookScope';
import type { HookInput } from './hookInput';
import { queueDir } from '../../store/captureQueue';
import type { QueuedSession } from '../../model/queuedSession';
import { realPathOr } from '../../base/realPath';
import { readStoreFile } from '../../base/readText';

/** The tools whose hooks Lore understands (one input format, see hookInput.ts). */
export type HookTool = 'claude' | 'vscode';

export type HookAction = 'copy' | 'queue';

/** What a hook did, for the log and the tests. */
export interface CaptureResult {
  action: 'copied' | 'queued' | 'unchanged' | 'ignored';
  file?: string;
  /** Earlier copies of the session removed because the new copy holds all their bytes. */
  superseded: string[];
}

/** Why a hook's transcript was refused (logged; the hook still succeeds). */
export class HookRefusal extends Error {}

/** What an event means for a tool's transcript. Other events are ignored. */
export function hookAction(tool: HookTool, event: string): HookAction | undefined {
  if (event === 'SessionEnd' || event === 'PreCompact') return 'copy';
  if (event === 'Stop') return tool === 'vscode' ? 'copy' : 'queue';
  return undefined;
}

/**
 * Where each tool keeps the transcripts its hooks name: Claude Code's projects folder, and VS
 * Code's user data folders. A transcript anywhere else is refused, so a forged hook input cannot
 * make Lore copy an arbitrary file into the store.
 */
function transcriptRoots(host: Host): Array<{ tool: HookTool; root: string }> {
  return [
    { tool: 'claude', root: path.join(claudeHome(host), 'projects') },
    ...vscodeUserDataDirs(host).map(({ dir }) => ({ tool: 'vscode' as const, root: dir })),
  ];
}

/** A transcript the hook may read: its real path, its tool, and an open descriptor on it. */
interface CheckedTranscript {
  file: string;
  tool: HookTool;
  fd: number;
  size: number;
}

/**
 * Checks the transcript a hook names and opens it: an absolute path to a regular file (no
 * symlink out of place, no folder, no device), with a conversation file name, in one of the
 * tools' own folders, not in the store, and at most MAX_RAW_SOURCE_BYTES.
 */
function openTranscript(paths: StorePaths, host: Host, transcript: string | undefined): CheckedTranscript {
  if (!transcript) throw new HookRefusal('no transcript_path');
  if (!path.isAbsolute(transcript)) throw new HookRefusal(`transcript_path is not absolute: ${transcript}`);
  let real: string;
  try {
    real = fs.realpathSync(transcript);
  } catch (error) {
    throw new HookRefusal(`transcript ${transcript}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const place = transcriptRoots(host).find(({ root }) =>
    isInside(comparablePath(host, realPathOr(root, root)), comparablePath(host, real)),
  );
  if (!place) throw new HookRefusal(`transcript ${transcript} is not in a folder where Claude Code or VS Code keeps transcripts`);
  if (isInside(realPathOr(paths.root, paths.root), real)) throw new HookRefusal(`transcript ${transcript} is inside the store`);
  if (!isConversationFileName(path.basename(real)))
    throw new HookRefusal(`transcript ${transcript} does not have a conversation file name`);
  // eslint-disable-next-line no-restricted-properties -- a real path checked above to lie outside the store, opened with O_NOFOLLOW
  const fd = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  const stat = fs.fstatSync(fd);
  const refuse = (why: string) => {
    fs.closeSync(fd);
    return new HookRefusal(`transcript ${transcript} ${why}`);
  };
  if (!stat.isFile()) throw refuse('is not a regular file');
  if (stat.size > MAX_RAW_SOURCE_BYTES) throw refuse(`is larger than ${MAX_RAW_SOURCE_BYTES} bytes (${stat.size})`);
  return { file: real, tool: place.tool, fd, size: stat.size };
}

/**
 * The part of a file name that names the session: the id's safe characters, and a hash of the
 * id when anything had to go (two ids must not meet in one name). A secret in the id is
 * redacted before the cut (the name reaches the inbox, archive and undo names, and a listing).
 */
export function sessionKey(tool: HookTool, sessionId: string): string {
  const safe = redactName(sessionId)
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .replace(/^[.-]+/, '')
    .slice(0, 80);
  const exact = safe === sessionId && safe.length > 0;
  return `${tool}-${exact ? safe : `${safe}${safe ? '-' : ''}${sha256Hash().update(sessionId).digest('hex').slice(0, 8)}`}`;
}

/** Handles one hook call for a store. Throws HookRefusal for input it will not act on. */
export function captureSession(paths: StorePaths, input: HookInput, host: Host, now = new Date()): CaptureResult {
  // Which tool sent it is known from where its transcript lies; an event no tool means harm by is ignored first.
  if (!CAPTURE_EVENTS.includes(input.event)) return { action: 'ignored', superseded: [] };
  const foreign = foreignTranscriptReason(paths, input.transcriptPath, host);
  if (foreign) throw new HookRefusal(foreign);
  const transcript = openTranscript(paths, host, input.transcriptPath);
  try {
    const key = sessionKey(transcript.tool, input.sessionId);
    const queued = path.join(queueDir(paths), `${key}.json`);
    if (hookAction(transcript.tool, input.event) === 'queue') {
      const entry: QueuedSession = {
        sessionId: input.sessionId,
        transcript: transcript.file,
        cwd: input.cwd,
        event: input.event,
        at: now.toISOString(),
      };
      writeFileAtomic(queued, JSON.stringify(entry, null, 2) + '\n');
      return { action: 'queued', file: queued, superseded: [] };
    }
    const result = copyToInbox(paths, key, transcript);
    // The copy holds everything the queued entry pointed at so far.
    removeNoFollow(queued, { force: true });
    return result;
  } finally {
    fs.closeSync(transcript.fd);
  }
}

/**
 * The last `maxBytes` of the transcript a hook names, after the same checks as a capture (in a
 * tool's transcript folder, not in the store, a regular file with a conversation file name).
 * For the output watchers, which only need the agent's latest reply.
 * @throws HookRefusal for a transcript it will not read.
 */
export function readTranscriptTail(paths: StorePaths, host: Host, transcriptPath: string | undefined, maxBytes: number): string {
  const transcript = openTranscript(paths, host, transcriptPath);
  try {
    const length = Math.min(maxBytes, transcript.size);
    const data = Buffer.alloc(length);
    const n = fs.readSync(transcript.fd, data, 0, length, transcript.size - length);
    return data.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(transcript.fd);
  }
}

function readFully(fd: number, size: number): Buffer {
  const data = Buffer.alloc(size);
  let offset = 0;
  while (offset < size) {
    const n = fs.readSync(fd, data, offset, size - offset, offset);
    if (n === 0) break; // Truncated meanwhile: keep what was there.
    offset += n;
  }
  return data.subarray(0, offset);
}

/**
 * The bytes a copy holds: the session's, with private spans removed record by record (the copy
 * is written into the store, so what is private never lands there; the importer reads it as
 * usual). Bytes that are not valid UTF-8 are copied as they are: the harvest never imports them.
 */
function withoutPrivate(paths: StorePaths, file: string, raw: Buffer): Buffer {
  if (!isUtf8(raw)) return raw;
  const text = raw.toString('utf8');
  const markers = storePrivateMarkers(paths.config);
  if (!hasPrivateMarker(text, markers)) return raw;
  return Buffer.from(stripPrivateRaw(text, file, markers), 'utf8');
}

function copyToInbox(paths: StorePaths, key: string, transcript: CheckedTranscript): CaptureResult {
  const data = withoutPrivate(paths, transcript.file, readFully(transcript.fd, transcript.size));
  const ext = path.extname(transcript.file).toLowerCase();
  const name = `${key}-${sha256Hash().update(data).digest('hex').slice(0, 12)}${ext}`;
  const target = path.join(paths.inbox, name);
  const sameSession = new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{12}${ext.replace('.', '\\.')}$`);
  let earlier: string[] = [];
  try {
    earlier = fs.readdirSync(paths.inbox).filter((n) => sameSession.test(n) && n !== name);
  } catch {
    // No inbox yet: the write creates it.
  }
  const unchanged = fs.existsSync(target);
  if (!unchanged) writeFileAtomic(target, data);
  // While a harvest holds the store it may be reading an earlier copy: leave it, a later hook tidies.
  const superseded = fs.existsSync(path.join(paths.root, '.lock')) ? [] : removeSuperseded(paths.inbox, earlier, data);
  return { action: unchanged ? 'unchanged' : 'copied', file: target, superseded };
}

/** Removes the earlier copies whose every byte starts the new copy (the session grew past them). */
function removeSuperseded(inbox: string, earlier: string[], data: Buffer): string[] {
  const superseded: string[] = [];
  for (const other of earlier) {
    const file = path.join(inbox, other);
    try {
      const bytes = readStoreFile(file);
      if (bytes.length < data.length && data.subarray(0, bytes.length).equals(bytes)) {
        removeNoFollow(file);
        superseded.push(file);
      }
    } catch {
      // Gone or unreadable: nothing to tidy.
    }
  }
  return superseded;
}
