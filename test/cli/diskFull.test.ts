import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, transcript } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';

const BODY = 'Fact: disks fill up.\nDecision: write atomically — torn files lose knowledge.\nTODO: free some space.';

/** Mounts a small tmpfs (needs root; the test is skipped where mounting is not allowed). */
function mountTmpfs(dir: string, size: string): boolean {
  fs.mkdirSync(dir, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status === 0;
}

describe('a full disk during lore harvest --apply', function () {
  this.timeout(60_000);
  const mountPoint = path.join(makeTempDir('lore-full-'), 'disk');
  let mounted = false;
  let failedRuns = 0;

  before(function () {
    mounted = mountTmpfs(mountPoint, '512k');
    if (!mounted) this.skip();
  });
  after(() => {
    if (mounted) spawnSync('umount', ['-l', mountPoint]);
  });

  for (const freePages of [0, 1, 2, 3, 4, 6]) {
    it(`fails clearly, keeps the conversation and every file whole, and recovers (${freePages} free pages)`, async () => {
      const ws = path.join(mountPoint, `ws${freePages}`);
      fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
      const root = path.join(ws, '.lore');
      assert.equal((await runCli(['init', '--root', root])).code, 0);
      const conversation = path.join(root, 'inbox', 'c1.md');
      fs.writeFileSync(conversation, transcript('c1', BODY));
      const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
      // Fill the disk, leaving `freePages` pages.
      const filler = path.join(mountPoint, `filler${freePages}`);
      const fd = fs.openSync(filler, 'w');
      const chunk = Buffer.alloc(4096);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
      }
      fs.closeSync(fd);
      fs.truncateSync(filler, Math.max(0, fs.statSync(filler).size - freePages * 4096));

      const full = await runCli(['harvest', '--root', root, '--apply']);
      if (full.code === 0) {
        // Enough room after all: then it must have completed properly.
        assert.ok(!fs.existsSync(conversation));
      } else {
        assert.equal(full.code, 1);
        failedRuns++;
        assert.match(full.stderr, /disk is full .*free some space and run again/);
        assert.ok(fs.existsSync(conversation), 'conversation kept');
        assert.equal(fs.readFileSync(conversation, 'utf8'), transcript('c1', BODY));
        const nowFacts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
        assert.ok(
          nowFacts === facts || nowFacts.includes('- disks fill up. [from: c1, 2026-11-20]\n'),
          'facts.md is whole: old or new, never torn',
        );
      }
      fs.rmSync(filler);
      const again = await runCli(['harvest', '--root', root, '--apply']);
      assert.equal(again.code, 0, again.stderr);
      assert.ok(!fs.existsSync(conversation));
      const finalFacts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
      assert.equal(finalFacts, '# Facts\n\n- disks fill up. [from: c1, 2026-11-20]\n');
      assert.deepEqual(
        fs.readdirSync(root).filter((n) => n.endsWith('.tmp')),
        [],
      );
      fs.rmSync(ws, { recursive: true, force: true });
    });
  }

  it('the cases above really ran out of space', function () {
    if (!mounted) this.skip();
    assert.ok(failedRuns >= 1, `no run hit ENOSPC (${failedRuns})`);
  });
});
