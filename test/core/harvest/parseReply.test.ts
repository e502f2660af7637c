import * as assert from 'node:assert/strict';
import { HarvestReplyError, parseHarvestReply } from '../../../src/core/services/harvest/parseReply';

describe('harvest reply parsing', () => {
  it('accepts a strict object and a ```json fence', () => {
    const body = '{"facts":[{"statement":"A","detail":""}],"playbooks":[{"name":"P","steps":["a","b"]}]}';
    for (const text of [body, '```json\n' + body + '\n```', '  ```\n' + body + '\n```  ']) {
      const { items } = parseHarvestReply(text);
      assert.deepEqual(items.facts, [{ statement: 'A' }]);
      assert.deepEqual(items.playbooks, [{ name: 'P', steps: 'a -> b' }]);
      assert.deepEqual(items.tasks_open, []);
    }
  });

  it('rejects prose, arrays and broken JSON', () => {
    for (const text of ['Here you go: {"facts": []}', '[1]', '{"facts": [', '', 'null', '```json\n{"facts":[]}']) {
      assert.throws(() => parseHarvestReply(text), HarvestReplyError, text);
    }
  });

  it('treats a category that is not a list as empty and drops malformed items', () => {
    const { items, dropped } = parseHarvestReply(
      JSON.stringify({
        facts: 'not a list',
        decisions: [{ statement: 'D', detail: 'why' }, { detail: 'no statement' }, 42, 'bare string'],
        files: [{ path: 'src/a.ts', note: 'n' }, { path: 'x' }],
      }),
    );
    assert.deepEqual(items.facts, []);
    assert.deepEqual(items.decisions, [{ statement: 'D', detail: 'why' }, { statement: 'bare string' }]);
    assert.deepEqual(items.files, [{ path: 'src/a.ts', note: 'n' }]);
    assert.equal(dropped, 3);
  });

  it('redacts secrets inside items', () => {
    const { items } = parseHarvestReply(JSON.stringify({ facts: [{ statement: 'the key is sk-proj-abcdefghijklmnopqrstuvwx-yz' }] }));
    assert.equal(items.facts[0].statement, 'the key is [REDACTED:openai-key]');
  });

  it('redacts before cutting a field at 2,000 characters: a key across the cut leaves nothing behind', () => {
    const key = ['sk-', 'proj-', 'Q7'.repeat(20)].join('');
    // 1,990 characters, a space, then the key: the old cut kept its first 9 characters.
    const statement = `${'x'.repeat(1990)} ${key} and more`;
    const { items } = parseHarvestReply(JSON.stringify({ facts: [{ statement }, { statement: `short ${key}` }] }));
    assert.equal(items.facts[0].statement, 'x'.repeat(1990));
    assert.ok(!items.facts[0].statement.includes(key.slice(0, 9)));
    assert.equal(items.facts[1].statement, 'short [REDACTED:openai-key]');
  });

  it('names the field of every item it drops, and a category that is not a list', () => {
    const { problems, dropped } = parseHarvestReply(
      JSON.stringify({
        facts: [{ statement: 'kept' }, { statement: 3 }, { detail: 'no statement' }],
        decisions: 'not a list',
        playbooks: [{ name: 'deploy', steps: '' }],
        files: [{ path: 'src/a.ts' }],
        tasks_open: [42],
      }),
    );
    assert.equal(dropped, 5);
    assert.deepEqual(problems, [
      'facts[1].statement: Invalid input: expected string, received number',
      'facts[2].statement: Invalid input: expected string, received undefined',
      'decisions: expected array, received string; read as empty',
      'tasks_open[0]: Invalid input: expected object, received number',
      'playbooks[0].steps: empty',
      'files[0].note: Invalid input: expected string, received undefined',
    ]);
  });
});
