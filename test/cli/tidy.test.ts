/** `lore tidy`, `lore supersede` and what a superseded or merged item means for the digest, search, context and ids. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../../src/core/model/itemId';
import { makeWorkspace, runCli } from '../helpers/cli';
import { startStub } from '../helpers/stubServers';

const JENKINS = '- deploys go through Jenkins [from: c1, 2026-11-01]';
const ACTIONS = '- switched deploys from Jenkins to GitHub Actions [from: c4, 2026-11-10]';
const PNPM = '- use pnpm, not npm, for installs [from: c1, 2026-11-01]';
const PNPM_AGAIN = '- Installs use pnpm instead of npm [from: c2, 2026-11-05]';
const PNPM_COPY = '- Use pnpm, not npm, for installs [from: c3, 2026-11-07]';

async function storeWithDuplicates() {
  const { ws, root } = await makeWorkspace();
  fs.writeFileSync(
    path.join(root, 'decisions.md'),
    `# Decisions\n\n${JENKINS}\n${PNPM}\n${PNPM_AGAIN}\n- a line a person wrote\n${PNPM_COPY}\n${ACTIONS}\n`,
  );
  fs.writeFileSync(
    path.join(root, 'facts.md'),
    '# Facts\n\n- the API answers in JSON [from: c1, 2026-11-01]\n- the API answers in JSON [from: c2, 2026-11-03]\n',
  );
  const digest = await runCli(['digest', '--root', root]);
  assert.equal(digest.code, 0, digest.stderr);
  return { ws, root, read: (f: string) => fs.readFileSync(path.join(root, f), 'utf8') };
}

describe('lore tidy', function () {
  this.timeout(60_000);

  it('previews without writing, applies under the lock, and lore undo takes it back byte for byte', async () => {
    const { root, read } = await storeWithDuplicates();
    const before = { decisions: read('decisions.md'), facts: read('facts.md'), digest: read('digest.md') };
    assert.match(before.digest, /Jenkins \[from: c1/);

    const preview = await runCli(['tidy', '--root', root]);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, /merge in decisions\.md .*keep /);
    assert.match(preview.stdout, /supersede in decisions\.md \(change\)/);
    assert.match(preview.stderr, /preview: 2 merge\(s\) removing 3 duplicate line\(s\), 1 supersession\(s\); nothing written/);
    assert.deepEqual({ decisions: read('decisions.md'), facts: read('facts.md'), digest: read('digest.md') }, before);

    const applied = await runCli(['tidy', '--root', root, '--apply', '--json']);
    assert.equal(applied.code, 0, applied.stderr);
    const report = JSON.parse(applied.stdout);
    assert.equal(report.applied, true);
    assert.deepEqual(report.files.sort(), ['decisions.md', 'digest.md', 'facts.md']);
    assert.equal(
      read('decisions.md'),
      [
        '# Decisions',
        '',
        `- deploys go through Jenkins [superseded by ${itemId(ACTIONS)}, ${new Date().toISOString().slice(0, 10)}] [from: c1, 2026-11-01]`,
        '- use pnpm, not npm, for installs [from: c1, 2026-11-01; c2, 2026-11-05; c3, 2026-11-07]',
        '- a line a person wrote',
        ACTIONS,
        '',
      ].join('\n'),
    );
    assert.equal(read('facts.md'), '# Facts\n\n- the API answers in JSON [from: c1, 2026-11-01; c2, 2026-11-03]\n');
    const digest = read('digest.md');
    assert.ok(!digest.includes('through Jenkins'), digest);
    assert.ok(digest.includes('[from: c1, 2026-11-01; c2, 2026-11-05; c3, 2026-11-07]'), digest);
    assert.equal(digest.split('pnpm').length - 1, 1, 'one pnpm line left in the digest');

    // Nothing left to do.
    const again = await runCli(['tidy', '--root', root, '--apply']);
    assert.match(again.stderr, /nothing to tidy/);

    const undone = await runCli(['undo', '--root', root]);
    assert.equal(undone.code, 0, undone.stderr);
    assert.deepEqual({ decisions: read('decisions.md'), facts: read('facts.md'), digest: read('digest.md') }, before);
  });

  it('the merged line keeps its id for lore item; a merged-away id re-points the items it superseded', async () => {
    const { root, read } = await storeWithDuplicates();
    // An item already superseded by a line that tidy will merge away.
    const marked = `- installs go through yarn [superseded by ${itemId(PNPM_AGAIN)}, 2026-11-06] [from: c0, 2026-10-01]`;
    fs.appendFileSync(path.join(root, 'decisions.md'), `${marked}\n`);
    assert.equal((await runCli(['tidy', '--root', root, '--apply'])).code, 0);
    const shown = await runCli(['item', itemId(PNPM), '--root', root, '--json']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(JSON.parse(shown.stdout).line, '- use pnpm, not npm, for installs [from: c1, 2026-11-01; c2, 2026-11-05; c3, 2026-11-07]');
    assert.ok(
      read('decisions.md').includes(`- installs go through yarn [superseded by ${itemId(PNPM)}, 2026-11-06] [from: c0, 2026-10-01]`),
      read('decisions.md'),
    );
  });

  it('--apply keeps distinct facts of one sentence shape (a number, a name, an identifier, a version, a place) and merges true duplicates', async () => {
    const { root } = await makeWorkspace();
    const distinct = [
      'build artifacts go to the S3 bucket acme-builds-us',
      'build artifacts go to the S3 bucket acme-builds-eu',
      'the prompt cache TTL is 5 minutes',
      'the prompt cache TTL is 10 minutes',
      'the CLI needs Node 20 on the build machines',
      'the CLI needs Node 22 on the build machines',
      'the dev server listens on port 8080 in the container',
      'the dev server listens on port 8081 in the container',
      'the primary database runs in eu-west-1',
      'the primary database runs in us-east-1',
      'the payments service and its alerts are owned by Alice',
      'the payments service and its alerts are owned by Bob',
    ];
    const lines = distinct.map((text, i) => `- ${text} [from: c${i}, 2026-11-${String(i + 1).padStart(2, '0')}]`);
    lines.push('- The prompt cache TTL is 5 minutes [from: c20, 2026-11-20]');
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${lines.join('\n')}\n`);
    const applied = await runCli(['tidy', '--root', root, '--apply', '--no-supersede']);
    assert.equal(applied.code, 0, applied.stderr);
    const facts = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    for (const text of distinct) assert.ok(facts.includes(`- ${text} [from: `), `"${text}" is still there:\n${facts}`);
    assert.ok(facts.includes('- the prompt cache TTL is 5 minutes [from: c2, 2026-11-03; c20, 2026-11-20]'), facts);
    assert.equal(facts.split('\n').filter((l) => l.startsWith('- ')).length, distinct.length);
  });

  it('--no-merge only supersedes, --no-supersede only merges', async () => {
    const { root } = await storeWithDuplicates();
    const onlySupersede = JSON.parse((await runCli(['tidy', '--root', root, '--no-merge', '--json'])).stdout);
    assert.equal(onlySupersede.merges.length, 0);
    assert.equal(onlySupersede.supersessions.length, 1);
    const onlyMerge = JSON.parse((await runCli(['tidy', '--root', root, '--no-supersede', '--json'])).stdout);
    assert.equal(onlyMerge.merges.length, 2);
    assert.equal(onlyMerge.supersessions.length, 0);
    assert.equal((await runCli(['tidy', '--root', root, '--preview', '--apply'])).code, 2);
  });
});

describe('lore supersede', function () {
  this.timeout(60_000);

  it('marks OLD superseded by NEW: out of the digest, the context and default search; --superseded shows it', async () => {
    const { root, read } = await storeWithDuplicates();
    const old = itemId(JENKINS);
    const result = await runCli(['supersede', old, itemId(ACTIONS), '--root', root]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^superseded ${old} in decisions\\.md by ${itemId(ACTIONS)}`));
    assert.match(
      read('decisions.md'),
      new RegExp(`- deploys go through Jenkins \\[superseded by ${itemId(ACTIONS)}, \\d{4}-\\d{2}-\\d{2}\\] \\[from: c1, 2026-11-01\\]`),
    );
    assert.ok(!read('digest.md').includes('through Jenkins'));

    const search = await runCli(['search', 'Jenkins', '--root', root, '--json']);
    assert.deepEqual(
      JSON.parse(search.stdout).hits.map((h: { text: string }) => h.text),
      ['switched deploys from Jenkins to GitHub Actions'],
    );
    const all = await runCli(['search', 'Jenkins', '--root', root, '--json', '--superseded']);
    assert.equal(JSON.parse(all.stdout).hits.length, 2);

    const context = await runCli(['context', '--root', root, '--message', 'how do deploys work with Jenkins?']);
    assert.equal(context.code, 0, context.stderr);
    assert.ok(!context.stdout.includes('through Jenkins'), context.stdout);
    assert.ok(context.stdout.includes('GitHub Actions'), context.stdout);

    const item = JSON.parse((await runCli(['item', old, '--root', root, '--json'])).stdout);
    assert.equal(item.status, 'superseded');
    assert.equal(item.supersededBy, itemId(ACTIONS));
  });

  it('refuses ids that name nothing, an item superseding itself, and says when it is already done', async () => {
    const { root } = await storeWithDuplicates();
    assert.match((await runCli(['supersede', itemId(JENKINS), 'zzzzzzzz', '--root', root])).stderr, /no item zzzzzzzz/);
    assert.match((await runCli(['supersede', itemId(JENKINS), itemId(JENKINS), '--root', root])).stderr, /cannot supersede itself/);
    assert.equal((await runCli(['supersede', itemId(JENKINS), '--root', root])).code, 2);
    assert.equal((await runCli(['supersede', itemId(JENKINS), itemId(ACTIONS), '--root', root])).code, 0);
    const twice = await runCli(['supersede', itemId(JENKINS), itemId(ACTIONS), '--root', root]);
    assert.equal(twice.code, 0);
    assert.match(twice.stdout, /unchanged: already superseded/);
  });
});

describe('lore tidy --provider (a model judges too)', function () {
  this.timeout(60_000);

  it('sends the items numbered, oldest first, and applies what the model judged on top of the rules', async () => {
    const { root, read } = await storeWithDuplicates();
    fs.writeFileSync(
      path.join(root, 'decisions.md'),
      `# Decisions\n\n- the monorepo is managed with yarn workspaces [from: c0, 2026-10-01]\n${PNPM}\n- the logo is blue [from: c2, 2026-11-02]\n`,
    );
    // 1: yarn (2026-10-01), 2: pnpm (2026-11-01), 3: logo; facts.md: 1 and 2 are exact duplicates already.
    const judge = (_body: unknown, request: { prompt: { user: string } }) => ({
      reply: request.prompt.user.includes('yarn')
        ? JSON.stringify({
            same: [],
            supersedes: [
              { old: 1, new: 2 },
              { old: 3, new: 1 },
              { old: 9, new: 1 },
            ],
          })
        : '{"same": [], "supersedes": []}',
    });
    const stub = await startStub('openai', [], { whenExhausted: judge });
    try {
      const result = await runCli([
        'tidy',
        '--root',
        root,
        '--apply',
        '--json',
        '--provider',
        'openai',
        '--base-url',
        stub.baseUrl,
        '--model',
        'stub-model',
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(stub.requests.length, 2, 'one request per file with two items or more (facts.md, decisions.md)');
      const first = stub.requests.find((r) => r.prompt.user.includes('yarn'))!.prompt;
      assert.match(first.system ?? '', /^# Tidy a project's memory/);
      assert.ok(
        first.user.includes(
          '1. [2026-10-01] the monorepo is managed with yarn workspaces\n2. [2026-11-01] use pnpm, not npm, for installs\n3. [2026-11-02] the logo is blue',
        ),
        first.user,
      );
      const report = JSON.parse(result.stdout);
      // Only the pair that fits: an older item named as the newer one, and a number outside the batch, are dropped.
      assert.deepEqual(
        report.supersessions.map((s: { old: { line: string }; reason: string }) => [s.old.line, s.reason]),
        [['- the monorepo is managed with yarn workspaces [from: c0, 2026-10-01]', 'model']],
      );
      assert.match(read('decisions.md'), new RegExp(`yarn workspaces \\[superseded by ${itemId(PNPM)}, `));
      assert.ok(read('decisions.md').includes('- the logo is blue [from: c2, 2026-11-02]\n'));
    } finally {
      await stub.close();
    }
  });

  it('refuses the rules provider: it is not a model', async () => {
    const { root } = await storeWithDuplicates();
    assert.equal((await runCli(['tidy', '--root', root, '--provider', 'rules'])).code, 2);
  });
});
