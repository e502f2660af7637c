/**
 * Which topics are active for a message: tiers 1 and 2 (topicTiers), then tier 3 for the
 * candidates the bypass table sends to the gate. Without a gate (no model configured, or inside a
 * hook, which must not wait on the network) those candidates are dropped and each decision says
 * so: only the table's "no gate" rows activate. Topics named explicitly (manual activation) and
 * topics a watcher activated on the agent's previous reply are added as they are. Every decision
 * goes to the gate log.
 */
import type { StorePaths } from '../../store/storePaths';
import { appendGateLog, type GateLogEntry, type GateResult } from './gateLog';
import { messageHash, type GateMemo, type TopicGate } from './topicGate';
import { matchTopics, type PreparedTopics, type Tier1Match, type TopicCandidate, type TopicRoute } from './topicTiers';
import { PRIORITY_RANK, type Topic } from './topicTypes';

/** Gate calls per message at most: the rest of the gated candidates (lowest scores) are dropped. */
export const MAX_GATES_PER_MESSAGE = 8;

/** How an active topic got there. */
export type ActivationTier = 1 | 2 | 3 | 'output' | 'named';

/** One topic's decision, for "why this context". */
export interface TopicDecision {
  topic: string;
  file: string;
  priority: Topic['priority'];
  activation: Topic['activation'];
  tier1?: Tier1Match;
  score: number;
  route: TopicRoute | 'named' | 'output';
  gate: GateResult;
  cached?: boolean;
  active: boolean;
  /** The tier that activated it, when active. */
  tier?: ActivationTier;
  reason: string;
}

/** A topic the watcher fired on the agent's previous reply, waiting for the next message. */
export interface PendingActivation {
  topic: string;
  reason: string;
}

export interface ActivationRequest {
  message: string;
  /** Workspace-relative paths the message (or the tool calls) name, for glob triggers. */
  files?: readonly string[];
  /** Topics asked for by name (any activation mode). */
  named?: readonly string[];
  /** Topics activated by an output watcher on the previous reply. */
  pending?: readonly PendingActivation[];
}

export interface ActivationOptions {
  /** Tier 3; without it gated candidates follow the no-gate rows. */
  gate?: TopicGate;
  memo?: GateMemo;
  /** Why there is no gate, for the decisions (default: no model configured). */
  noGateReason?: string;
  /** Where the decision is made, for the log. */
  via: string;
  /** Write decisions to the gate log (default true). */
  log?: boolean;
  now?: () => Date;
}

export interface ActivationResult {
  /** Active topics, highest priority first, then by name. */
  active: Array<{ topic: Topic; tier: ActivationTier; reason: string }>;
  decisions: TopicDecision[];
  /** The gate used, or why there was none. */
  gate: { available: boolean; label?: string; note?: string };
  /** Patterns disabled because one run took too long (see safeRegex). */
  slowPatterns: Array<{ topic: string; pattern: string; ms: number }>;
}

function tierOf(candidate: TopicCandidate): ActivationTier {
  return candidate.tier1 ? 1 : 2;
}

function decision(
  candidate: TopicCandidate,
  gate: GateResult,
  active: boolean,
  reason: string,
  extra: Partial<TopicDecision> = {},
): TopicDecision {
  const { topic } = candidate;
  return {
    topic: topic.name,
    file: topic.file,
    priority: topic.priority,
    activation: topic.activation,
    tier1: candidate.tier1,
    score: candidate.score,
    route: candidate.route,
    gate,
    active,
    ...(active ? { tier: extra.tier ?? tierOf(candidate) } : {}),
    reason,
    ...extra,
  };
}

/** Ranks gated candidates: a tier-1 match first, then the higher score, then the name. */
function gateOrder(a: TopicCandidate, b: TopicCandidate): number {
  return Number(!!b.tier1) - Number(!!a.tier1) || b.score - a.score || (a.topic.name < b.topic.name ? -1 : 1);
}

/**
 * Decides every candidate. `ask` answers gated ones (undefined: no gate). Shared by the gated
 * (async) and hook (sync) paths, so both route by the same rules.
 */
function decideAll(
  candidates: readonly TopicCandidate[],
  answers: Map<string, { yes: boolean; cached: boolean } | { failed: string }> | undefined,
  noGateReason: string,
): TopicDecision[] {
  const gated = new Set(
    candidates
      .filter((c) => c.route === 'gate')
      .sort(gateOrder)
      .slice(0, MAX_GATES_PER_MESSAGE)
      .map((c) => c.topic.name),
  );
  const decisions: TopicDecision[] = [];
  for (const c of candidates) {
    if (c.route === 'activate') decisions.push(decision(c, 'bypass', true, c.reason));
    else if (c.route === 'drop') decisions.push(decision(c, 'drop', false, c.reason));
    else if (c.route === 'manual') decisions.push(decision(c, 'manual', false, c.reason));
    else if (!answers) decisions.push(decision(c, 'no-model', false, `${c.reason}; dropped: ${noGateReason}`));
    else if (!gated.has(c.topic.name))
      decisions.push(decision(c, 'drop', false, `${c.reason}; dropped: more than ${MAX_GATES_PER_MESSAGE} gated candidates`));
    else {
      const answer = answers.get(c.topic.name);
      if (!answer || 'failed' in answer)
        decisions.push(decision(c, 'failed', false, `${c.reason}; dropped: the gate failed${answer ? ` (${answer.failed})` : ''}`));
      else
        decisions.push(
          decision(
            c,
            answer.yes ? 'yes' : 'no',
            answer.yes,
            `${c.reason}; the gate said ${answer.yes ? 'YES' : 'NO'}${answer.cached ? ' (cached)' : ''}`,
            { cached: answer.cached, tier: 3 },
          ),
        );
    }
  }
  return decisions;
}

