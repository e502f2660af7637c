/**
 * A journal summary and a tidy with a model through the CLI: each call is in `lore cost` under its
 * task, a cap of config.json stops them before any request with the harvest's kind of message,
 * and the provider never sees the workspace's or the home folder's absolute paths.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { startStub, type StubServer } from '../helpers/stubServers';

describe('journal summaries and tidies are metered, capped and sent without local paths (openai stub)', function () {
  this.timeout(60_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  /** A store whose items (and so its journal) name a file by its absolute path and one under the home folder. */
  async function harvested() {
    const { ws, root, inbox } = await makeWorkspace();
    const home = path.join(os.homedir(), 'private-notes', 'plan.md');
    fs.writeFileSync(
      path.join(inbox, 'a.md'),
      transcript('ses-a', `Fact: the entry point is ${path.join(ws, 'src', 'app.ts')}.\nFact: the plan is kept in ${home}.`),
    );
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.ok(fs.readFileSync(path.join(root, 'facts.md'), 'utf8').includes(ws), 'the items hold the absolute paths');
    const model = (...args: string[]) => [
      ...args,
      '--root',
      root,
      '--provider',
      'openai',
      '--base-url',
      stub!.baseUrl,
      '--model',
      'gpt-4o-mini',
    ];
    return { ws, root, model };
  }

  function assertNoLocalPaths(text: string, ws: string): void {
    assert.ok(!text.includes(ws), 'no workspace path');
    assert.ok(!text.includes(os.homedir()), 'no home folder');
    assert.match(text, /src\/app\.ts/);
    assert.match(text, /~\/private-notes\/plan\.md/);
  }

  it('journal --summarize and tidy --provider are in lore cost by task, without local paths in their requests', async () => {
    stub = await startStub('openai', [
      { reply: '- Chose the entry point.', usage: { input: 2_000, output: 100 } },
      { reply: JSON.stringify({ same: [], supersedes: [] }), usage: { input: 3_000, output: 50 } },
    ]);
    const { ws, root, model } = await harvested();
    const env = { env: { OPENAI_API_KEY: 'test-key' } };
    const journal = await runCli(model('journal', '--summarize'), env);
    assert.equal(journal.code, 0, journal.stderr);
    const tidy = await runCli(model('tidy'), env);
    assert.equal(tidy.code, 0, tidy.stderr);
    assert.equal(stub.requests.length, 2);
    assertNoLocalPaths(stub.requests[0].prompt.user, ws);
    assertNoLocalPaths(stub.requests[1].prompt.user, ws);

    const cost = await runCli(['cost', '--root', root]);
    assert.equal(cost.code, 0, cost.stderr);
    assert.match(cost.stdout, /^this month: 5\.2K tokens, <?\$0\.\d+$/m);
    assert.match(cost.stdout, /^ {2}tidy: 3\.0K tokens, <?\$0\.\d+, 1 call$/m);
    assert.match(cost.stdout, /^ {2}journal summary: 2\.1K tokens, <?\$0\.\d+, 1 call$/m);
    assert.match(cost.stdout, /, tidy: openai gpt-4o-mini: 3\.0K tokens/);
    assert.match(cost.stdout, /, journal summary: openai gpt-4o-mini: 2\.1K tokens/);
    const json = JSON.parse((await runCli(['cost', '--root', root, '--json'])).stdout);
    assert.deepEqual(
      json.byTask.map((t: { task: string; calls: number }) => [t.task, t.calls]),
      [
        ['tidy', 1],
        ['journal', 1],
      ],
    );
  });

  it('a cap in config.json stops a journal summary and a tidy before any request, saying which cap and what to do', async () => {
    stub = await startStub('openai', [{ reply: '- never asked' }]);
    const { root, model } = await harvested();
    fs.writeFileSync(path.join(root, 'config.json'), JSON.stringify({ budget: { dailyTokens: 100 } }));
    const env = { env: { OPENAI_API_KEY: 'test-key' } };
    const journal = await runCli(model('journal', '--summarize'), env);
    assert.equal(journal.code, 1);
    assert.match(
      journal.stderr,
      /^lore journal: Stopped at the daily token cap of 100 tokens: 0 tokens spent today, and the journal summary needs about [\d.]+K tokens, so it was not sent\. Raise "budget": \{"dailyTokens"\} in the store's config\.json, or wait until tomorrow\.$/m,
    );
    const tidy = await runCli(model('tidy'), env);
    assert.equal(tidy.code, 1);
    assert.match(tidy.stderr, /^lore tidy: Stopped at the daily token cap of 100 tokens: .* and the tidy's next request needs about/m);
    assert.equal(stub.requests.length, 0, 'nothing sent past the cap');
  });
});
