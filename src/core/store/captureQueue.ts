/**
 * The store's capture queue (`queue/`): one small entry per agent session whose transcript stays
 * where the tool keeps it, left by `lore hook` and read by the next harvest. Harvest, apply and
 * forget read it; the hook writes it (services/hooks/hookCapture.ts).
 */
import * as fs from 'node:fs';
import { removeNoFollow } from '../base/storeLinks';
import * as path from 'node:path';
import type { QueuedSession } from '../model/queuedSession';
import type { StorePaths } from './storePaths';
import { lazy } from '../base/lazy';
import { readStoreFile } from '../base/readText';

const queuedSessionModule = lazy(() => require('../model/queuedSession') as typeof import('../model/queuedSession'));

/** Queued entries: one small file per session, replaced atomically, so hooks never race on one file. */
export function queueDir(paths: StorePaths): string {
  return path.join(paths.root, 'queue');
}

/** The sessions queued in a store, with their entry files; entries that are not valid are skipped. */
export function readQueuedSessions(paths: StorePaths): Array<QueuedSession & { file: string }> {
  let names: string[];
  try {
    names = fs
      .readdirSync(queueDir(paths))
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
  const { parseQueuedSession } = queuedSessionModule();
  const entries: Array<QueuedSession & { file: string }> = [];
  for (const name of names) {
    const file = path.join(queueDir(paths), name);
    let text: string;
    try {
      text = readStoreFile(file, 'utf8');
    } catch {
      continue;
    }
    const entry = parseQueuedSession(text);
    if (entry) entries.push({ ...entry, file });
  }
  return entries;
}

/**
 * The transcripts queued sessions name that still exist: extra sources of a harvest of the
 * store's inbox. They lie outside the inbox, so a harvest reads them and never reclaims them.
 */
export function queuedTranscripts(paths: StorePaths): string[] {
  return readQueuedSessions(paths)
    .map((entry) => entry.transcript)
    .filter((file) => {
      try {
        return fs.statSync(file).isFile();
      } catch {
        return false;
      }
    });
}

/** What settleQueue needs to know of a conversation an apply handled. */
interface SettledConversation {
  path: string;
  inInbox: boolean;
  class: string;
  status?: string;
  bytes: number;
  mtimeMs: number;
}

/**
 * After an apply: a queued session whose transcript the ledger now proves harvested, and which
 * has not changed since the harvest read it, leaves the queue (its Stop hook queues it again when
 * the session goes on). A session that grew meanwhile stays queued. Never throws: the harvest
 * succeeded, and a queued entry left behind only costs the next harvest a hash.
 */
export function settleQueue(paths: StorePaths, conversations: readonly SettledConversation[]): void {
  const proven = new Map(
    conversations
      .filter((c) => !c.inInbox && (c.status === 'harvested' || c.class === 'harvested' || c.class === 'duplicate'))
      .map((c) => [c.path, c]),
  );
  if (!proven.size) return;
  for (const entry of readQueuedSessions(paths)) {
    const read = proven.get(entry.transcript);
    if (!read) continue;
    try {
      const now = fs.statSync(entry.transcript);
      if (now.size === read.bytes && now.mtimeMs === read.mtimeMs) removeNoFollow(entry.file, { force: true });
    } catch {
      // The transcript is gone or the entry could not be removed: either way nothing is lost.
    }
  }
}
