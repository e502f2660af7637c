/**
 * The offline rules extractor's quality on the hand-labelled set of real conversations
 * (test/fixtures/extractor, the same evaluation as `npm run eval:extractor`): precision, yield
 * and noise, over all conversations and over the held-out ones the rules were not tuned on.
 * Deterministic, so one sample each; the targets are the goals, reported, not enforced
 * (test/core/providers/extractorQuality.test.ts holds the floors a change must not break).
 */
import { evaluateExtractor, type Score } from './extractorEval';
import { makeResult, type BenchContext, type BenchResult } from './benchSupport';

/** At least this share of what the extractor keeps is correct, durable and useful. */
const PRECISION_TARGET = 60;
/** Most conversations worth keeping give at least one item. */
const YIELD_TARGET = 50;

function figures(group: string, s: Score): BenchResult[] {
  return [
    makeResult({
      name: `extractor precision, ${group}`,
      unit: '%',
      samples: [100 * s.precision],
      target: { on: 'value', op: '>=', threshold: PRECISION_TARGET },
      notes: [
        `${s.matched} of ${s.extracted} items match a label (recall ${s.matched} of ${s.labels} labels), ${s.conversations} conversations`,
      ],
    }),
    makeResult({
      name: `extractor yield, ${group}`,
      unit: '%',
      samples: [100 * s.yield],
      target: { on: 'value', op: '>=', threshold: YIELD_TARGET },
      notes: [`${s.yielded} of ${s.worthKeeping} conversations worth keeping give at least one matched item`],
    }),
    makeResult({
      name: `extractor noise, ${group}`,
      unit: 'items',
      samples: [s.noise],
      target: { on: 'value', op: '<=', threshold: 0 },
      notes: [`items taken from ${s.nothingToKeep} conversations with nothing worth keeping`],
    }),
  ];
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  ctx.log('extractor: evaluating the labelled set');
  const evaluation = await evaluateExtractor();
  return [...figures('all', evaluation.overall), ...figures('held out', evaluation.heldOut)];
}
