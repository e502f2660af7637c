import * as assert from 'node:assert/strict';
import { ITEM_CATEGORIES, type HarvestItems } from '../../../../src/core/model/categories';
import { ProviderError, type ModelRequest } from '../../../../src/core/services/providers/provider';
import { RulesProvider } from '../../../../src/core/services/providers/rules/rulesProvider';

const provider = new RulesProvider();

function request(content: string, task: ModelRequest['task'] = 'harvest'): ModelRequest {
  return { task, instructions: 'ignored by the rules provider', content };
}

async function harvest(content: string): Promise<HarvestItems> {
  return JSON.parse((await provider.generate(request(content))).text) as HarvestItems;
}

const TRANSCRIPT = `---
session_id: abc
source: claude-code
---

# Storage work

## 18:45 — user
Can we store the index in SQLite instead of JSON files?
Decision: Use SQLite for the index — it handles concurrent readers.
TODO: write the migration script

## 18:46 — agent
> [tool:Bash] npm test
I ran the tests. Should I also update the docs?
- [x] ran the unit tests
- [ ] update the README
**Fact:** better-sqlite3 needs a native build step
\`\`\`ts
// Decision: this is code, not a decision
const question = 'is this a question?';
\`\`\`
Note for \`src/core/store/index.ts\`: the schema version lives here
Playbook: release — bump the version, tag, npm publish
`;

