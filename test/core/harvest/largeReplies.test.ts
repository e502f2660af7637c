/**
 * A model's reply of about 100,000 items (issue 33): before, the category file splice overflowed
 * the call stack ("Maximum call stack size exceeded"), the whole harvest failed, and the cached
 * reply failed every later run the same way. Now the category file edits take any number of
 * lines, a reply is cut at MAX_REPLY_ITEMS (the rest reported as left out), and a cached reply
 * over that bound is a miss.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MAX_REPLY_ITEMS, TOO_MANY_ITEMS, parseHarvestReply } from '../../../src/core/services/harvest/parseReply';
import { readReplyMemo, replyMemoKey, writeReplyMemo } from '../../../src/core/services/harvest/replyCache';
import { emptyItems } from '../../../src/core/model/categories';
import { appendItems, insertTasks } from '../../../src/core/model/categoryFile';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

const MANY = 100_000;
const lines = (prefix: string) => Array.from({ length: MANY }, (_, i) => `- ${prefix} ${i} [from: c1, 2026-11-24]`);

describe('large replies', () => {
  it('category files take 100,000 new lines at once, in order', () => {
    const facts = appendItems('# Facts\n\n- kept [from: a, 2026-01-01]\n', 'Facts', lines('fact'));
    const out = facts.split('\n');
    assert.equal(out.length, 3 + MANY + 1);
    assert.equal(out[3], '- fact 0 [from: c1, 2026-11-24]');
    assert.equal(out[3 + MANY - 1], `- fact ${MANY - 1} [from: c1, 2026-11-24]`);
    const tasks = insertTasks('# Tasks\n\n## Open\n\n## Done\n', lines('open'), lines('done'));
    assert.ok(tasks.indexOf(`- open ${MANY - 1} `) < tasks.indexOf('## Done'));
    assert.ok(tasks.indexOf(`- done ${MANY - 1} `) > tasks.indexOf('## Done'));
  });

  it(`a reply keeps its first ${MAX_REPLY_ITEMS} items and says how many were left out`, () => {
    const facts = Array.from({ length: MANY }, (_, i) => ({ statement: `fact ${i}` }));
    const parsed = parseHarvestReply(JSON.stringify({ facts, decisions: [{ statement: 'late decision' }] }));
    assert.equal(parsed.items.facts.length, MAX_REPLY_ITEMS);
    assert.equal(parsed.items.facts[MAX_REPLY_ITEMS - 1].statement, `fact ${MAX_REPLY_ITEMS - 1}`);
    assert.equal(parsed.items.decisions.length, 0);
    assert.equal(parsed.dropped, MANY - MAX_REPLY_ITEMS + 1);
    assert.equal(parsed.problems[0], `${TOO_MANY_ITEMS}: ${MANY - MAX_REPLY_ITEMS + 1} past the first ${MAX_REPLY_ITEMS} were left out`);
  });

  it('a cached reply over the bound (as an older Lore cached it) is a miss, so it is asked for again', () => {
    const paths = storePaths(path.join(makeTempDir('lore-replies-'), '.lore'));
    const key = replyMemoKey('cd'.repeat(32), 'openai', 'gpt', 'prompt');
    const items = { ...emptyItems(), facts: Array.from({ length: MAX_REPLY_ITEMS + 1 }, (_, i) => ({ statement: `fact ${i}` })) };
    writeReplyMemo(paths, key, { items, summarized: false, id: 'c1', at: '2026-11-24' });
    assert.equal(readReplyMemo(paths, key), undefined);
    writeReplyMemo(paths, key, {
      items: { ...items, facts: items.facts.slice(0, MAX_REPLY_ITEMS) },
      summarized: false,
      id: 'c1',
      at: '2026-11-24',
    });
    assert.equal(readReplyMemo(paths, key)?.items.facts.length, MAX_REPLY_ITEMS);
  });
});
