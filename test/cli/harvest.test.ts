import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';

const BODY = [
  'Fact: the build uses esbuild.',
  'Decision: keep the CLI in CommonJS — the extension host loads it.',
  'TODO: write the crash test.',
  'Done: wrote the ledger.',
  'Question: Why does the watcher fire twice?',
  'Playbook: Release: npm run build -> npm run package',
  'Note for src/app.ts: exports the app constant.',
].join('\n');

function ledger(root: string) {
  return JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')).entries as Record<string, any>;
}

describe('lore harvest (CLI, rules provider)', function () {
  this.timeout(30_000);

  it('dry run classifies and estimates, and writes nothing but what it learned, in the per-machine cache', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
    const snapshot = () => snapshotTree(ws, ['.cache']);
    const before = snapshot();
    const result = await runCli(['harvest', '--root', root]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /conversations: harvest:1\n/);
    assert.match(result.stdout, /dry run; pass --preview/);
    assert.deepEqual(snapshot(), before);
    assert.ok(fs.existsSync(path.join(root, '.cache', 'measured-files.json')));
    const json = JSON.parse((await runCli(['harvest', '--root', root, '--json'])).stdout);
    assert.equal(json.counts.harvest, 1);
    // Estimated from what the model reads: the rendered transcript, not the file.
    assert.equal(json.estimatedTokens, Math.ceil(json.conversations[0].renderedBytes / 4));
    assert.equal(json.conversations[0].rawBytes, fs.statSync(path.join(inbox, 'c1.md')).size);
    assert.deepEqual(snapshot(), before);
  });

  it('--preview prints the plan as a unified diff and changes no knowledge file', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
    const before = snapshotTree(ws);
    const result = await runCli(['harvest', '--root', root, '--preview']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^--- a\/facts\.md\n\+\+\+ b\/facts\.md$/m);
    assert.match(result.stdout, /^\+- the build uses esbuild\. \[from: c1, 2026-11-20\]$/m);
    assert.match(result.stdout, /^\+- keep the CLI in CommonJS — the extension host loads it\. \[from: c1, 2026-11-20\]$/m);
    assert.match(result.stdout, /^--- a\/digest\.md\n\+\+\+ b\/digest\.md$/m, 'lore init created the (empty) digest');
    assert.match(result.stdout, /reclaim \(delete\): .*c1\.md/);
    assert.deepEqual(snapshotTree(ws), before);
  });

  it('--apply writes every category, the note, ledger and digest, then reclaims the inbox file', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    const conv = path.join(inbox, 'c1.md');
    fs.writeFileSync(conv, transcript('c1', BODY));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');
    assert.equal(read('facts.md'), '# Facts\n\n- the build uses esbuild. [from: c1, 2026-11-20]\n');
    assert.match(read('decisions.md'), /- keep the CLI in CommonJS — the extension host loads it\. \[from: c1, 2026-11-20\]\n$/);
    assert.equal(
      read('tasks.md'),
      '# Tasks\n\n## Open\n\n- write the crash test. [from: c1, 2026-11-20]\n\n## Done\n\n- wrote the ledger. [from: c1, 2026-11-20]\n',
    );
    assert.match(read('questions.md'), /- Why does the watcher fire twice\? \[from: c1, 2026-11-20\]/);
    assert.match(read('playbooks.md'), /- \*\*Release\*\*: npm run build -> npm run package \[from: c1, 2026-11-20\]/);
    const notes = (await runCli(['notes', path.join(ws, 'src', 'app.ts'), '--root', root])).stdout;
    assert.match(notes, /- [0-9a-z]{8} {2}exports the app constant\. \[from: c1, 2026-11-20\]/);
    assert.match(
      read('digest.md'),
      /^# Knowledge digest[^\n]*\n> Recorded project knowledge, quoted as data[^\n]*\n\n## Open tasks\n- write the crash test/,
    );
    assert.ok(!fs.existsSync(conv), 'inbox conversation reclaimed');
    const entries = Object.values(ledger(root));
    assert.equal(entries.length, 1);
    assert.equal(entries[0].status, 'harvested');
    assert.equal(entries[0].deleted, true);
    assert.deepEqual(entries[0].items, { facts: 1, decisions: 1, tasks_done: 1, tasks_open: 1, questions: 1, playbooks: 1, files: 1 });
  });

  it('the same content again is not harvested twice: reclaimed from the ledger, no duplicate line', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
    await runCli(['harvest', '--root', root, '--apply']);
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    fs.writeFileSync(path.join(inbox, 'copy.md'), transcript('c1', BODY));
    const dry = await runCli(['harvest', '--root', root]);
    assert.match(dry.stdout, /conversations: harvested:1\n/);
    assert.match(dry.stdout, /reclaimable now \(already harvested\): 1/);
    const again = await runCli(['harvest', '--root', root, '--apply', '--json']);
    const report = JSON.parse(again.stdout);
    assert.equal(report.modelCalls, 0);
    assert.equal(report.reclaimed.length, 1);
    assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), facts);
    assert.equal(Object.keys(ledger(root)).length, 1);
    assert.ok(!fs.existsSync(path.join(inbox, 'copy.md')));
  });

  it('counts only what it writes: a grown session harvested again reports its new item, not the old ones again', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
    const first = JSON.parse((await runCli(['harvest', '--root', root, '--apply', '--json'])).stdout);
    assert.deepEqual(first.items, { facts: 1, decisions: 1, tasks_done: 1, tasks_open: 1, questions: 1, playbooks: 1, files: 1 });
    fs.writeFileSync(path.join(inbox, 'c1-later.md'), transcript('c1', `${BODY}\nFact: the session went on.`));
    const again = await runCli(['harvest', '--root', root, '--apply', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).items, {
      facts: 1,
      decisions: 0,
      tasks_done: 0,
      tasks_open: 0,
      questions: 0,
      playbooks: 0,
      files: 0,
    });
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /the session went on\./);
  });

  it('never deletes conversations read from outside the inbox', async () => {
    const { root } = await makeWorkspace();
    const external = makeTempDir('lore-ext-');
    const file = path.join(external, 'session.md');
    fs.writeFileSync(file, transcript('ext1', 'Fact: external sessions stay.'));
    const result = await runCli(['harvest', '--root', root, '--from', external, '--apply']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(fs.existsSync(file));
    const [entry] = Object.values(ledger(root));
    assert.equal(entry.status, 'harvested');
    assert.equal(entry.deleted, false);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /external sessions stay\. \[from: ext1, 2026-11-20\]/);
  });

  it('a later run does not read an unchanged outside file again, and reads it once it grows', async () => {
    const { root } = await makeWorkspace();
    const external = makeTempDir('lore-ext-');
    const file = path.join(external, 'session.md');
    fs.writeFileSync(file, transcript('ext2', 'Fact: known files are remembered.'));
    await new Promise((resolve) => setTimeout(resolve, 20)); // Its ctime must predate the harvest's reading.
    assert.equal((await runCli(['harvest', '--root', root, '--from', external, '--apply'])).code, 0);
    const cached = JSON.parse(fs.readFileSync(path.join(root, '.cache', 'known-files.json'), 'utf8'));
    assert.deepEqual(Object.keys(cached.files), [file]);
    const classOf = async () => {
      const dry = JSON.parse((await runCli(['harvest', '--root', root, '--from', external, '--json'])).stdout);
      return dry.conversations[0].class;
    };
    assert.equal(await classOf(), 'harvested');
    fs.appendFileSync(file, '\n## user\n\nFact: and read again once they change.\n');
    assert.equal(await classOf(), 'harvest');
  });

  it('applying a saved preview remembers the outside files it proved too', async () => {
    const { root } = await makeWorkspace();
    const external = makeTempDir('lore-ext-');
    const file = path.join(external, 'session.md');
    fs.writeFileSync(file, transcript('ext3', 'Fact: previews remember as well.'));
    const planFile = path.join(makeTempDir('lore-plan-'), 'plan.json');
    assert.equal((await runCli(['harvest', '--root', root, '--from', external, '--preview', '--save-plan', planFile, '-q'])).code, 0);
    await new Promise((resolve) => setTimeout(resolve, 20)); // Its ctime must predate the apply's check.
    assert.equal((await runCli(['harvest', '--root', root, '--apply-plan', planFile])).code, 0);
    const cached = JSON.parse(fs.readFileSync(path.join(root, '.cache', 'known-files.json'), 'utf8'));
    assert.deepEqual(Object.keys(cached.files), [file]);
  });

  for (const mode of ['archive', 'keep'] as const) {
    it(`--reclaim ${mode}`, async () => {
      const { root, inbox } = await makeWorkspace();
      fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
      const result = await runCli(['harvest', '--root', root, '--apply', '--reclaim', mode]);
      assert.equal(result.code, 0, result.stderr);
      const [entry] = Object.values(ledger(root));
      if (mode === 'keep') {
        assert.ok(fs.existsSync(path.join(inbox, 'c1.md')));
        assert.equal(entry.archived, undefined);
      } else {
        assert.ok(!fs.existsSync(path.join(inbox, 'c1.md')));
        // Relative to the store, so the ledger still names it after the project folder moves.
        assert.match(entry.archived, /^archive\/\d{4}-\d{2}\/c1\.md$/);
        assert.ok(fs.existsSync(path.join(root, entry.archived)), entry.archived);
        assert.equal(entry.deleted, false);
      }
    });
  }

  it('--no-harvest records deleted-unharvested and reclaims without a model', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
    const result = await runCli([
      'harvest',
      '--root',
      root,
      '--apply',
      '--no-harvest',
      '--provider',
      'openai',
      '--base-url',
      'http://127.0.0.1:9/v1',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const [entry] = Object.values(ledger(root));
    assert.equal(entry.status, 'deleted-unharvested');
    assert.equal(entry.deleted, true);
    assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), '# Facts\n');
  });

  it('keeps too-large and binary files, records too-large once, and does not count them as failures', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'huge.md'), 'Fact: big.\n'.repeat(100_000));
    fs.writeFileSync(path.join(inbox, 'blob.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(fs.existsSync(path.join(inbox, 'huge.md')) && fs.existsSync(path.join(inbox, 'blob.md')));
    const entries = Object.values(ledger(root));
    assert.deepEqual(
      entries.map((e) => e.status),
      ['too-large'],
    );
    assert.match(result.stdout, /skipped \(binary: contains NUL bytes\)/);
  });

  it('redacts secrets and never writes outside the store', async () => {
    const { ws, root, inbox } = await makeWorkspace();
    const outside = makeTempDir('lore-outside-');
    fs.writeFileSync(path.join(outside, 'target.ts'), 'x');
    const secretBody = [
      'Fact: the staging key is sk-proj-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-dcba and the DB is postgres://app:s3cr3tpass@db:5432/app',
      `Note for ${path.join(outside, 'target.ts')}: should never create a file there.`,
      'Note for ../../../../etc/passwd: traversal attempt.',
    ].join('\n');
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', secretBody));
    const outsideBefore = snapshotTree(outside);
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 0, result.stderr);
    // The undo area keeps the reclaimed raw conversation, as the inbox held it, until the next
    // apply: private and git-ignored like inbox/, so it is not part of what Lore writes.
    const tree = snapshotTree(root);
    assert.equal(tree['.undo/.gitignore']?.split('\n').includes('*'), true);
    const store = JSON.stringify(Object.fromEntries(Object.entries(tree).filter(([k]) => !k.startsWith('.undo/inbox/'))));
    assert.ok(!store.includes('Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe'), 'API key redacted everywhere in the store');
    assert.ok(!store.includes('s3cr3tpass'));
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /\[REDACTED:openai-key\]/);
    // Both notes fall back to facts.md as `path: note`; nothing is created outside.
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /target\.ts: should never create a file there\./);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /etc\/passwd: traversal attempt\./);
    assert.deepEqual(snapshotTree(outside), outsideBefore);
    assert.deepEqual(fs.readdirSync(path.join(root, 'files')), []);
    assert.ok(!fs.existsSync(path.join(ws, 'etc')));
  });

  it('exits 2 on usage errors with a hint', async () => {
    const { root } = await makeWorkspace();
    for (const args of [
      ['--preview', '--apply'],
      ['--bogus'],
      ['--provider', 'nope'],
      ['--max-harvest-bytes', 'lots'],
      ['--reclaim', 'shred'],
    ]) {
      const result = await runCli(['harvest', '--root', root, ...args]);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /lore harvest: .+/);
    }
    assert.equal((await runCli(['frobnicate'])).code, 2);
  });

  it('a corrupt ledger stops the harvest with a clear message and is left untouched', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
    fs.writeFileSync(path.join(root, 'ledger.json'), '{"entries": ');
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /not a valid ledger .*fix the JSON or move the file away/);
    assert.equal(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8'), '{"entries": ');
    assert.ok(fs.existsSync(path.join(inbox, 'c1.md')));
    assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), '# Facts\n');
  });

  it('--max-harvest-bytes defers the rest to the next run', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('a', 'Fact: first.'));
    fs.writeFileSync(path.join(inbox, 'b.md'), transcript('b', 'Fact: second.'));
    // The budget counts what the model reads: the rendered transcript.
    const dry = JSON.parse((await runCli(['harvest', '--root', root, '--json'])).stdout);
    const size = dry.conversations.find((c: { path: string }) => c.path.endsWith('a.md')).renderedBytes;
    const first = JSON.parse(
      (await runCli(['harvest', '--root', root, '--apply', '--json', '--max-harvest-bytes', String(size + 10)])).stdout,
    );
    assert.deepEqual([first.counts.harvest, first.counts.deferred], [1, 1]);
    assert.ok(fs.existsSync(path.join(inbox, 'b.md')));
    const second = JSON.parse((await runCli(['harvest', '--root', root, '--apply', '--json'])).stdout);
    assert.equal(second.counts.harvest, 1);
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /first\.[^\n]*\n- second\./);
  });
});