describe('RulesProvider', () => {
  it('is offline and says it is not a model', () => {
    assert.equal(provider.name, 'rules');
    assert.equal(provider.offline, true);
    assert.equal(
      provider.label,
      'the offline extractor (marked lines, stated findings, agreed choices, work reported done; no model, nothing sent)',
    );
  });

  it('returns JSON with all seven categories, in schema order', async () => {
    const reply = await provider.generate(request(TRANSCRIPT));
    const parsed = JSON.parse(reply.text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), [...ITEM_CATEGORIES]);
    for (const key of ITEM_CATEGORIES) assert.ok(Array.isArray(parsed[key]), key);
  });

  it('extracts every marker of a transcript into its category', async () => {
    const items = await harvest(TRANSCRIPT);
    assert.deepEqual(items.decisions, [{ statement: 'Use SQLite for the index', detail: 'it handles concurrent readers.' }]);
    // The agent's checklist is its plan, and the user's question is a request: neither is kept.
    assert.deepEqual(items.tasks_open, [{ statement: 'write the migration script' }]);
    assert.deepEqual(items.tasks_done, []);
    assert.deepEqual(items.facts, [{ statement: 'better-sqlite3 needs a native build step' }]);
    assert.deepEqual(items.questions, []);
    assert.deepEqual(items.files, [{ path: 'src/core/store/index.ts', note: 'the schema version lives here' }]);
    assert.deepEqual(items.playbooks, [{ name: 'release', steps: 'bump the version, tag, npm publish' }]);
  });

  it('marks what its rules read into prose as inferred, and nothing a person or agent marked', async () => {
    const items = await harvest(
      TRANSCRIPT +
        `
## 18:50 — user
The build fails on CI, why?

## 18:51 — agent
The build fails because the cache key ignores the lockfile.
`,
    );
    const finding = items.facts.find((f) => f.statement.includes('cache key ignores the lockfile'));
    assert.equal(finding?.inferred, true, JSON.stringify(items.facts));
    const marked = [...items.decisions, ...items.tasks_open, ...items.playbooks, ...items.files];
    assert.ok(marked.length >= 4);
    for (const item of marked) assert.equal(item.inferred, undefined, JSON.stringify(item));
    assert.equal(items.facts.find((f) => f.statement.includes('native build step'))?.inferred, undefined);
  });

  it('recognises each marker spelling, bullets and bold', async () => {
    const items = await harvest(
      [
        '## user',
        '- Decided: ship on Fridays because the team is in',
        '* To do: rotate the keys',
        '1. Done: moved CI to Node 24',
        '**Note:** the API is rate limited',
        'Learned: mocha needs --enable-source-maps here',
        'Open question: who owns the release?',
        'Question: does Windows need a separate build',
        'File note docs/setup.md: explains the proxy',
        '**Playbook**: hotfix: branch from the tag; patch; release',
        'todo: lower-case marker works too',
      ].join('\n'),
    );
    assert.deepEqual(items.decisions, [{ statement: 'ship on Fridays', detail: 'the team is in' }]);
    assert.deepEqual(items.tasks_open, [{ statement: 'rotate the keys' }, { statement: 'lower-case marker works too' }]);
    assert.deepEqual(items.tasks_done, [{ statement: 'moved CI to Node 24' }]);
    assert.deepEqual(items.facts, [{ statement: 'the API is rate limited' }, { statement: 'mocha needs --enable-source-maps here' }]);
    assert.deepEqual(items.questions, [{ statement: 'who owns the release?' }, { statement: 'does Windows need a separate build' }]);
    assert.deepEqual(items.files, [{ path: 'docs/setup.md', note: 'explains the proxy' }]);
    assert.deepEqual(items.playbooks, [{ name: 'hotfix', steps: 'branch from the tag; patch; release' }]);
  });

  it('takes a name-only playbook’s steps from the list that follows', async () => {
    const items = await harvest('## agent\nPlaybook: Release\n\n1. bump the version\n2. `npm publish`\n\nAfterwards, done.');
    assert.deepEqual(items.playbooks, [{ name: 'Release', steps: 'bump the version; npm publish' }]);
  });

  it('takes questions only from Question: markers, not every line a user ends with ?', async () => {
    const items = await harvest(
      [
        '## 10:00 — user',
        'Why does the build fail on CI?',
        'Open question: do we support Windows paths?',
        '## 10:01 — agent',
        'Do you want me to fix it now?',
      ].join('\n'),
    );
    assert.deepEqual(items.questions, [{ statement: 'do we support Windows paths?' }]);
  });

  it('ignores code fences (``` and ~~~), quote lines and frontmatter', async () => {
    const items = await harvest(
      [
        '---',
        'title: Decision: frontmatter is not a decision',
        '---',
        '## user',
        '```',
        'Decision: inside backticks',
        'is this code a question?',
        '```',
        '~~~~',
        'TODO: inside tildes',
        '```',
        'still inside the tilde fence?',
        '~~~~',
        '> Decision: quoted, not mine',
        '> would you quote a question?',
        'Fact: outside every block',
      ].join('\n'),
    );
    assert.deepEqual(items.decisions, []);
    assert.deepEqual(items.tasks_open, []);
    assert.deepEqual(items.questions, []);
    assert.deepEqual(items.facts, [{ statement: 'outside every block' }]);
  });

  it('reads plain text without turn headings as one user turn', async () => {
    const items = await harvest(
      'Some notes from the meeting.\nDecision: keep the CLI default offline\nNote: the proxy strips headers\n- [ ] check Windows paths\n',
    );
    assert.deepEqual(items.decisions, [{ statement: 'keep the CLI default offline' }]);
    // A person's own Note: and checklist count (an agent's do not).
    assert.deepEqual(items.facts, [{ statement: 'the proxy strips headers' }]);
    assert.deepEqual(items.tasks_open, [{ statement: 'check Windows paths' }]);
  });

  it('drops exact repeats and caps long statements', async () => {
    const long = 'word '.repeat(100).trim();
    const items = await harvest(`## user\nTODO: add tests\nTODO: add tests\n- [ ] add tests\nFact: ${long}\n`);
    assert.deepEqual(items.tasks_open, [{ statement: 'add tests' }]);
    assert.equal(items.facts.length, 1);
    assert.ok(items.facts[0].statement.length <= 300, `length ${items.facts[0].statement.length}`);
    assert.ok(items.facts[0].statement.endsWith('…'));
  });

  it('does not take "Note for <not a path>" as a file note', async () => {
    const items = await harvest('## agent\nNote for the team: deploys freeze on Fridays');
    assert.deepEqual(items.files, []);
    assert.deepEqual(items.facts, [{ statement: 'deploys freeze on Fridays' }]);
  });

  it('is deterministic', async () => {
    const a = await provider.generate(request(TRANSCRIPT));
    const b = await provider.generate(request(TRANSCRIPT));
    assert.equal(a.text, b.text);
    const s1 = await provider.generate(request(TRANSCRIPT, 'summarize'));
    const s2 = await provider.generate(request(TRANSCRIPT, 'summarize'));
    assert.equal(s1.text, s2.text);
  });

  it('summarizes to marked lines and first user lines, smaller than the input, losing no item', async () => {
    const filler = 'This is a long explanation that carries no marker at all and should be dropped. '.repeat(6);
    const turns: string[] = ['# Long session', ''];
    for (let i = 0; i < 20; i++) {
      turns.push(`## 10:${String(i).padStart(2, '0')} — user`, `Request number ${i}: please look at module ${i}.`, filler);
      turns.push(`## 10:${String(i).padStart(2, '0')} — agent`, filler, i % 5 === 0 ? `Decision: choice ${i} — reason ${i}` : filler);
    }
    turns.push('## 11:00 — user', 'Should we also cache the embeddings?', filler);
    const input = turns.join('\n');
    const summary = (await provider.generate(request(input, 'summarize'))).text;
    assert.ok(summary.length * 4 < input.length, `summary ${summary.length} vs input ${input.length}`);
    assert.ok(summary.includes('Decision: choice 5 — reason 5'));
    assert.ok(summary.includes('## 10:03 — user\nRequest number 3: please look at module 3.'));
    assert.ok(!summary.includes('carries no marker'));
    assert.deepEqual(await harvest(summary), await harvest(input));
  });

  it('keeps a playbook’s step list in a summary', async () => {
    const input = `${TRANSCRIPT}\n## 19:00 — agent\nPlaybook: deploy\n- build\n- upload\n`;
    const summary = (await provider.generate(request(input, 'summarize'))).text;
    assert.deepEqual(await harvest(summary), await harvest(input));
    assert.ok(!summary.includes('session_id'));
  });

  it('throws cancelled when the signal is already aborted', async () => {
    await assert.rejects(
      provider.generate({ ...request(TRANSCRIPT), signal: AbortSignal.abort() }),
      (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled',
    );
  });
});
