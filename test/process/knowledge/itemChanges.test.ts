import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyItemChange } from '../../../src/core/store/items/itemChanges';
import { storePaths } from '../../../src/core/store/storePaths';

describe('changing an item by id in a file a person may be saving', () => {
  let ws: string;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-item-change-'));
    fs.mkdirSync(path.join(ws, '.lore'));
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('says an item is gone once the file read the same twice, and never calls that file busy', () => {
    const paths = storePaths(path.join(ws, '.lore'));
    fs.writeFileSync(path.join(paths.root, 'facts.md'), '# Facts\n\n- A fact that stays. [from: s1, 2026-01-01]\n');
    const outcome = applyItemChange(paths, { op: 'forget', id: 'abcdefgh', file: 'facts.md' });
    assert.equal(outcome.applied, false);
    assert.equal(outcome.busy, undefined);
    assert.match(outcome.reason ?? '', /item abcdefgh is no longer in facts\.md/);
  });

  it('reports a file that never holds still as busy, not the item as gone', async () => {
    const paths = storePaths(path.join(ws, '.lore'));
    const facts = path.join(paths.root, 'facts.md');
    fs.writeFileSync(facts, '# Facts\n');
    // Another process saves facts.md every few milliseconds, each time with other words and never the item.
    const saver = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); let i = 0; setInterval(() => fs.writeFileSync(${JSON.stringify(facts)}, '# Facts\\n\\n- save ' + i++ + '\\n'), 5);`,
    ]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const outcome = applyItemChange(paths, { op: 'forget', id: 'abcdefgh', file: 'facts.md' });
      assert.equal(outcome.applied, false);
      assert.equal(outcome.busy, true);
      assert.match(outcome.reason ?? '', /facts\.md kept changing while Lore was updating it/);
    } finally {
      saver.kill();
    }
  });
});
