/**
 * `lore reconstruct` and `lore diff`: the kept transcripts replayed into a separate store (the
 * offline extractor, and a model behind a loopback stub of the OpenAI API), the live store left
 * as it was, the difference shown by item, and `--apply` taking it with nothing deleted.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../src/core/model/itemId';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';
import { startStub, type StubServer } from '../helpers/stubServers';

const env = { LORE_ROOT: '', LORE_SEARCH_BACKEND: '', LORE_EMBED_PROVIDER: '', LORE_PROVIDER: '' };

/** The store as a person sees it: caches, logs and the lock left out. */
function storeState(root: string): Record<string, string> {
  const tree = snapshotTree(root);
  for (const key of Object.keys(tree)) if (key === '.lock' || /^\.(cache|index|logs|undo)\//.test(key)) delete tree[key];
  return tree;
}

function itemLines(root: string, files: RegExp): string[] {
  return Object.entries(snapshotTree(root))
    .filter(([key]) => files.test(key))
    .flatMap(([, text]) => text.split('\n').filter((l) => l.startsWith('- ')))
    .sort();
}

async function harvestedStore() {
  const { ws, root, inbox } = await makeWorkspace();
  fs.writeFileSync(
    path.join(inbox, 'c1.md'),
    transcript(
      'c1',
      'Fact: the parser is hand written.\nTODO: add fuzzing to the parser.\nNote for src/app.ts: the entry point stays small.',
    ),
  );
  fs.writeFileSync(
    path.join(inbox, 'c2.md'),
    transcript('c2', 'Decision: keep the lexer table driven — it is faster.', '2026-11-21T09:00:00Z'),
  );
  const cli = async (...args: string[]) => {
    const result = await runCli([...args, '--root', root], { cwd: ws, env });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    return result;
  };
  await cli('harvest', '--apply');
  assert.equal(fs.readdirSync(path.join(root, 'transcripts'), { recursive: true }).filter((f) => String(f).endsWith('.md')).length, 2);
  return { ws, root, cli };
}

describe('lore reconstruct and lore diff', function () {
  this.timeout(60_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('with the same extractor, rebuilds the same items (same ids) in a separate store and leaves the live one alone', async () => {
    const { ws, root, cli } = await harvestedStore();
    const before = storeState(root);
    const out = path.join(makeTempDir(), 'rebuilt');
    const rebuilt = await cli('reconstruct', '--out', out);
    assert.match(rebuilt.stdout, /reconstructed 2 transcript\(s\)/);
    assert.deepEqual(storeState(root), before, 'the live store is not written');
    for (const file of ['facts.md', 'decisions.md', 'tasks.md'])
      assert.equal(fs.readFileSync(path.join(out, file), 'utf8'), before[file], file);
    assert.deepEqual(itemLines(out, /^files\//), itemLines(root, /^files\//), 'notes resolve against the live workspace');
    const diff = JSON.parse((await cli('diff', out, '--json')).stdout);
    assert.deepEqual({ ...diff.totals, same: diff.totals.same > 0 }, { appear: 0, disappear: 0, change: 0, same: true });
    const text = await cli('diff', out);
    assert.match(text.stdout, /0 would appear, 0 disappear, 0 change; 4 the same\./);
    // Made again over an earlier reconstruction; refused over anything else, or inside the live store.
    await cli('reconstruct', '--out', out);
    const foreign = makeTempDir();
    fs.writeFileSync(path.join(foreign, 'mine.txt'), 'keep me');
    for (const target of [foreign, path.join(root, 'rebuilt'), ws]) {
      const refused = await runCli(['reconstruct', '--out', target, '--root', root], { cwd: ws, env });
      assert.equal(refused.code, 1, target);
      assert.match(refused.stderr, /not empty and is not an earlier reconstruction|overlaps the live store/);
    }
    assert.equal(fs.readFileSync(path.join(foreign, 'mine.txt'), 'utf8'), 'keep me');
    assert.ok(!fs.existsSync(path.join(root, 'rebuilt')));
    assert.deepEqual(storeState(root), before);
  });

  it('with another prompt and model (loopback OpenAI stub): shows what would appear, disappear and change, and --apply takes it, archiving instead of deleting', async () => {
    const { ws, root, cli } = await harvestedStore();
    const reply = (items: object) =>
      JSON.stringify({ facts: [], decisions: [], tasks_done: [], tasks_open: [], questions: [], playbooks: [], files: [], ...items });
    // The model's take: the fact reworded, a question the extractor missed, the task not kept; the decision as before.
    const answer = (_body: unknown, request: { prompt: { user: string } }) => ({
      reply: request.prompt.user.includes('Conversation: c1')
        ? reply({
            facts: [{ statement: 'the parser is written by hand, not generated', detail: '' }],
            questions: [{ statement: 'Should the parser report several errors at once?', detail: '' }],
          })
        : reply({ decisions: [{ statement: 'keep the lexer table driven', detail: 'it is faster.' }] }),
    });
    stub = await startStub('openai', [], { whenExhausted: answer });
    const promptFile = path.join(makeTempDir(), 'prompt.md');
    fs.writeFileSync(promptFile, '# Harvest durable knowledge (variant B)\nReturn the seven keys as JSON.\n');
    const out = path.join(makeTempDir(), 'variant');
    const before = storeState(root);
    await cli(
      'reconstruct',
      '--out',
      out,
      '--prompt',
      promptFile,
      '--provider',
      'openai',
      '--model',
      'stub-model',
      '--base-url',
      stub.baseUrl,
    );
    assert.deepEqual(storeState(root), before);
    assert.equal(stub.requests.length, 2);
    for (const r of stub.requests) assert.match(r.prompt.system ?? '', /variant B/);
    assert.equal(JSON.parse(fs.readFileSync(path.join(out, 'reconstruction.json'), 'utf8')).model, 'stub-model');

    const diff = JSON.parse((await cli('diff', out, '--json')).stdout);
    const group = (name: string) => diff.groups.find((g: { group: string }) => g.group === name);
    const oldFact = before['facts.md'].split('\n').find((l) => l.includes('hand written'))!;
    const oldTask = before['tasks.md'].split('\n').find((l) => l.includes('fuzzing'))!;
    assert.deepEqual(
      group('facts').change.map((c: any) => [c.before.id, c.after.text]),
      [[itemId(oldFact), 'the parser is written by hand, not generated']],
    );
    assert.deepEqual(
      group('questions').appear.map((a: any) => a.text),
      ['Should the parser report several errors at once?'],
    );
    assert.deepEqual(
      group('tasks').disappear.map((d: any) => d.id),
      [itemId(oldTask)],
    );
    assert.equal(group('decisions').same, 1);
    assert.equal(group('notes:src/app.ts').disappear.length, 1);
    assert.deepEqual(storeState(root), before, 'diff writes nothing');

    const everyLineBefore = itemLines(root, /^(facts|decisions|questions|tasks)\.md$/);
    const applied = await cli('diff', out, '--apply');
    assert.match(applied.stdout, /applied: 2 item\(s\) added, 2 moved to archive\/knowledge\/, 1 note\(s\) kept/);
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    assert.match(facts, /- the parser is written by hand, not generated \[from: c1, 2026-11-20\]/);
    assert.ok(!facts.includes('hand written'));
    assert.match(fs.readFileSync(path.join(root, 'questions.md'), 'utf8'), /Should the parser report several errors at once\?/);
    const archived = itemLines(root, /^archive\/knowledge\//);
    assert.deepEqual(archived, [oldTask, oldFact].sort());
    const everyLineAfter = itemLines(root, /^(facts|decisions|questions|tasks)\.md$|^archive\/knowledge\//);
    for (const line of everyLineBefore) assert.ok(everyLineAfter.includes(line), `kept: ${line}`);
    assert.equal(itemLines(root, /^files\//).length, 1, 'the note stays');
    assert.match(fs.readFileSync(path.join(root, 'digest.md'), 'utf8'), /several errors at once/);
    // Taken: the two stores now agree but for the note the reconstruction lacks.
    const after = JSON.parse((await cli('diff', out, '--json')).stdout);
    assert.deepEqual([after.totals.appear, after.totals.change, after.totals.disappear], [0, 0, 1]);
    void ws;
  });
});
