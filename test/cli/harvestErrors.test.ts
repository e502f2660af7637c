import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';

const BODY = 'Fact: the build uses esbuild.\nDecision: keep the CLI in CommonJS — the extension host loads it.';

/** Any byte a terminal acts on (ESC, BEL, CR, other C0 but tab and newline, C1 as UTF-8). */
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]/;

describe('lore harvest: errors that say what happened', function () {
  this.timeout(60_000);

  it('a ledger nested 100,000 levels deep stops --apply before anything is written', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    const conversation = path.join(inbox, 'c1.md');
    fs.writeFileSync(conversation, transcript('c1', BODY));
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const sha = 'a'.repeat(64);
    fs.writeFileSync(
      path.join(root, 'ledger.json'),
      `{"entries":{"${sha}":{"path":"/old.md","status":"harvested","at":"2026-01-01T00:00:00.000Z","deleted":true,"extra":${deep}}}}`,
    );
    const before = snapshotTree(ws);
    const factsBefore = fs.readFileSync(path.join(root, 'facts.md'));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(
      result.stderr.split('\n').filter((l) => l.startsWith('lore harvest:'))[0],
      `lore harvest: ${path.join(root, 'ledger.json')} is not a valid ledger (nested deeper than 32 levels). Lore will not overwrite it: fix the JSON or move the file away, then run again`,
    );
    assert.ok(!result.stderr.includes('Maximum call stack'), result.stderr);
    assert.deepEqual(fs.readFileSync(path.join(root, 'facts.md')), factsBefore, 'facts.md byte for byte unchanged');
    assert.ok(fs.existsSync(conversation), 'the inbox file is still there');
    assert.deepEqual(snapshotTree(ws), before, 'nothing in the workspace changed');
  });

  it('a ledger entry of the wrong shape is refused when read, naming the field', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
    fs.writeFileSync(
      path.join(root, 'ledger.json'),
      JSON.stringify({ entries: { abc: { path: '/x', status: 'harvested', at: 'now', deleted: 'yes' } } }),
    );
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /ledger\.json is not a valid ledger \(entries\.abc\.deleted: .*\)\. Lore will not overwrite it/);
    assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), '# Facts\n');
    assert.ok(fs.existsSync(path.join(inbox, 'c1.md')));
  });

  for (const name of ['facts.md', 'ledger.json']) {
    it(`${name} being a folder: exit 1 with a message naming it, nothing written or reclaimed`, async () => {
      const { ws, root, inbox } = await makeWorkspace();
      const conversation = path.join(inbox, 'c1.md');
      fs.writeFileSync(conversation, transcript('c1', BODY));
      fs.rmSync(path.join(root, name), { force: true });
      fs.mkdirSync(path.join(root, name));
      const before = snapshotTree(ws);
      for (const mode of ['--preview', '--apply']) {
        const result = await runCli(['harvest', '--root', root, mode]);
        assert.equal(result.code, 1, `${mode}: ${result.stderr}`);
        assert.match(
          result.stderr,
          new RegExp(
            `^lore harvest: ${path.join(root, name).replace(/\./g, '\\.')} is a folder, not a file: move it away and run again\\n`,
            'm',
          ),
        );
        assert.ok(!result.stderr.includes('EISDIR'), result.stderr);
      }
      assert.deepEqual(snapshotTree(ws), before);
      assert.ok(fs.existsSync(conversation));
      assert.ok(fs.statSync(path.join(root, name)).isDirectory());
    });
  }

  it('other commands name a store file that is a folder too (lore context)', async () => {
    const { root } = await makeWorkspace();
    fs.rmSync(path.join(root, 'digest.md'));
    fs.mkdirSync(path.join(root, 'digest.md'));
    const result = await runCli(['context', '--root', root]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `lore context: ${path.join(root, 'digest.md')} is a folder, not a file: move it away and run again\n`);
  });

  it('prints file names with terminal escape sequences escaped, in progress lines and reports', async () => {
    const { root, inbox } = await makeWorkspace();
    const name = 'evil\x1b]0;pwned\x07\x1b[2Jname\r.md';
    fs.writeFileSync(path.join(inbox, name), transcript('c1', BODY));
    const escaped = 'evil\\x1b]0;pwned\\x07\\x1b[2Jname\\r.md';
    const preview = await runCli(['harvest', '--root', root, '--preview']);
    assert.equal(preview.code, 0, preview.stderr);
    const apply = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(apply.code, 0, apply.stderr);
    for (const result of [preview, apply]) {
      assert.ok(!RAW_CONTROL.test(result.stdout + result.stderr), JSON.stringify(result.stdout + result.stderr));
      assert.ok(result.stderr.includes(`distilling 1/1: `) && result.stderr.includes(`${escaped} (1 KB)`), result.stderr);
    }
    assert.ok(preview.stdout.includes(`reclaim (delete): ${path.join(inbox, escaped)}`), preview.stdout);
    // The ledger line names the conversation by its title, the escaped file name after it.
    assert.ok(
      preview.stdout.includes(` harvested Fact: the build uses esbuild.`) && preview.stdout.includes(`(${escaped})`),
      preview.stdout,
    );
    assert.ok(!fs.existsSync(path.join(inbox, name)), 'harvested and reclaimed as usual');
  });
});
