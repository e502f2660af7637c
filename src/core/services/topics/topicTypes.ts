/**
 * A topic (`.lore/topics/<name>.md`): instructions for the agent, injected into its context when
 * the topic's triggers fire on a message (input) or on the agent's own reply (output). The
 * frontmatter says when (triggers, similarity threshold, activation, priority) and what else to
 * inject (subscriptions); the body is the instructions.
 */
import type { GuardedPattern } from './safeRegex';

export const TOPIC_SCOPES = ['input', 'output', 'both'] as const;
export type TopicScope = (typeof TOPIC_SCOPES)[number];
export const TOPIC_ACTIVATIONS = ['auto', 'gated', 'manual'] as const;
export type TopicActivationMode = (typeof TOPIC_ACTIVATIONS)[number];
export const TOPIC_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type TopicPriority = (typeof TOPIC_PRIORITIES)[number];

/** Tier 2's default: a message this similar to a topic (TF-IDF cosine) is a candidate. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.15;
/** A topic's default share of the context (instructions and subscriptions together). */
export const DEFAULT_MAX_CONTEXT_KB = 4;

/** One compiled trigger. */
export type TopicTrigger =
  | { kind: 'pattern'; scope: TopicScope; pattern: GuardedPattern }
  | { kind: 'keywords'; scope: TopicScope; keywords: string[]; /** Lower-cased, whitespace folded (keywordMatch). */ folded: string[] }
  | { kind: 'glob'; scope: TopicScope; glob: string; pattern: RegExp };

/** A topic file, validated and compiled. */
export interface Topic {
  /** The file's name without `.md`. */
  name: string;
  /** Store-relative path, e.g. `topics/deploy.md`. */
  file: string;
  /** The frontmatter's description, else the body's first line of prose. */
  description: string;
  /** The instructions (the markdown body), normalized. */
  body: string;
  triggers: TopicTrigger[];
  similarityThreshold: number;
  /** Workspace-relative paths of files to inject with the instructions. */
  subscriptions: string[];
  activation: TopicActivationMode;
  priority: TopicPriority;
  maxContextBytes: number;
  /** Hash of the file's bytes: a gate answer cached for an older version does not apply. */
  hash: string;
}

/** Why a topic file was skipped. */
export interface TopicProblem {
  /** Store-relative path. */
  file: string;
  /** 1-based line in the file, when the problem has one. */
  line?: number;
  message: string;
}

/** The topics of a store: the valid ones in name order, and the problems of the others. */
export interface TopicSet {
  topics: Topic[];
  problems: TopicProblem[];
}

/** Priority as a number, highest first when sorted descending. */
export const PRIORITY_RANK: Record<TopicPriority, number> = { low: 0, medium: 1, high: 2, critical: 3 };
