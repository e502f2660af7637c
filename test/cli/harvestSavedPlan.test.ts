import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { makeWorkspace, snapshotTree, transcript } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';
import { startStub, type StubServer } from '../helpers/stubServers';

const VALID = JSON.stringify({
  facts: [{ statement: 'The previewed fact.', detail: '' }],
  decisions: [{ statement: 'Apply what was shown', detail: 'no second model call' }],
  tasks_done: [],
  tasks_open: [],
  questions: [],
  playbooks: [],
  files: [],
});
/** What a second distillation would answer: apply must never write it. */
const OTHER = JSON.stringify({
  facts: [{ statement: 'A fact nobody previewed.', detail: '' }],
  decisions: [],
  tasks_done: [],
  tasks_open: [],
  questions: [],
  playbooks: [],
  files: [],
});

/** The CLI in process; stdout and stderr collected. */
async function lore(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { out: (t) => (stdout += t + '\n'), err: (t) => (stderr += t + '\n') });
  return { code, stdout, stderr };
}

describe('lore harvest --preview --save-plan, then --apply-plan', function () {
  this.timeout(60_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  async function setup() {
    const ws = await makeWorkspace();
    fs.writeFileSync(path.join(ws.inbox, 'c1.md'), transcript('c1', 'Fact: the rules provider reads markers.\nDecision: keep the plan.'));
    const planFile = path.join(makeTempDir('lore-plan-'), 'plan.json');
    return { ...ws, planFile };
  }

  it('applies exactly the previewed items without calling the model again, even with the reply cache gone', async () => {
    const { root, inbox, planFile } = await setup();
    stub = await startStub('openai', [{ reply: VALID }, { reply: OTHER }]);
    const preview = await lore([
      'harvest',
      '--root',
      root,
      '--provider',
      'openai',
      '--base-url',
      stub.baseUrl,
      '--model',
      'm',
      '--preview',
      '--save-plan',
      planFile,
      '-q',
    ]);
    assert.equal(preview.code, 0, preview.stderr + preview.stdout);
    assert.equal(stub.requests.length, 1);
    assert.match(preview.stdout, /\+- The previewed fact\. \[from: c1, 2026-11-20\]/);
    const saved = JSON.parse(fs.readFileSync(planFile, 'utf8'));
    const shown = (file: string) => saved.plan.changes.find((c: { file: string }) => c.file === file).after;
    // Without the reply cache a re-run of the pipeline would have to ask the model (and get OTHER).
    fs.rmSync(path.join(root, '.cache'), { recursive: true, force: true });

    const apply = await lore(['harvest', '--root', root, '--apply-plan', planFile]);
    assert.equal(apply.code, 0, apply.stderr + apply.stdout);
    assert.equal(stub.requests.length, 1, 'apply made no model call');
    for (const file of ['facts.md', 'decisions.md', 'digest.md'])
      assert.equal(fs.readFileSync(path.join(root, file), 'utf8'), shown(file), file);
    assert.doesNotMatch(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /nobody previewed/);
    assert.ok(!fs.existsSync(path.join(inbox, 'c1.md')), 'the conversation was reclaimed');
    const entries = Object.values(JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')).entries) as Array<{ status: string }>;
    assert.deepEqual(
      entries.map((e) => e.status),
      ['harvested'],
    );
  });

  it('refuses a plan whose conversation changed since the preview, writing nothing', async () => {
    const { root, inbox, planFile } = await setup();
    assert.equal((await lore(['harvest', '--root', root, '--preview', '--save-plan', planFile, '-q'])).code, 0);
    fs.appendFileSync(path.join(inbox, 'c1.md'), '\n## 10:02 — user\nFact: said after the preview.\n');
    const before = snapshotTree(root);
    const apply = await lore(['harvest', '--root', root, '--apply-plan', planFile]);
    assert.equal(apply.code, 1);
    assert.match(
      apply.stdout,
      /the preview is out of date; nothing was written:\n {2}.*c1\.md changed since the preview\nrun lore harvest --preview again/,
    );
    assert.deepEqual(snapshotTree(root), before);
  });

  it('refuses a plan when a new conversation arrived or the ledger changed since', async () => {
    const { root, inbox, planFile } = await setup();
    assert.equal((await lore(['harvest', '--root', root, '--preview', '--save-plan', planFile, '-q'])).code, 0);
    fs.writeFileSync(path.join(inbox, 'c2.md'), transcript('c2', 'Fact: a later conversation.'));
    const late = await lore(['harvest', '--root', root, '--apply-plan', planFile]);
    assert.equal(late.code, 1);
    assert.match(late.stdout, /c2\.md is a new conversation/);

    // Another harvest of c2 alone writes the ledger the plan would overwrite.
    assert.equal((await lore(['harvest', '--root', root, '--from', path.join(inbox, 'c2.md'), '--apply', '-q'])).code, 0);
    const raced = await lore(['harvest', '--root', root, '--apply-plan', planFile]);
    assert.equal(raced.code, 1);
    assert.match(raced.stdout, /ledger\.json changed since the preview/);
    assert.doesNotMatch(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /rules provider reads markers/);
  });

  it('adds the previewed lines on top of a category file edited since the preview', async () => {
    const { root, planFile } = await setup();
    assert.equal((await lore(['harvest', '--root', root, '--preview', '--save-plan', planFile, '-q'])).code, 0);
    fs.appendFileSync(path.join(root, 'facts.md'), '- Typed by hand after the preview.\n');
    const apply = await lore(['harvest', '--root', root, '--apply-plan', planFile]);
    assert.equal(apply.code, 0, apply.stderr + apply.stdout);
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    assert.match(facts, /- Typed by hand after the preview\.\n/);
    assert.match(facts, /- the rules provider reads markers\. \[from: c1, 2026-11-20\]/);
    assert.match(fs.readFileSync(path.join(root, 'digest.md'), 'utf8'), /Typed by hand after the preview/);
  });

  it('keeps invalid UTF-8 and CRLF lines of a category file byte for byte through the plan file', async () => {
    const { root, planFile } = await setup();
    const facts = Buffer.concat([
      Buffer.from('# Facts\r\n\r\n- the caf'),
      Buffer.from([0xe9]),
      Buffer.from(' menu [from: hand, 2026-01-01]\r\n'),
    ]);
    fs.writeFileSync(path.join(root, 'facts.md'), facts);
    assert.equal((await lore(['harvest', '--root', root, '--preview', '--save-plan', planFile, '-q'])).code, 0);
    const apply = await lore(['harvest', '--root', root, '--apply-plan', planFile]);
    assert.equal(apply.code, 0, apply.stderr + apply.stdout);
    const after = fs.readFileSync(path.join(root, 'facts.md'));
    assert.ok(
      after.equals(Buffer.concat([facts, Buffer.from('- the rules provider reads markers. [from: c1, 2026-11-20]\r\n')])),
      JSON.stringify(after.toString('latin1')),
    );
  });

  it('names the file and the field of a plan file that is not valid, and writes nothing', async () => {
    const { root, planFile } = await setup();
    assert.equal((await lore(['harvest', '--root', root, '--preview', '--save-plan', planFile, '-q'])).code, 0);
    const saved = JSON.parse(fs.readFileSync(planFile, 'utf8'));
    saved.plan.outcomes[0].sha256 = 5;
    fs.writeFileSync(planFile, JSON.stringify(saved));
    const before = snapshotTree(root);
    const apply = await lore(['harvest', '--root', root, '--apply-plan', planFile]);
    assert.equal(apply.code, 1);
    assert.equal(
      apply.stderr.split('\n')[0].startsWith(`lore harvest: ${planFile} is not a Lore harvest plan (plan.outcomes.0.sha256: `),
      true,
      apply.stderr,
    );
    assert.deepEqual(snapshotTree(root), before);
  });

  it('refuses a plan that would reclaim a file outside the inbox', async () => {
    const { ws, root, planFile } = await setup();
    assert.equal((await lore(['harvest', '--root', root, '--preview', '--save-plan', planFile, '-q'])).code, 0);
    const saved = JSON.parse(fs.readFileSync(planFile, 'utf8'));
    const victim = path.join(ws, 'src', 'app.ts');
    saved.plan.outcomes[0].path = victim;
    fs.writeFileSync(planFile, JSON.stringify(saved));
    const apply = await lore(['harvest', '--root', root, '--apply-plan', planFile]);
    assert.equal(apply.code, 1);
    assert.match(apply.stderr, /the plan reclaims .*app\.ts, which is not in the store's inbox/);
    assert.ok(fs.existsSync(victim));
  });

  it('refuses options the saved plan already decided, and a plan for another store', async () => {
    const { root, planFile } = await setup();
    assert.equal((await lore(['harvest', '--root', root, '--preview', '--save-plan', planFile, '-q'])).code, 0);
    const withProvider = await lore(['harvest', '--root', root, '--apply-plan', planFile, '--provider', 'openai']);
    assert.equal(withProvider.code, 2);
    assert.match(withProvider.stderr, /--apply-plan writes the saved plan as it is; drop --provider/);
    const other = await makeWorkspace();
    const elsewhere = await lore(['harvest', '--root', other.root, '--apply-plan', planFile]);
    assert.equal(elsewhere.code, 2);
    assert.match(elsewhere.stderr, /is a plan for the store .*, not /);
    assert.equal((await lore(['harvest', '--root', root, '--save-plan', planFile])).code, 2);
  });
});
