import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, snapshotTree } from '../helpers/cli';

describe('lore note, notes, digest (CLI)', function () {
  this.timeout(30_000);

  it('adds a manual note, shows it, and still shows it after an atomic save without writing', async () => {
    const { ws, root } = await makeWorkspace();
    const file = path.join(ws, 'src', 'app.ts');
    const added = await runCli(['note', file, 'Uses', 'the', 'token', 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', '--root', root]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^noted src\/app\.ts in files\/app-ts-[0-9a-z]{8}\.md/);
    const today = new Date().toISOString().slice(0, 10);
    let shown = await runCli(['notes', file, '--root', root]);
    assert.match(shown.stdout, new RegExp(`- [0-9a-z]{8}  Uses the token \\[REDACTED:github-pat\\] \\[from: manual, ${today}\\]`));
    fs.writeFileSync(file + '.tmp', 'export const app = 2;\n');
    fs.renameSync(file + '.tmp', file);
    const files = snapshotTree(path.join(root, 'files'));
    shown = await runCli(['notes', file, '--root', root]);
    assert.match(shown.stdout, /^# src\/app\.ts {2}\(files\/app-ts-[0-9a-z]{8}\.md/);
    assert.match(shown.stdout, /- [0-9a-z]{8} {2}Uses the token/);
    assert.deepEqual(snapshotTree(path.join(root, 'files')), files, 'reading wrote nothing');
  });

  it('refuses a note for a file outside the workspace', async () => {
    const { root } = await makeWorkspace();
    const result = await runCli(['note', '/etc/hostname', 'nope', '--root', root]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cannot attach a note to \/etc\/hostname: outside the workspace/);
    assert.deepEqual(fs.readdirSync(path.join(root, 'files')), []);
  });

  it('notes --heal moves notes of a deleted file to facts.md (and into the digest lore init created)', async () => {
    const { ws, root } = await makeWorkspace();
    const file = path.join(ws, 'src', 'gone.ts');
    fs.writeFileSync(file, 'x');
    await runCli(['note', file, 'about to vanish', '--root', root]);
    fs.rmSync(file);
    const healed = await runCli(['notes', '--heal', '--root', root]);
    assert.match(healed.stdout, /moved to facts\.md: 1 note\(s\) of src\/gone\.ts/);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /- src\/gone\.ts: about to vanish \[from: manual, /);
    assert.match(fs.readFileSync(path.join(root, 'digest.md'), 'utf8'), /src\/gone\.ts: about to vanish/);
  });

  it('digest prints the digest, removes it when disabled in config.json', async () => {
    const { root } = await makeWorkspace();
    fs.appendFileSync(path.join(root, 'decisions.md'), '\n- Hand-written decision\n');
    let result = await runCli(['digest', '--root', root]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /## Decisions\n- Hand-written decision/);
    assert.ok(fs.existsSync(path.join(root, 'digest.md')));
    fs.writeFileSync(path.join(root, 'config.json'), JSON.stringify({ digestEnabled: false }));
    result = await runCli(['digest', '--root', root]);
    assert.match(result.stderr, /disabled in config\.json/);
    assert.ok(!fs.existsSync(path.join(root, 'digest.md')));
    // A broken config.json: the digest is not written with defaults the file may have turned off.
    fs.writeFileSync(path.join(root, 'config.json'), '{ broken');
    result = await runCli(['digest', '--root', root]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /config\.json:1 is not valid JSON.*Lore writes nothing/);
    assert.ok(!fs.existsSync(path.join(root, 'digest.md')));
  });

  it('digest with every category empty removes digest.md, and one with items ends with a newline', async () => {
    const { root } = await makeWorkspace();
    const digest = path.join(root, 'digest.md');
    assert.ok(fs.existsSync(digest), 'lore init turns the digest on');
    let result = await runCli(['digest', '--root', root]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!fs.existsSync(digest), 'nothing to say: no header-only file');
    assert.match(result.stderr, /no digest: no items to show yet/);
    assert.equal(result.stdout, '');
    assert.equal(JSON.parse((await runCli(['digest', '--root', root, '--json'])).stdout).exists, false);
    // A hand-written item without a final newline: the digest still ends with one.
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\n- The API speaks JSON over HTTP');
    result = await runCli(['digest', '--root', root]);
    assert.ok(result.stdout.endsWith('HTTP\n'), result.stdout);
    const text = fs.readFileSync(digest, 'utf8');
    assert.match(text, /## Facts\n- The API speaks JSON over HTTP\n$/);
    assert.ok(!text.endsWith('\n\n'));
    // The items gone again (a hand edit, then an explicit regenerate): the file goes too.
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n');
    result = await runCli(['digest', '--root', root]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!fs.existsSync(digest));
  });
});
