import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyItems } from '../../../src/core/model/categories';
import { readReplyMemo, replyMemoKey, writeReplyMemo } from '../../../src/core/services/harvest/replyCache';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

describe('reply cache', () => {
  const paths = storePaths(path.join(makeTempDir('lore-replies-'), '.lore'));
  const key = replyMemoKey('ab'.repeat(32), 'openai', 'gpt', 'prompt');
  const file = path.join(paths.cache, 'replies', `${key}.json`);

  it('reads back what it wrote, redacted', () => {
    const items = {
      ...emptyItems(),
      facts: [{ statement: 'the key is sk-ant-api03-' + 'x'.repeat(90) }],
      playbooks: [{ name: 'release', steps: 'tag -> push' }],
    };
    writeReplyMemo(paths, key, { items, summarized: false, id: 'conv-1', at: '2026-11-24' });
    const back = readReplyMemo(paths, key);
    assert.equal(back?.id, 'conv-1');
    assert.deepEqual(back?.items.playbooks, [{ name: 'release', steps: 'tag -> push' }]);
    assert.ok(!back?.items.facts[0].statement.includes('x'.repeat(90)), 'the secret was redacted before it was cached');
  });

  it('treats a file that does not fit the schema as a miss', () => {
    const valid = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const broken of [
      { ...valid, items: { ...valid.items, facts: [{ statement: 42 }] } },
      { ...valid, id: undefined },
      { ...valid, items: { facts: [] } },
      [valid],
    ]) {
      fs.writeFileSync(file, JSON.stringify(broken));
      assert.equal(readReplyMemo(paths, key), undefined, JSON.stringify(broken).slice(0, 80));
    }
    fs.writeFileSync(file, '{ not json');
    assert.equal(readReplyMemo(paths, key), undefined);
  });
});
