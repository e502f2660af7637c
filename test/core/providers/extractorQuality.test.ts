import * as assert from 'node:assert/strict';
import {
  checkJudgments,
  evaluateExtractor,
  formatEvaluation,
  formatUnjudged,
  jaccard,
  loadLabelledSet,
  matchItems,
  scoreConversation,
  scoreResults,
  type ConversationResult,
  type Evaluation,
  type ItemVerdict,
  type LabelledConversation,
} from '../../../bench/extractorEval';

/**
 * Quality floors of the offline rules extractor on the hand-labelled set
 * (test/fixtures/extractor, `npm run eval:extractor`). An item is correct when it matches a label
 * or a person judged its exact text keep; an item nobody judged counts wrong, so a rule that takes
 * new items fails these floors until someone who does not change the rules judges them
 * (`--judge`). Each floor is what the extractor reached when it was set, rounded down to the
 * percent: raise it when the extractor does better, never lower it.
 *
 * First set (labelled before `worthKeeping` was recorded): precision 94 % (30 of 32), recall 46 %.
 * Everything not held out (69 conversations): precision 75 % (33 of 44), yield 29 % (13 of 45
 * worth keeping). The held-out batch is reported by `npm run bench`, never floored here: a floor on
 * it would invite tuning on it.
 */
const FIRST_SET = { precision: 0.93, recall: 0.45 };
const TUNED = { precision: 0.75, yield: 0.28 };
/**
 * Items still taken from conversations with nothing to keep that were held out in round 1 (a
 * pasted crash log, a generic answer): what the rules took when those were first tuned on. The
 * list may only shrink.
 */
const KNOWN_NOISE: Readonly<Record<string, number>> = {
  'specstory-polychrome-kernel-panic-log': 1,
  'specstory-polychrome-ping-docker-macos': 1,
};

describe('rules extractor quality (labelled set)', () => {
  let evaluation: Evaluation;
  before(async () => {
    evaluation = await evaluateExtractor();
  });

  it('covers at least 15 real conversations from four tools', () => {
    const set = loadLabelledSet();
    assert.ok(set.length >= 15, `${set.length} conversations`);
    for (const tool of ['claude-code', 'codex', 'aider', 'specstory'])
      assert.ok(
        set.some((c) => c.tool === tool),
        tool,
      );
    for (const conversation of set) {
      assert.ok(conversation.source.startsWith('https://'), `${conversation.name}: source URL`);
      assert.ok(conversation.license, `${conversation.name}: licence`);
      for (const item of conversation.items) assert.ok(item.reason.trim(), `${conversation.name}: a reason for "${item.text}"`);
    }
  });

  it(`keeps precision ≥ ${FIRST_SET.precision} and recall ≥ ${FIRST_SET.recall} on the first set`, () => {
    const measured = scoreResults(evaluation.results.filter((r) => r.set.worthKeeping === undefined));
    const report = formatEvaluation(evaluation);
    assert.ok(measured.conversations >= 15, report);
    assert.ok(measured.precision >= FIRST_SET.precision, report);
    assert.ok(measured.recall >= FIRST_SET.recall, report);
  });

  it(`keeps precision ≥ ${TUNED.precision} and yield ≥ ${TUNED.yield} on everything not held out`, () => {
    const tuned = evaluation.tuned;
    const report = formatEvaluation(evaluation);
    assert.ok(tuned.conversations >= 40, report);
    assert.ok(tuned.precision >= TUNED.precision, report);
    assert.ok(tuned.yield >= TUNED.yield, report);
  });

  it('takes nothing from the conversations it may be tuned on where a careful reader keeps nothing', () => {
    for (const result of evaluation.results.filter((r) => !r.set.heldOut && r.set.items.length === 0)) {
      const allowed = KNOWN_NOISE[result.set.name] ?? 0;
      assert.ok(result.extracted.length <= allowed, `${result.set.name}: ${JSON.stringify(result.extracted)}`);
    }
  });

  it('labels whether each newer conversation is worth keeping, consistently with its items', () => {
    const labelled = loadLabelledSet().filter((c) => c.worthKeeping !== undefined);
    assert.ok(labelled.length >= 40, `${labelled.length} conversations`);
    assert.ok(labelled.filter((c) => c.heldOut).length >= 15, 'a held-out batch');
    for (const conversation of labelled) {
      assert.equal(conversation.worthKeeping, conversation.items.length > 0, conversation.name);
      for (const item of conversation.items)
        if (/^did not work/i.test(item.text))
          assert.equal(item.category, 'facts', `${conversation.name}: a failed attempt is kept as a fact`);
    }
  });
});

