/**
 * `lore topics --stats`: the gate log summarized per topic, for tuning thresholds and patterns
 * (§5.5): how often the topic was a candidate, how often it became active, what the gate said,
 * and the mean tier-2 score of its candidacies.
 */
import type { GateLogEntry, GateResult } from './gateLog';

export interface TopicGateStats {
  topic: string;
  decisions: number;
  active: number;
  /** Decisions by gate result. */
  gates: Partial<Record<GateResult, number>>;
  /** Decisions whose tier 1 matched. */
  tier1: number;
  meanTier2: number;
  /** Answers that came from the gate cache. */
  cached: number;
  lastAt?: string;
}

/** Per-topic figures, sorted by topic name. */
export function summarizeGateLog(entries: readonly GateLogEntry[]): TopicGateStats[] {
  const byTopic = new Map<string, TopicGateStats & { scoreSum: number }>();
  for (const e of entries) {
    const s = byTopic.get(e.topic) ?? {
      topic: e.topic,
      decisions: 0,
      active: 0,
      gates: {},
      tier1: 0,
      meanTier2: 0,
      cached: 0,
      scoreSum: 0,
    };
    s.decisions++;
    if (e.active) s.active++;
    s.gates[e.gate] = (s.gates[e.gate] ?? 0) + 1;
    if (e.tier1) s.tier1++;
    if (e.cached) s.cached++;
    s.scoreSum += typeof e.tier2 === 'number' ? e.tier2 : 0;
    if (!s.lastAt || e.at > s.lastAt) s.lastAt = e.at;
    byTopic.set(e.topic, s);
  }
  return [...byTopic.values()]
    .sort((a, b) => (a.topic < b.topic ? -1 : 1))
    .map(({ scoreSum, ...s }) => ({ ...s, meanTier2: Math.round((scoreSum / s.decisions) * 1000) / 1000 }));
}
