/**
 * Tiers 1 and 2 of topic activation, and the route each candidate takes (§4, §5.4):
 * - tier 1: the topic's patterns, keywords and globs (globs against the files the message names);
 * - tier 2: the message's TF-IDF similarity to the topic, against the topic's threshold;
 * - the route: `activate` (auto topics, and gated ones the bypass table lets through), `gate`
 *   (tier 3 must say YES), `drop` (not confident enough) or `manual` (only activated by name).
 * A topic is a candidate when tier 1 matched or its score reached its threshold. Pure and
 * synchronous: no I/O, no clock, the same answer for the same topics and message.
 */
import { findKeyword } from './keywordMatch';
import { buildSimilarityIndex, similarityScores, type SimilarityIndex } from './topicSimilarity';
import type { Topic, TopicScope } from './topicTypes';

/** What tier 1 matched. */
export interface Tier1Match {
  kind: 'pattern' | 'keywords' | 'glob';
  /** The trigger as written (the pattern, the keyword list, the glob). */
  trigger: string;
  /** The text or file it matched (cut to 80 characters). */
  matched: string;
}

export type TopicRoute = 'activate' | 'gate' | 'drop' | 'manual';

/** A topic that tier 1 or tier 2 picked, with the route the bypass table gives it. */
export interface TopicCandidate {
  topic: Topic;
  tier1?: Tier1Match;
  /** Tier 2's score (0..1). */
  score: number;
  route: TopicRoute;
  /** Why, in words: which tier fired and which rule routed it. */
  reason: string;
}

/** Topics ready to match: the similarity index is built once per topic set. */
export interface PreparedTopics {
  topics: Topic[];
  index: SimilarityIndex;
}

export function prepareTopics(topics: readonly Topic[]): PreparedTopics {
  return { topics: [...topics], index: buildSimilarityIndex(topics) };
}

/** What a message is matched on. */
export interface MatchInput {
  /** The user's message (input) or the agent's reply (output). */
  text: string;
  /** Workspace-relative paths (forward slashes) the text or the tool calls name, for globs. */
  files?: readonly string[];
  /** Which triggers run: input-scoped ones on a message, output-scoped ones on a reply. */
  scope: Exclude<TopicScope, 'both'>;
}

function runsOn(scope: TopicScope, on: MatchInput['scope']): boolean {
  return scope === 'both' || scope === on;
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 80 ? flat : flat.slice(0, 79) + '…';
}

/** Tier 1: the first trigger of the topic that matches, in the file's order. */
export function tier1(topic: Topic, input: MatchInput): Tier1Match | undefined {
  for (const trigger of topic.triggers) {
    if (!runsOn(trigger.scope, input.scope)) continue;
    if (trigger.kind === 'pattern') {
      const found = trigger.pattern.match(input.text, input.scope === 'output' ? 'end' : 'start');
      if (found !== undefined) return { kind: 'pattern', trigger: trigger.pattern.source, matched: short(found) };
    } else if (trigger.kind === 'keywords') {
      const found = findKeyword(input.text, trigger.folded);
      if (found !== undefined) return { kind: 'keywords', trigger: trigger.keywords.join(', '), matched: short(found) };
    } else {
      const file = input.files?.find((f) => trigger.pattern.test(f));
      if (file !== undefined) return { kind: 'glob', trigger: trigger.glob, matched: short(file) };
    }
  }
  return undefined;
}

function describeTier1(match: Tier1Match): string {
  return `tier 1 ${match.kind} ${JSON.stringify(short(match.trigger))} matched ${JSON.stringify(match.matched)}`;
}

/** The bypass table of §5.4, for gated topics with a tier-1 match; tier 2 alone always needs the gate. */
function gatedRoute(topic: Topic, tier1Matched: boolean, score: number): { route: TopicRoute; rule: string } {
  if (!tier1Matched) return { route: 'gate', rule: 'gated, tier 2 only: the gate decides' };
  switch (topic.priority) {
    case 'critical':
      return { route: 'activate', rule: 'critical with a tier-1 match: no gate' };
    case 'high':
      return score >= 0.3
        ? { route: 'activate', rule: 'high, tier 2 ≥ 0.3: no gate' }
        : { route: 'gate', rule: 'high, tier 2 < 0.3: the gate decides' };
    case 'medium':
      return score >= 0.2
        ? { route: 'gate', rule: 'medium, tier 2 ≥ 0.2: the gate decides' }
        : { route: 'drop', rule: 'medium, tier 2 < 0.2: not confident enough' };
    case 'low':
      return score >= 0.3
        ? { route: 'gate', rule: 'low, tier 2 ≥ 0.3: the gate decides' }
        : { route: 'drop', rule: 'low, tier 2 < 0.3: not confident enough' };
  }
}

/**
 * Tiers 1 and 2 for every topic; returns the candidates in the topics' order. Output scope runs
 * tier 1 only (output watchers are patterns: a reply is not compared with topic prose).
 */
export function matchTopics(prepared: PreparedTopics, input: MatchInput): TopicCandidate[] {
  const scores = input.scope === 'input' ? similarityScores(prepared.index, input.text) : prepared.topics.map(() => 0);
  const candidates: TopicCandidate[] = [];
  prepared.topics.forEach((topic, i) => {
    const match = tier1(topic, input);
    const score = scores[i];
    // A topic whose triggers all watch replies is a corrective one: a message's prose does not pick it.
    const watchesInput = topic.triggers.length === 0 || topic.triggers.some((t) => t.scope !== 'output');
    const similar = input.scope === 'input' && watchesInput && score >= topic.similarityThreshold && score > 0;
    if (!match && !similar) return;
    const fired = match ? describeTier1(match) : `tier 2 score ${score} ≥ ${topic.similarityThreshold}`;
    const withScore = match && input.scope === 'input' ? `${fired}, tier 2 score ${score}` : fired;
    let route: TopicRoute;
    let rule: string;
    if (topic.activation === 'manual') ({ route, rule } = { route: 'manual', rule: 'manual: only activated by name' });
    else if (topic.activation === 'auto') ({ route, rule } = { route: 'activate', rule: 'auto: no gate' });
    else ({ route, rule } = gatedRoute(topic, match !== undefined, score));
    candidates.push({ topic, tier1: match, score, route, reason: `${withScore}; ${rule}` });
  });
  return candidates;
}
