import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseProvenance } from '../../src/core/model/provenance';
import { provenanceTarget } from '../../src/core/store/items/provenanceTarget';
import { storePaths } from '../../src/core/store/storePaths';
import { ALNUM, cat, fake } from '../core/safety/secretSamples';
import { makeWorkspace, runCli, snapshotTree } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';

/** A conversation of several turns; the fact is stated in the third, at 10:07. */
function conversation(id: string, extra = ''): string {
  return [
    '---',
    `session_id: ${id}`,
    'started: 2026-11-20T10:00:00Z',
    '---',
    '',
    '# Build pipeline',
    '',
    '## 10:00 — user',
    'How is the bundle produced?',
    '',
    '## 10:02 — agent',
    'Let me look at the scripts.',
    '',
    '## 10:07 — user',
    `Fact: the bundle is produced by esbuild from src/extension.ts.${extra}`,
    '',
    '## 10:09 — agent',
    'Right, esbuild writes dist/extension.js.',
    '',
  ].join('\n');
}

function ledgerEntries(root: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')).entries;
}

function transcriptFiles(root: string): string[] {
  return Object.keys(snapshotTree(path.join(root, 'transcripts'))).map((rel) => `transcripts/${rel.split(path.sep).join('/')}`);
}

describe('lore harvest keeps transcripts (transcripts/)', function () {
  this.timeout(60_000);

  it('with the default reclaim: the inbox file goes, its transcript stays, the ledger and the [from:] lead to it at the turn', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), conversation('c1'));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.deepEqual(fs.readdirSync(inbox), []);
    assert.match(result.stdout, /^written: 1 transcript in transcripts\/, facts\.md, /m);

    const expected = 'transcripts/2026/11/20/1000-c1-build-pipeline.md';
    assert.deepEqual(transcriptFiles(root), [expected]);
    const text = fs.readFileSync(path.join(root, expected), 'utf8');
    const [sha, entry] = Object.entries(ledgerEntries(root))[0];
    assert.equal(entry.deleted, true);
    assert.equal(entry.transcript, expected);
    assert.match(
      text,
      new RegExp(
        `^---\\nid: c1\\ntool: lore-transcript\\nstarted: 2026-11-20T10:00:00Z\\nended: 2026-11-20T10:09:00.000Z\\nraw_sha256: ${sha}\\nturns: 4\\n---\\n`,
      ),
    );

    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8').split('\n');
    const item = facts.find((l) => l.includes('esbuild'))!;
    const marker = parseProvenance(item)!;
    assert.deepEqual([marker.source, marker.date], ['c1', '2026-11-20']);
    const target = provenanceTarget(storePaths(root), marker.source, item);
    assert.equal(target.kind, 'transcript');
    assert.ok(target.kind === 'transcript');
    assert.equal(target.file, path.join(root, expected));
    assert.equal(text.split('\n')[target.line], '## 10:07 — user');
  });

  it('keeps the transcript of a conversation read from outside the inbox, which stays where it is', async () => {
    const { root } = await makeWorkspace();
    const outside = makeTempDir('lore-sessions-');
    const file = path.join(outside, 'ext-1.md');
    fs.writeFileSync(file, conversation('ext-1'));
    const before = fs.readFileSync(file);
    const result = await runCli(['harvest', '--root', root, '--from', outside, '--apply']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.deepEqual(fs.readFileSync(file), before);
    assert.deepEqual(transcriptFiles(root), ['transcripts/2026/11/20/1000-ext-1-build-pipeline.md']);
    assert.equal(Object.values(ledgerEntries(root))[0].transcript, 'transcripts/2026/11/20/1000-ext-1-build-pipeline.md');
  });

  it('never writes a secret into a transcript, never writes one twice, and a new version of a session gets its own file', async () => {
    const { root, inbox } = await makeWorkspace();
    const token = cat('ghp_', fake(ALNUM, 36));
    fs.writeFileSync(path.join(inbox, 'c1.md'), conversation('c1', ` The deploy token is ${token} here.`));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const [first] = transcriptFiles(root);
    const firstText = fs.readFileSync(path.join(root, first), 'utf8');
    assert.ok(!firstText.includes(token));
    assert.match(firstText, /\[REDACTED:/);
    // The same content again: already harvested, nothing new kept.
    fs.writeFileSync(path.join(inbox, 'again.md'), conversation('c1', ` The deploy token is ${token} here.`));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.deepEqual(transcriptFiles(root), [first]);
    // The session grown by a turn: same id, start and title, another raw file; the first transcript stays as it was.
    fs.writeFileSync(path.join(inbox, 'c1.md'), `${conversation('c1')}\n## 10:30 — user\nDecision: keep esbuild — it is fast.\n`);
    const grown = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(grown.code, 0, grown.stderr + grown.stdout);
    const files = transcriptFiles(root);
    assert.equal(files.length, 2);
    assert.equal(fs.readFileSync(path.join(root, first), 'utf8'), firstText);
    const second = files.find((f) => f !== first)!;
    assert.match(second, /^transcripts\/2026\/11\/20\/1000-c1-build-pipeline-[0-9a-f]{12}\.md$/);
    // The decision leads to the grown session's transcript, at its turn.
    const decision = fs
      .readFileSync(path.join(root, 'decisions.md'), 'utf8')
      .split('\n')
      .find((l) => l.includes('keep esbuild'))!;
    const target = provenanceTarget(storePaths(root), 'c1', decision);
    assert.ok(target.kind === 'transcript');
    assert.equal(target.file, path.join(root, second));
    assert.equal(fs.readFileSync(target.file, 'utf8').split('\n')[target.line], '## 10:30 — user');
  });

  it('keeps the transcript of a conversation reclaimed unharvested (--no-harvest)', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'c1.md'), conversation('c1'));
    const result = await runCli(['harvest', '--root', root, '--apply', '--no-harvest']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.deepEqual(fs.readdirSync(inbox), []);
    const entry = Object.values(ledgerEntries(root))[0];
    assert.equal(entry.status, 'deleted-unharvested');
    assert.equal(entry.transcript, 'transcripts/2026/11/20/1000-c1-build-pipeline.md');
    assert.match(fs.readFileSync(path.join(root, entry.transcript), 'utf8'), /## 10:07 — user\nFact: the bundle is produced by esbuild/);
  });

  it('keeps none when the store says transcripts: false', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(root, 'config.json'), '{"transcripts": false}\n');
    fs.writeFileSync(path.join(inbox, 'c1.md'), conversation('c1'));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.ok(!fs.existsSync(path.join(root, 'transcripts')));
    assert.equal(Object.values(ledgerEntries(root))[0].transcript, undefined);
    assert.deepEqual(fs.readdirSync(inbox), []);
  });

  it('writes the transcript a saved plan planned, and a conversation reclaimed on an older proof gets one first', async () => {
    const { root, inbox } = await makeWorkspace();
    const planFile = path.join(makeTempDir(), 'plan.json');
    fs.writeFileSync(path.join(inbox, 'c1.md'), conversation('c1'));
    const preview = await runCli(['harvest', '--root', root, '--preview', '--save-plan', planFile, '-q']);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, /^keep transcript: transcripts\/2026\/11\/20\/1000-c1-build-pipeline\.md \([\d.]+ (?:B|KB)\)$/m);
    assert.ok(!fs.existsSync(path.join(root, 'transcripts')), 'a preview writes no transcript');
    // A secret put into the plan file's transcript by hand never reaches the store either.
    const token = cat('ghp_', fake(ALNUM, 36));
    const saved = JSON.parse(fs.readFileSync(planFile, 'utf8'));
    assert.equal(saved.plan.transcripts.length, 1);
    saved.plan.transcripts[0].text = saved.plan.transcripts[0].text.replace(
      'How is the bundle produced?',
      `How is the bundle produced? ${token}`,
    );
    fs.writeFileSync(planFile, JSON.stringify(saved));
    const applied = await runCli(['harvest', '--root', root, '--apply-plan', planFile, '--json']);
    assert.equal(applied.code, 0, applied.stderr + applied.stdout);
    assert.deepEqual(transcriptFiles(root), ['transcripts/2026/11/20/1000-c1-build-pipeline.md']);
    assert.equal(JSON.parse(applied.stdout).conversations[0].transcript, 'transcripts/2026/11/20/1000-c1-build-pipeline.md');
    const appliedText = fs.readFileSync(path.join(root, 'transcripts/2026/11/20/1000-c1-build-pipeline.md'), 'utf8');
    assert.ok(!appliedText.includes(token));
    assert.match(appliedText, /How is the bundle produced\? \[REDACTED:/);

    // A store harvested with reclaim "keep" before transcripts existed: the ledger proves c2, no transcript.
    const old = await makeWorkspace();
    fs.writeFileSync(path.join(old.root, 'config.json'), '{"transcripts": false, "reclaim": "keep"}\n');
    fs.writeFileSync(path.join(old.inbox, 'c2.md'), conversation('c2'));
    assert.equal((await runCli(['harvest', '--root', old.root, '--apply'])).code, 0);
    assert.deepEqual(fs.readdirSync(old.inbox), ['c2.md']);
    fs.rmSync(path.join(old.root, 'config.json'));
    const reclaim = await runCli(['harvest', '--root', old.root, '--apply']);
    assert.equal(reclaim.code, 0, reclaim.stderr + reclaim.stdout);
    assert.deepEqual(fs.readdirSync(old.inbox), []);
    assert.deepEqual(transcriptFiles(old.root), ['transcripts/2026/11/20/1000-c2-build-pipeline.md']);
    assert.equal(Object.values(ledgerEntries(old.root))[0].transcript, 'transcripts/2026/11/20/1000-c2-build-pipeline.md');
  });
});
