/** `lore topics`: the store's topics, their triggers and problems, and the gate log's figures. */
import type { Topic, TopicTrigger } from '../../core/services/topics/topicTypes';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, printable, type Output } from '../cliSupport';
import { lazy } from '../../core/base/lazy';

const gateLogModule = lazy(() => require('../../core/services/topics/gateLog') as typeof import('../../core/services/topics/gateLog'));
const gateStatsModule = lazy(
  () => require('../../core/services/topics/gateStats') as typeof import('../../core/services/topics/gateStats'),
);
const loadTopicsModule = lazy(
  () => require('../../core/services/topics/loadTopics') as typeof import('../../core/services/topics/loadTopics'),
);

const OPTIONS = {
  stats: {
    type: 'boolean',
    help: 'adds, per topic, what the gate log (<store>/.logs/gates.jsonl) recorded: candidacies,\nactivations, gate answers and the mean tier-2 score.',
  },
} as const;

function describeTrigger(trigger: TopicTrigger): string {
  const what =
    trigger.kind === 'pattern'
      ? `pattern /${trigger.pattern.source}/`
      : trigger.kind === 'keywords'
        ? `keywords ${trigger.keywords.join(', ')}`
        : `glob ${trigger.glob}`;
  return `${what} (${trigger.scope})`;
}

function topicJson(topic: Topic) {
  return {
    name: topic.name,
    file: topic.file,
    description: topic.description,
    activation: topic.activation,
    priority: topic.priority,
    similarityThreshold: topic.similarityThreshold,
    maxContextBytes: topic.maxContextBytes,
    subscriptions: topic.subscriptions,
    triggers: topic.triggers.map((t) => ({
      kind: t.kind,
      scope: t.scope,
      ...(t.kind === 'pattern' ? { pattern: t.pattern.source } : t.kind === 'keywords' ? { keywords: t.keywords } : { glob: t.glob }),
    })),
  };
}

export const topicsCommand = command({
  name: 'topics',
  usage: ['[--root DIR] [--stats] [--json]'],
  description: `Lists the topics in <store>/topics/*.md: each with its triggers, activation and priority, and the
files that are not valid topics with the line and the reason (those are skipped; the others work).`,
  options: OPTIONS,
  epilogue: 'Exits 1 when a topic file is invalid.',
  run: topics,
});

async function topics(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  // Loaded when the command runs, not with every command of the CLI.
  const { readGateLog } = gateLogModule();
  const { summarizeGateLog } = gateStatsModule();
  const { loadTopics, topicsDir } = loadTopicsModule();
  const { topics, problems } = loadTopics(paths);
  const stats = values.stats ? summarizeGateLog(readGateLog(paths)) : undefined;
  if (values.json) {
    io.out(JSON.stringify({ topics: topics.map(topicJson), problems, ...(stats ? { stats } : {}) }, null, 2));
    return problems.length ? EXIT_FAILED : EXIT_OK;
  }
  if (!topics.length && !problems.length) io.out(`no topics in ${printable(topicsDir(paths))}`);
  for (const topic of topics) {
    io.out(`${topic.name}  ${topic.activation}, ${topic.priority}${topic.description ? ` — ${printable(topic.description)}` : ''}`);
    for (const trigger of topic.triggers) io.out(`  ${printable(describeTrigger(trigger))}`);
    if (topic.subscriptions.length) io.out(`  subscribes to ${topic.subscriptions.map((s) => printable(s)).join(', ')}`);
  }
  for (const problem of problems)
    io.err(`${printable(problem.file)}${problem.line ? `:${problem.line}` : ''}: ${printable(problem.message)} (skipped)`);
  if (stats) {
    if (!stats.length) io.out('gate log: no decisions yet');
    for (const s of stats) {
      const gates = Object.entries(s.gates)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      io.out(
        `${s.topic}: ${s.decisions} candidacies, ${s.active} active (${gates}); tier 1 ${s.tier1}, mean tier 2 ${s.meanTier2}${s.cached ? `, ${s.cached} cached` : ''}${s.lastAt ? `, last ${s.lastAt}` : ''}`,
      );
    }
  }
  return problems.length ? EXIT_FAILED : EXIT_OK;
}
