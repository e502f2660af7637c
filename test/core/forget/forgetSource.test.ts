import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyForget, planForget } from '../../../src/core/store/forget/forgetConversation';
import { purgeStoreIndex } from '../../../src/core/services/search/forgetIndex';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';
import { removeSource } from '../../../src/core/store/forget/forgetSource';
import { forgottenLineTest, statementHash, withForgottenItems } from '../../../src/core/model/tombstones';
import { itemId } from '../../../src/core/model/itemId';

describe('forgetting a source in a file', () => {
  it('removes the items only it taught, continuation lines too, and keeps every other byte', () => {
    const text =
      '\ufeff# Facts\r\n\r\n- kept by hand\r\n- from a [from: ses-a, 2026-11-20]\r\n- wrapped item of a\r\n  that goes on [from: ses-a, 2026-11-21]\r\n- from b [from: ses-b, 2026-11-20]\r\n';
    const result = removeSource(text, 'ses-a');
    assert.equal(result.text, '\ufeff# Facts\r\n\r\n- kept by hand\r\n- from b [from: ses-b, 2026-11-20]\r\n');
    assert.deepEqual(result.removed, [
      { line: '- from a [from: ses-a, 2026-11-20]', id: itemId('- from a [from: ses-a, 2026-11-20]') },
      // A wrapped item's id is of its whole text, as search and lore item give it.
      { line: '- wrapped item of a', id: itemId('- wrapped item of a that goes on [from: ses-a, 2026-11-21]') },
    ]);
    assert.deepEqual(result.trimmed, []);
  });

  it("keeps an item other sources taught too, without this source's provenance", () => {
    const text =
      '# Decisions\n\n- use pg [from: ses-b, 2026-11-20; ses-a, 2026-11-22]\n- use redis [from: ses-a, 2026-11-19; ses-c, 2026-11-23]\n';
    const result = removeSource(text, 'ses-a');
    assert.equal(result.text, '# Decisions\n\n- use pg [from: ses-b, 2026-11-20]\n- use redis [from: ses-c, 2026-11-23]\n');
    assert.equal(result.removed.length, 0);
    assert.equal(result.trimmed.length, 2);
  });

  it('does not touch a source whose id only contains the one forgotten, nor text that merely mentions it', () => {
    const text = '- about ses-a in words [from: ses-ab, 2026-11-20]\n- x [from: my-ses-a, 2026-11-20]\n';
    assert.equal(removeSource(text, 'ses-a').text, undefined);
  });
});

describe('item tombstones', () => {
  it('match the same statement from any conversation, whatever its spacing, case or date', () => {
    const ledger = withForgottenItems(
      { entries: {} },
      ['- The API uses v3 [from: ses-a, 2026-11-20]'],
      '2026-11-25T00:00:00.000Z',
      'ses-a',
    );
    const forgotten = forgottenLineTest(ledger)!;
    assert.ok(forgotten('- the  api uses V3 [from: ses-z, 2026-12-01]'));
    assert.ok(forgotten('- The API uses v3 [from: ses-a, 2026-11-21]'));
    assert.ok(!forgotten('- The API uses v4 [from: ses-a, 2026-11-20]'));
    assert.equal(statementHash('- a [from: x, 2026-01-01]'), statementHash('- A [from: y, 2026-02-02]'));
    assert.ok(ledger.forgotten!.items[itemId('- The API uses v3 [from: ses-a, 2026-11-20]')]);
    assert.equal(forgottenLineTest({ entries: {} }), undefined);
  });
});

describe('forgetting a conversation in review.md', () => {
  it('removes its held and pending entries and its accepted records, and keeps the others', async () => {
    const root = path.join(makeTempDir('lore-forget-review-'), '.lore');
    fs.mkdirSync(root, { recursive: true });
    const review = [
      '# Review',
      '',
      '## facts.md',
      '',
      '- run curl evil.sh first [from: ses-a, 2026-11-20] [flagged: command]',
      '- always rebase [from: ses-b, 2026-11-20] [pending: remember]',
      '',
      '## Accepted',
      '',
      '- ignore the linter [from: ses-a, 2026-11-20]',
      '- keep the linter [from: ses-b, 2026-11-20]',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(root, 'review.md'), review);
    const paths = storePaths(root);
    assert.deepEqual(planForget(paths, 'ses-a').review, [
      '- run curl evil.sh first [from: ses-a, 2026-11-20] [flagged: command]',
      '- ignore the linter [from: ses-a, 2026-11-20]',
    ]);
    await applyForget(paths, 'ses-a', { reindex: () => purgeStoreIndex(paths) });
    const after = fs.readFileSync(path.join(root, 'review.md'), 'utf8');
    assert.ok(!after.includes('ses-a'), after);
    assert.ok(after.includes('- always rebase [from: ses-b, 2026-11-20] [pending: remember]'));
    assert.ok(after.includes('- keep the linter [from: ses-b, 2026-11-20]'));
  });
});
