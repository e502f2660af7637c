import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../../src/core/model/itemId';
import { archiveFileOf } from '../../../src/core/store/lifecycle/archivePaths';
import { archivedItems, liveItems, moveToArchive, restoreFromArchive } from '../../../src/core/store/lifecycle/knowledgeArchive';
import { diffStores, similarity } from '../../../src/core/store/lifecycle/storeDiff';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

function store(files: Record<string, string>) {
  const root = path.join(makeTempDir(), '.lore');
  fs.mkdirSync(root);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
  return storePaths(root);
}

describe('knowledge archive', () => {
  it('moves an item a person wrapped over two lines as one line with the same id, keeps the rest of the file byte for byte, and restores it', () => {
    const facts =
      '\ufeff# Facts\r\n\r\nMy own intro line.\r\n- short one [from: c1, 2025-01-01]\r\n- a long item a person\r\n  wrapped by hand [from: c1, 2025-01-02]\r\n- kept [from: c2, 2026-11-01]\r\n';
    const paths = store({ 'facts.md': facts });
    const wrapped = liveItems(paths).find((i) => i.text.startsWith('a long item'))!;
    assert.equal(wrapped.line, '- a long item a person wrapped by hand [from: c1, 2025-01-02]');
    assert.equal(itemId(wrapped.line), wrapped.id);
    moveToArchive(paths, [wrapped]);
    assert.equal(
      fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8'),
      '\ufeff# Facts\r\n\r\nMy own intro line.\r\n- short one [from: c1, 2025-01-01]\r\n- kept [from: c2, 2026-11-01]\r\n',
    );
    assert.equal(fs.readFileSync(archiveFileOf(paths, 'facts'), 'utf8'), `# Archived facts\n\n${wrapped.line}\n`);
    assert.deepEqual(
      archivedItems(paths).map((i) => i.id),
      [wrapped.id],
    );
    restoreFromArchive(paths, archivedItems(paths));
    assert.ok(fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8').endsWith(`- kept [from: c2, 2026-11-01]\r\n${wrapped.line}\r\n`));
    assert.deepEqual(archivedItems(paths), []);
  });

  it('settles an item left in both files (a move cut short): no second copy in either', () => {
    const line = '- twice [from: c1, 2025-01-01]';
    const paths = store({ 'facts.md': `# Facts\n\n${line}\n` });
    fs.mkdirSync(path.dirname(archiveFileOf(paths, 'facts')), { recursive: true });
    fs.writeFileSync(archiveFileOf(paths, 'facts'), `# Archived facts\n\n${line}\n`);
    moveToArchive(paths, liveItems(paths));
    assert.equal(fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8'), '# Facts\n\n');
    assert.equal(fs.readFileSync(archiveFileOf(paths, 'facts'), 'utf8'), `# Archived facts\n\n${line}\n`);
  });
});

describe('store diff', () => {
  it('pairs a reworded item from the same conversation as a change, never one from another conversation', () => {
    const live = store({
      'facts.md':
        '# Facts\n\n- the cache keeps replies for a day [from: c1, 2026-11-20]\n- retries back off twice [from: c2, 2026-11-20]\n- same [from: c3, 2026-11-20]\n',
    });
    const other = store({
      'facts.md':
        '# Facts\n\n- same [from: c3, 2026-11-20]\n- the cache keeps model replies for one day [from: c1, 2026-11-20]\n- retries back off twice, then give up [from: c9, 2026-11-20]\n',
    });
    const diff = diffStores(live, other);
    const facts = diff.groups.find((g) => g.group === 'facts')!;
    assert.deepEqual(
      facts.change.map((c) => [c.before.source, c.after.source]),
      [['c1', 'c1']],
    );
    assert.deepEqual(
      facts.disappear.map((d) => d.text),
      ['retries back off twice'],
    );
    assert.deepEqual(
      facts.appear.map((a) => a.text),
      ['retries back off twice, then give up'],
    );
    assert.equal(facts.same, 1);
    assert.equal(similarity('keep the lexer fast', 'keep the lexer quick'), 0.6);
    assert.equal(similarity('alpha beta', 'gamma delta'), 0);
  });
});
