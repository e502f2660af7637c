/**
 * Inbox files whose names are near the 255-byte limit (issue 33): reclaiming one moved it into
 * `.undo/` under a longer name (ENAMETOOLONG), so it was never reclaimed and every
 * `harvest --apply` exited 1. Names Lore derives are cut to fit (util/fileNames.ts); undo still
 * restores the file under its own name.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { boundedFileName, MAX_NAME_BYTES } from '../../src/core/base/fileNames';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';

const BODY = 'Fact: the build uses esbuild.';

describe('inbox files with names near the length limit', function () {
  this.timeout(60_000);

  for (const [label, name] of [
    ['255 ASCII bytes', `${'c'.repeat(MAX_NAME_BYTES - 3)}.md`],
    ['237 bytes', `${'d'.repeat(237 - 3)}.md`],
    ['254 bytes of 2- and 3-byte characters', `${'é'.repeat(60)}${'日'.repeat(40)}${'x'.repeat(11)}.md`],
    // Cut to fit in .undo/, the name loses whole 4-byte characters at its end, never half of one.
    ['250 bytes ending in 4-byte characters', `${'x'.repeat(7)}${'😀'.repeat(60)}.md`],
  ] as const) {
    it(`a name of ${label} is reclaimed by harvest --apply and restored by undo`, async () => {
      assert.ok(Buffer.byteLength(name) <= MAX_NAME_BYTES && Buffer.byteLength(name) >= 237, String(Buffer.byteLength(name)));
      const { root, inbox } = await makeWorkspace();
      fs.writeFileSync(path.join(inbox, name), transcript('c1', BODY));
      const applied = await runCli(['harvest', '--root', root, '--apply']);
      assert.equal(applied.code, 0, applied.stderr);
      assert.deepEqual(fs.readdirSync(inbox), []);
      const kept = fs.readdirSync(path.join(root, '.undo', 'inbox'));
      assert.equal(kept.length, 1);
      assert.ok(
        Buffer.byteLength(kept[0]) <= MAX_NAME_BYTES && !kept[0].includes('\uFFFD'),
        `kept as ${kept[0]}: no character cut in half`,
      );
      assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0, 'the next apply has nothing left over');
      const undone = await runCli(['undo', '--root', root]);
      assert.equal(undone.code, 0, undone.stderr);
      assert.deepEqual(fs.readdirSync(inbox), [name]);
      assert.equal(fs.readFileSync(path.join(inbox, name), 'utf8'), transcript('c1', BODY));
    });
  }

  it('--reclaim archive gives a long name that collides a suffix that fits', async () => {
    const { root, inbox } = await makeWorkspace();
    const name = `${'a'.repeat(MAX_NAME_BYTES - 3)}.md`;
    const month = path.join(root, 'archive', new Date().toISOString().slice(0, 7));
    fs.mkdirSync(month, { recursive: true });
    fs.writeFileSync(path.join(month, name), 'an earlier conversation of that name\n');
    fs.writeFileSync(path.join(inbox, name), transcript('c1', BODY));
    const applied = await runCli(['harvest', '--root', root, '--apply', '--reclaim', 'archive']);
    assert.equal(applied.code, 0, applied.stderr);
    const archived = fs.readdirSync(month).sort();
    assert.equal(archived.length, 2);
    assert.ok(archived.every((n) => Buffer.byteLength(n) <= MAX_NAME_BYTES));
    assert.match(
      archived.find((n) => n !== name)!,
      /^a+-[0-9a-f]{12}\.md$/,
    );
  });

  it('boundedFileName keeps the extension and whole characters', () => {
    assert.equal(boundedFileName('short.md'), 'short.md');
    const cut = boundedFileName(`${'日'.repeat(100)}.md`, 20);
    assert.equal(cut, '日日日日日.md');
    assert.ok(Buffer.byteLength(cut) <= 20);
    assert.equal(Buffer.byteLength(boundedFileName(`x${'y'.repeat(300)}`)), MAX_NAME_BYTES);
  });
});