/** Adds named and pending topics, logs, and assembles the result. */
function finish(
  paths: StorePaths,
  prepared: PreparedTopics,
  request: ActivationRequest,
  decisions: TopicDecision[],
  options: ActivationOptions,
  gate: ActivationResult['gate'],
): ActivationResult {
  const byName = new Map(prepared.topics.map((t) => [t.name, t]));
  const activeNames = new Map<string, { tier: ActivationTier; reason: string }>();
  for (const d of decisions) if (d.active) activeNames.set(d.topic, { tier: d.tier!, reason: d.reason });
  const extra: TopicDecision[] = [];
  const add = (name: string, tier: 'named' | 'output', reason: string) => {
    const topic = byName.get(name);
    if (!topic || activeNames.has(name)) return;
    activeNames.set(name, { tier, reason });
    extra.push({
      topic: name,
      file: topic.file,
      priority: topic.priority,
      activation: topic.activation,
      score: 0,
      route: tier,
      gate: 'bypass',
      active: true,
      tier,
      reason,
    });
  };
  for (const name of request.named ?? []) add(name, 'named', 'asked for by name');
  for (const p of request.pending ?? []) add(p.topic, 'output', `output watcher on the previous reply: ${p.reason}`);
  const all = [...decisions, ...extra];
  if (options.log !== false) {
    const at = (options.now?.() ?? new Date()).toISOString();
    const hash = messageHash(request.message);
    appendGateLog(
      paths,
      all.map((d): GateLogEntry => ({
        at,
        messageHash: hash,
        topic: d.topic,
        tier1: d.tier1?.kind ?? null,
        tier2: d.score,
        gate: d.gate,
        ...(d.cached ? { cached: true } : {}),
        active: d.active,
        via: d.route === 'output' ? 'output' : options.via,
      })),
    );
  }
  const active = [...activeNames]
    .map(([name, how]) => ({ topic: byName.get(name)!, ...how }))
    .sort((a, b) => PRIORITY_RANK[b.topic.priority] - PRIORITY_RANK[a.topic.priority] || (a.topic.name < b.topic.name ? -1 : 1));
  const slowPatterns = prepared.topics.flatMap((t) =>
    t.triggers.flatMap((tr) =>
      tr.kind === 'pattern' && tr.pattern.slowMs !== undefined
        ? [{ topic: t.name, pattern: tr.pattern.source, ms: Math.round(tr.pattern.slowMs) }]
        : [],
    ),
  );
  return { active, decisions: all, gate, slowPatterns };
}

const NO_MODEL = 'no model is configured for the gate (only the no-gate rows of the bypass table activate)';

/** Activation without tier 3 (the hook: it must not wait on the network). */
export function activateTopicsWithoutGate(
  paths: StorePaths,
  prepared: PreparedTopics,
  request: ActivationRequest,
  options: ActivationOptions,
): ActivationResult {
  const reason = options.noGateReason ?? NO_MODEL;
  const candidates = matchTopics(prepared, { text: request.message, files: request.files, scope: 'input' });
  return finish(paths, prepared, request, decideAll(candidates, undefined, reason), options, { available: false, note: reason });
}

/** Activation with tier 3 when `options.gate` is given (memoized answers first). */
export async function activateTopics(
  paths: StorePaths,
  prepared: PreparedTopics,
  request: ActivationRequest,
  options: ActivationOptions,
): Promise<ActivationResult> {
  const gate = options.gate;
  if (!gate) return activateTopicsWithoutGate(paths, prepared, request, options);
  const all = matchTopics(prepared, { text: request.message, files: request.files, scope: 'input' });
  const candidates = all
    .filter((c) => c.route === 'gate')
    .sort(gateOrder)
    .slice(0, MAX_GATES_PER_MESSAGE);
  const hash = messageHash(request.message);
  const answers = new Map<string, { yes: boolean; cached: boolean } | { failed: string }>();
  await Promise.all(
    candidates.map(async (c) => {
      const cached = options.memo?.get(hash, c.topic);
      if (cached !== undefined) return void answers.set(c.topic.name, { yes: cached, cached: true });
      try {
        const yes = await gate.ask(request.message, c.topic);
        options.memo?.set(hash, c.topic, yes);
        answers.set(c.topic.name, { yes, cached: false });
      } catch (error) {
        answers.set(c.topic.name, { failed: (error as Error).message.split('\n')[0].slice(0, 200) });
      }
    }),
  );
  try {
    options.memo?.save();
  } catch {
    // An unsaved memo only means asking again next time.
  }
  return finish(paths, prepared, request, decideAll(all, answers, NO_MODEL), options, { available: true, label: gate.label });
}
