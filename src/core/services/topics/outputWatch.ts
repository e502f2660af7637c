/**
 * Output watchers (§4.3): the topics' output-scoped triggers run on the agent's reply, and the
 * topics they activate are left for the session's next prompt (pendingTopics), so a correction
 * reaches the agent on its next turn. Only tier 1 runs on a reply, and no gate (this runs in the
 * Stop hook): auto topics activate; gated ones only by the no-gate rows (critical with a match).
 */
import type { StorePaths } from '../../store/storePaths';
import { appendGateLog } from './gateLog';
import { loadTopics } from './loadTopics';
import { addPendingTopics } from './pendingTopics';
import { messageHash } from './topicGate';
import { matchTopics, prepareTopics } from './topicTiers';
import type { PendingActivation } from './activateTopics';

/** Runs the output watchers on a reply; returns the topics left for the next turn. */
export function watchReply(paths: StorePaths, sessionId: string, reply: string, now = new Date()): PendingActivation[] {
  if (!reply.trim()) return [];
  const { topics } = loadTopics(paths);
  if (!topics.some((t) => t.triggers.some((tr) => tr.scope !== 'input'))) return [];
  const candidates = matchTopics(prepareTopics(topics), { text: reply, scope: 'output' });
  const activated = candidates.filter((c) => c.route === 'activate');
  const hash = messageHash(reply);
  appendGateLog(
    paths,
    candidates.map((c) => ({
      at: now.toISOString(),
      messageHash: hash,
      topic: c.topic.name,
      tier1: c.tier1?.kind ?? null,
      tier2: 0,
      gate: c.route === 'activate' ? 'bypass' : c.route === 'gate' ? 'no-model' : c.route,
      active: c.route === 'activate',
      via: 'output',
    })),
  );
  const pending = activated.map((c) => ({ topic: c.topic.name, reason: c.reason.split(';')[0] }));
  addPendingTopics(paths, sessionId, pending);
  return pending;
}
