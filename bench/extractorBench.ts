/**
 * The offline rules extractor's quality on the hand-labelled set of real conversations
 * (test/fixtures/extractor, the same evaluation as `npm run eval:extractor`): precision, yield
 * and noise, over all conversations and over the held-out ones the rules were not tuned on. An
 * item is correct when it matches a label or a person judged it keep; an unjudged one counts wrong.
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
        `${s.correct} of ${s.extracted} items correct: ${s.matched} match a label (recall ${s.matched} of ${s.labels} labels), ${s.judgedKeep} judged keep; ${s.unjudged} not judged, counted wrong; ${s.conversations} conversations`,
        `${s.suggested} of ${s.extracted} wait in review.md as suggestions for a person to confirm; ${s.extracted - s.suggested} (marked lines) go straight into the store`,
      ],
    }),
    makeResult({
      name: `extractor yield, ${group}`,
      unit: '%',
      samples: [100 * s.yield],
      target: { on: 'value', op: '>=', threshold: YIELD_TARGET },
      notes: [`${s.yielded} of ${s.worthKeeping} conversations worth keeping give at least one correct item`],
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
