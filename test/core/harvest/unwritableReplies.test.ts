/**
 * A model's reply that cannot be written (issue 33): before, a plan that failed on one reply
 * failed the whole run, and its cached reply failed every later run the same way. Now one
 * conversation whose items cannot be planned does not stop the others, and no reply that could
 * not be written stays cached, unless the store was at fault (a full disk). The failures are
 * made here by a step that throws, as the category file splice once did on a reply of 100,000
 * items and the day's journal on more than 120,000.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as planJournal from '../../../src/core/store/journal/planJournal';
import { PlanRelations } from '../../../src/core/services/harvest/planRelations';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { runHarvest } from '../../../src/core/services/harvest/runHarvest';
import type { ModelReply, ModelRequest, Provider } from '../../../src/core/services/providers/provider';
import { initStore } from '../../../src/core/store/initStore';
import { readLedger } from '../../../src/core/store/ledger';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { transcript } from '../../helpers/cli';
import { makeTempDir } from '../../helpers/paths';

/** A model that answers one fact per conversation, named after it, and counts its calls. */
function model(): Provider & { calls: string[] } {
  const provider = {
    name: 'openai',
    label: 'openai stub-model @ stub',
    offline: false,
    calls: [] as string[],
    async generate(request: ModelRequest): Promise<ModelReply> {
      const id = /Conversation: (\S+)/.exec(request.content)?.[1] ?? 'x';
      provider.calls.push(id);
      return { text: JSON.stringify({ facts: [{ statement: `learned from ${id}` }] }), model: 'stub-model' };
    },
  };
  return provider;
}

const memos = (paths: StorePaths) =>
  fs.existsSync(path.join(paths.cache, 'replies')) ? fs.readdirSync(path.join(paths.cache, 'replies')) : [];

describe('a model reply that cannot be written', function () {
  this.timeout(30_000);
  const now = new Date('2026-11-24T12:00:00Z');
  const mergeInto = Object.getOwnPropertyDescriptor(PlanRelations.prototype, 'mergeInto')!;
  let poisoned = true;

  beforeEach(() => {
    poisoned = true;
    Object.defineProperty(PlanRelations.prototype, 'mergeInto', {
      ...mergeInto,
      value(this: PlanRelations, ...args: Parameters<PlanRelations['mergeInto']>) {
        if (poisoned && args[1].includes('learned from bad')) throw new RangeError('Maximum call stack size exceeded');
        return (mergeInto.value as PlanRelations['mergeInto']).apply(this, args);
      },
    });
  });
  afterEach(() => Object.defineProperty(PlanRelations.prototype, 'mergeInto', mergeInto));

  function store(): StorePaths {
    const ws = makeTempDir('lore-isolated-plan-');
    const paths = storePaths(path.join(ws, '.lore'), ws);
    initStore(paths, defaultPromptsDir());
    for (const id of ['good', 'bad', 'fine'])
      fs.writeFileSync(path.join(paths.inbox, `${id}.md`), transcript(id, `Something about ${id}.`, '2026-11-24T10:00:00Z'));
    return paths;
  }

  it('one conversation whose items cannot be planned is recorded as failed and kept, the others are harvested, and its reply is not reused by the next harvest', async () => {
    const paths = store();
    const provider = model();
    const report = await runHarvest({ paths, mode: 'apply', provider, now, reclaim: 'delete' });
    const facts = fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8');
    assert.match(facts, /- learned from good \[from: good, 2026-11-24\]/);
    assert.match(facts, /- learned from fine \[from: fine, 2026-11-24\]/);
    assert.doesNotMatch(facts, /learned from bad/);
    const bad = report.conversations.find((c) => c.id === 'bad')!;
    assert.equal(bad.status, 'harvest-failed');
    assert.equal(bad.error, 'its items could not be written: Maximum call stack size exceeded');
    assert.equal(report.failed, 1);
    assert.ok(fs.existsSync(path.join(paths.inbox, 'bad.md')), 'the failed conversation stays in the inbox');
    assert.ok(!fs.existsSync(path.join(paths.inbox, 'good.md')), 'a harvested one is reclaimed');
    assert.equal(readLedger(paths.ledger).entries[bad.sha256].status, 'harvest-failed');
    assert.equal(memos(paths).length, 2, 'only the replies that were written stay cached');

    // The next harvest asks the model again for the failed conversation, and now it lands.
    poisoned = false;
    const again = await runHarvest({ paths, mode: 'apply', provider, now, reclaim: 'delete' });
    assert.deepEqual(provider.calls.slice(3), ['bad'], 'only the failed conversation is sent again');
    assert.equal(again.failed, 0);
    assert.match(fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8'), /- learned from bad \[from: bad, 2026-11-24\]/);
  });

  it('a plan that fails whatever the conversations still fails the run, and keeps no reply', async () => {
    const paths = store();
    poisoned = false;
    // Every plan fails, with or without a conversation.
    const relations = Object.getOwnPropertyDescriptor(PlanRelations.prototype, 'opsByFile')!;
    Object.defineProperty(PlanRelations.prototype, 'opsByFile', {
      ...relations,
      value() {
        throw new Error('the store cannot be read');
      },
    });
    try {
      await assert.rejects(runHarvest({ paths, mode: 'apply', provider: model(), now }), /the store cannot be read/);
    } finally {
      Object.defineProperty(PlanRelations.prototype, 'opsByFile', relations);
    }
    assert.deepEqual(memos(paths), []);
    assert.ok(!fs.existsSync(paths.ledger));
  });

  describe('an apply that fails', () => {
    const entries = planJournal.planJournalEntries;
    afterEach(() => Object.assign(planJournal, { planJournalEntries: entries }));
    const failApply = (error: Error) =>
      Object.assign(planJournal, {
        planJournalEntries: () => {
          throw error;
        },
      });

    it('on what it writes keeps no reply, so the next harvest asks the model again', async () => {
      const paths = store();
      poisoned = false;
      const provider = model();
      failApply(new RangeError('Maximum call stack size exceeded'));
      await assert.rejects(runHarvest({ paths, mode: 'apply', provider, now }), /Maximum call stack/);
      assert.deepEqual(memos(paths), []);
      Object.assign(planJournal, { planJournalEntries: entries });
      const again = await runHarvest({ paths, mode: 'apply', provider, now });
      assert.equal(again.failed, 0);
      assert.equal(provider.calls.length, 6, 'every conversation is sent again');
    });

    it('on a full disk keeps the replies: they were not at fault, and asking again would only cost', async () => {
      const paths = store();
      poisoned = false;
      const provider = model();
      failApply(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      await assert.rejects(runHarvest({ paths, mode: 'apply', provider, now }), /ENOSPC/);
      assert.equal(memos(paths).length, 3);
      Object.assign(planJournal, { planJournalEntries: entries });
      await runHarvest({ paths, mode: 'apply', provider, now });
      assert.equal(provider.calls.length, 3, 'the cached replies are written');
      assert.match(fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8'), /- learned from bad \[from: bad, 2026-11-24\]/);
    });
  });
});
