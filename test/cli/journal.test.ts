import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toIsoDate } from '../../src/core/model/provenance';
import { findItemsById } from '../../src/core/store/items/itemLocator';
import { itemId } from '../../src/core/model/itemId';
import { storePaths } from '../../src/core/store/storePaths';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { gitIn } from '../helpers/gitRepo';
import { makeTempDir } from '../helpers/paths';
import { startStub, type StubServer } from '../helpers/stubServers';

describe('the journal', function () {
  this.timeout(60_000);
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('is written by every apply, by conversation and category, merged over the day without repeats', async () => {
    const { root, inbox } = await makeWorkspace();
    const today = toIsoDate(new Date());
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-a', 'Fact: alpha.\nTODO: task a.\nNote for src/app.ts: note a.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const file = path.join(root, 'journal', `${today}.md`);
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      [
        '---',
        'type: journal',
        `date: ${today}`,
        'sessions: ["ses-a"]',
        '---',
        '',
        `# Journal ${today}`,
        '',
        '## ses-a',
        '',
        '### Facts',
        '- alpha.',
        '',
        '### Open tasks',
        '- task a.',
        '',
        '### Notes on src/app.ts',
        '- note a.',
        '',
      ].join('\n'),
    );
    // A second conversation the same day: its section follows; the journal says what each one taught.
    fs.writeFileSync(path.join(inbox, 'b.md'), transcript('ses-b', 'Fact: alpha.\nDecision: beta — because.', '2026-11-21T10:00:00Z'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /sessions: \["ses-a", "ses-b"\]/);
    assert.match(text, /## ses-b\n\n### Facts\n- alpha\.\n\n### Decisions\n- beta — because\.\n$/);
    // The same apply again (nothing new): the journal does not change.
    fs.writeFileSync(path.join(inbox, 'c.md'), transcript('ses-c', 'Nothing marked here.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    const shown = await runCli(['journal', '--root', root, '--json']);
    assert.deepEqual(
      JSON.parse(shown.stdout).entries.map((e: { source: string; category: string }) => `${e.source}/${e.category}`),
      ['ses-a/Facts', 'ses-a/Open tasks', 'ses-a/Notes on src/app.ts', 'ses-b/Facts', 'ses-b/Decisions'],
    );
    assert.match((await runCli(['journal', '--root', root, '--date', '2001-01-01'])).stderr, /no journal for 2001-01-01/);
  });

  it('is no knowledge: search, item ids and the digest do not read it', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-a', 'Fact: zanzibarite is the codename.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    // Only the journal holds this word: a search must not find it.
    const journal = path.join(root, 'journal', `${toIsoDate(new Date())}.md`);
    fs.appendFileSync(journal, '- quetzalcoatlite only in the journal\n');
    const search = JSON.parse((await runCli(['search', 'quetzalcoatlite', '--root', root, '--json'])).stdout);
    assert.deepEqual(search.hits, []);
    assert.ok(!search.update.indexed.some((f: string) => f.startsWith('journal')), search.update.indexed.join(','));
    // The item the journal repeats is found once, in its category file.
    const hits = JSON.parse((await runCli(['search', 'zanzibarite', '--root', root, '--json'])).stdout).hits;
    assert.deepEqual(
      hits.map((h: { file: string }) => h.file),
      ['facts.md'],
    );
    assert.deepEqual(findItemsById(storePaths(root), itemId('- quetzalcoatlite only in the journal')), []);
    assert.ok(!fs.readFileSync(path.join(root, 'digest.md'), 'utf8').includes('quetzalcoatlite'));
  });

  it('--summarize has the model write a summary into the day (redacted, no headings) and commits it', async () => {
    const root = path.join(makeTempDir('lore-journal-'), 'kb');
    assert.equal((await runCli(['init', '--root', root, '--git'])).code, 0);
    fs.writeFileSync(path.join(root, 'inbox', 'a.md'), transcript('ses-a', 'Fact: alpha.\nDecision: use sqlite — embedded.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const key = 'sk-ant-api03-' + 'a'.repeat(90) + 'AA';
    stub = await startStub('openai', [{ reply: `# Day\n- Chose sqlite because it is embedded.\n- Key ${key} was mentioned.` }]);
    const result = await runCli(
      ['journal', '--root', root, '--summarize', '--provider', 'openai', '--base-url', stub.baseUrl, '--model', 'stub-model'],
      { env: { OPENAI_API_KEY: 'test-key' } },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(stub.requests[0].prompt.system ?? '', /^# Summarize one day of a project's journal/);
    assert.match(stub.requests[0].prompt.user, /## ses-a\n\n### Facts\n- alpha\./);
    const text = fs.readFileSync(path.join(root, 'journal', `${toIsoDate(new Date())}.md`), 'utf8');
    assert.match(
      text,
      /# Journal \d{4}-\d{2}-\d{2}\n\n## Summary\n\nDay\n- Chose sqlite because it is embedded\.\n- Key \[REDACTED:[a-z-]+\] was mentioned\.\n\n## ses-a\n/,
    );
    assert.ok(!text.includes(key));
    assert.equal(gitIn(root, 'log', '-1', '--format=%s').trim(), `maintenance: journal: summary of ${toIsoDate(new Date())}`);
    // Without a model it says what to pass, and writes nothing.
    const rules = await runCli(['journal', '--root', root, '--summarize', '--provider', 'rules']);
    assert.equal(rules.code, 2);
    assert.match(rules.stderr, /summarizing needs a model/);
  });
});
