/**
 * The topics' part of a context: activate the store's topics for a message (with or without the
 * gate) and turn the active ones into the compiler's P2 input (instructions and subscribed files,
 * each topic with its max_context_kb). Topic files that do not parse and subscriptions that cannot
 * be read are reported, never thrown.
 */
import type { CompileTopic } from '../context/compileContext';
import { agentItemFilter } from '../../store/heldItems';
import type { StorePaths } from '../../store/storePaths';
import {
  activateTopics,
  activateTopicsWithoutGate,
  type ActivationOptions,
  type ActivationRequest,
  type ActivationResult,
} from './activateTopics';
import { loadTopics } from './loadTopics';
import { readSubscription, type SubscriptionMaker } from './subscriptions';
import { prepareTopics } from './topicTiers';
import type { Topic, TopicProblem } from './topicTypes';

export interface TopicContext {
  topics: CompileTopic[];
  activation: ActivationResult;
  problems: TopicProblem[];
  /** Subscriptions that could not be read (`topic: path: why`). */
  subscriptionProblems: string[];
}

function toCompileTopics(
  paths: StorePaths,
  active: ReadonlyArray<{ topic: Topic }>,
  problems: string[],
  made?: SubscriptionMaker,
): CompileTopic[] {
  const keep = agentItemFilter(paths);
  // Topics often subscribe to the same file (playbooks.md): read and filter it once.
  const reads = new Map<string, ReturnType<typeof readSubscription>>();
  const read = (sub: string) => reads.get(sub) ?? reads.set(sub, readSubscription(paths, sub, keep, made)).get(sub)!;
  return active.map(({ topic }) => ({
    name: topic.name,
    instructions: topic.body,
    maxBytes: topic.maxContextBytes,
    subscriptions: topic.subscriptions.flatMap((sub) => {
      const got = read(sub);
      if ('problem' in got) {
        problems.push(`${topic.name}: ${sub}: ${got.problem}`);
        return [];
      }
      return [got];
    }),
  }));
}

/** Topics for a context, tier 3 included when `options.gate` is set. */
export async function topicContext(paths: StorePaths, request: ActivationRequest, options: ActivationOptions): Promise<TopicContext> {
  const set = loadTopics(paths);
  const activation = await activateTopics(paths, prepareTopics(set.topics), request, options);
  const subscriptionProblems: string[] = [];
  return {
    topics: toCompileTopics(paths, activation.active, subscriptionProblems),
    activation,
    problems: set.problems,
    subscriptionProblems,
  };
}

/** Topics for a context without tier 3 (hooks); `made` may keep the subscriptions' texts (see SubscriptionMaker). */
export function topicContextWithoutGate(
  paths: StorePaths,
  request: ActivationRequest,
  options: ActivationOptions,
  made?: SubscriptionMaker,
): TopicContext {
  const set = loadTopics(paths);
  const activation = activateTopicsWithoutGate(paths, prepareTopics(set.topics), request, options);
  const subscriptionProblems: string[] = [];
  return {
    topics: toCompileTopics(paths, activation.active, subscriptionProblems, made),
    activation,
    problems: set.problems,
    subscriptionProblems,
  };
}
