/**
 * Output watchers' activations waiting for the next turn (§4.3): the Stop hook matches the
 * agent's reply and leaves the corrective topics here, one small file per session in
 * `<store>/.cache/topics-pending/`; the session's next UserPromptSubmit takes them (and removes
 * the file), so a correction is injected once.
 */
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { StorePaths } from '../../store/storePaths';
import { sha256Hash } from '../../base/lazyCrypto';
import type { PendingActivation } from './activateTopics';
import { readStoreFile } from '../../base/readText';

/** Topics kept per session at most. */
const MAX_PENDING = 20;

function pendingFile(paths: StorePaths, sessionId: string): string {
  return path.join(paths.cache, 'topics-pending', `${sha256Hash().update(sessionId).digest('hex').slice(0, 24)}.json`);
}

/** Leaves activations for the session's next turn (merged with any still waiting). */
export function addPendingTopics(paths: StorePaths, sessionId: string, activations: readonly PendingActivation[]): void {
  if (!sessionId || !activations.length) return;
  const file = pendingFile(paths, sessionId);
  const merged = [...peekPendingTopics(paths, sessionId)];
  for (const a of activations) if (!merged.some((m) => m.topic === a.topic)) merged.push(a);
  writeFileAtomic(file, JSON.stringify(merged.slice(0, MAX_PENDING)) + '\n');
}

/** The activations waiting for a session, without taking them. */
export function peekPendingTopics(paths: StorePaths, sessionId: string): PendingActivation[] {
  if (!sessionId) return [];
  try {
    const raw = JSON.parse(readStoreFile(pendingFile(paths, sessionId), 'utf8')) as unknown;
    if (!Array.isArray(raw)) return [];
    return raw
      .filter((e): e is PendingActivation => !!e && typeof e.topic === 'string' && typeof e.reason === 'string')
      .map((e) => ({ topic: e.topic.slice(0, 100), reason: e.reason.slice(0, 300) }))
      .slice(0, MAX_PENDING);
  } catch {
    return [];
  }
}

/** Takes the activations waiting for a session (the file is removed). */
export function takePendingTopics(paths: StorePaths, sessionId: string): PendingActivation[] {
  const pending = peekPendingTopics(paths, sessionId);
  if (pending.length) removeNoFollow(pendingFile(paths, sessionId), { force: true });
  return pending;
}