describe('extractor evaluation scores', () => {
  function result(worthKeeping: boolean, labels: number, extracted: number, matched: number): ConversationResult {
    const items = Array.from({ length: labels }, (_, i) => ({ category: 'facts' as const, text: `label ${i}`, reason: 'r' }));
    return {
      set: { name: 'c', tool: 't', conversation: 'c.md', source: 'https://x', license: 'MIT', worthKeeping, items },
      extracted: Array.from({ length: extracted }, (_, i) => ({ category: 'facts' as const, text: `item ${i}` })),
      matchedItems: new Set(Array.from({ length: matched }, (_, i) => i)),
      matchedLabels: new Set(Array.from({ length: matched }, (_, i) => i)),
      verdicts: Array.from({ length: extracted }, (_, i): ItemVerdict => (i < matched ? 'label' : 'unjudged')),
    };
  }

  it('counts as yield the conversations worth keeping that gave at least one matched item', () => {
    const s = scoreResults([result(true, 2, 3, 1), result(true, 1, 2, 0), result(true, 1, 0, 0), result(false, 0, 0, 0)]);
    assert.equal(s.worthKeeping, 3);
    assert.equal(s.yielded, 1);
    assert.equal(s.yield, 1 / 3);
  });

  it('counts as noise every item taken from a conversation with nothing worth keeping', () => {
    const s = scoreResults([result(false, 0, 2, 0), result(false, 0, 1, 0), result(true, 1, 4, 1)]);
    assert.equal(s.nothingToKeep, 2);
    assert.equal(s.noise, 3);
    assert.equal(s.precision, 1 / 7);
  });
});

describe('extractor evaluation judgments', () => {
  const label = { category: 'facts' as const, text: 'the favicon path is root-relative', reason: 'r' };
  function conversation(judged: LabelledConversation['judged'], worthKeeping = true): LabelledConversation {
    return { name: 'c', tool: 't', conversation: 'c.md', source: 'https://x', license: 'MIT', worthKeeping, items: [label], judged };
  }
  const keep = {
    category: 'facts' as const,
    text: 'In production /favicon.ico points to the domain root',
    verdict: 'keep' as const,
    reason: 'r',
  };

  it('counts an item judged keep as correct and as yield, but not as a label found', () => {
    const r = scoreConversation(conversation([keep]), [{ category: keep.category, text: keep.text }]);
    assert.deepEqual(r.verdicts, ['keep']);
    const s = scoreResults([r]);
    assert.deepEqual([s.correct, s.matched, s.judgedKeep, s.unjudged, s.yielded], [1, 0, 1, 0, 1]);
    assert.equal(s.precision, 1);
    assert.equal(s.recall, 0);
  });

  it('counts an unjudged item that matches no label as wrong, and reports it', () => {
    const s = scoreResults([scoreConversation(conversation([keep]), [{ category: 'facts', text: 'an item nobody judged' }])]);
    assert.deepEqual([s.correct, s.unjudged, s.yielded, s.precision], [0, 1, 0, 0]);
  });

  it('applies a verdict to the exact category and text only', () => {
    const r = scoreConversation(conversation([keep]), [
      { category: 'decisions', text: keep.text },
      { category: 'facts', text: `${keep.text}.` },
    ]);
    assert.deepEqual(r.verdicts, ['unjudged', 'unjudged']);
  });

  it('counts an item judged wrong as wrong even when its words match a label, and leaves the label to another item', () => {
    const wrong = {
      category: 'facts' as const,
      text: 'the favicon path is root-relative?',
      verdict: 'wrong' as const,
      reason: 'a question',
    };
    const r = scoreConversation(conversation([wrong]), [
      { category: 'facts', text: wrong.text },
      { category: 'facts', text: 'so the favicon path is root-relative' },
    ]);
    assert.deepEqual(r.verdicts, ['wrong', 'label']);
    assert.deepEqual([...r.matchedLabels], [0]);
  });

  it('refuses a judgment without a verdict or a reason, as --judge prints it', () => {
    const evaluation = { results: [scoreConversation(conversation([]), [{ category: 'facts', text: 'new item' }])] } as Evaluation;
    const pending = JSON.parse(formatUnjudged(evaluation)) as Record<string, NonNullable<LabelledConversation['judged']>>;
    assert.deepEqual(Object.keys(pending), ['c']);
    assert.equal(pending.c[0].text, 'new item');
    assert.throws(() => checkJudgments(conversation(pending.c)), /neither keep nor wrong/);
    assert.throws(() => checkJudgments(conversation([{ ...keep, reason: ' ' }])), /no reason/);
    assert.doesNotThrow(() => checkJudgments(conversation([keep])));
  });
});

describe('extractor evaluation matching', () => {
  it('scores word-set overlap, ignoring case and punctuation', () => {
    assert.equal(jaccard('Use SQLite, for the index.', 'use sqlite for the INDEX'), 1);
    assert.equal(jaccard('a b', 'c d'), 0);
    assert.equal(jaccard('a b c', 'a b d'), 0.5);
  });

  it('pairs items and labels one to one, same category only, best first', () => {
    const extracted = [
      { category: 'facts' as const, text: 'the API is rate limited' },
      { category: 'facts' as const, text: 'the API is rate limited per key' },
      { category: 'decisions' as const, text: 'the API is rate limited' },
    ];
    const labels = [{ category: 'facts' as const, text: 'the API is rate limited per key', reason: 'r' }];
    const matched = matchItems(extracted, labels);
    assert.deepEqual([...matched.items], [1]);
    assert.deepEqual([...matched.labels], [0]);
  });
});
