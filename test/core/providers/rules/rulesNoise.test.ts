import * as assert from 'node:assert/strict';
import {
  isMachineState,
  isNoiseStatement,
  isOutputLine,
  isScriptStep,
  pastedTurns,
  withoutLocalLinks,
} from '../../../../src/core/services/providers/rules/rulesNoise';
import { readTranscript } from '../../../../src/core/services/providers/rules/rulesTranscript';
import { harvestOf } from './rulesSupport';

/** A pasted spec: headings, links, setup steps, a checklist, in the person's first turn. */
const SPEC = [
  '# Payments service spec',
  '## Decisions',
  ...Array.from({ length: 6 }, (_, i) => `- Decision: see https://example.com/adr/${i} for the background of this choice`),
  '## Setup',
  '1. Run `npm install`',
  '2. cd services/payments',
  '## Tasks',
  ...Array.from({ length: 6 }, (_, i) => `- [ ] wire up the provider number ${i} and its webhook handler for refunds`),
  'The ledger keeps every charge and every refund in one table so reconciling them stays a single query.',
].join('\n');

describe('rules extractor noise', () => {
  it('takes nothing from a spec pasted into a conversation, its checklists and decisions included', async () => {
    const items = await harvestOf(`## user\n${SPEC}\n\n## agent\nI read the spec.\n\n## user\nstart with the ledger\n`);
    assert.deepEqual(items.decisions, []);
    assert.deepEqual(items.tasks_open, []);
  });

  it('still reads a person typing a decision in a short turn of the same conversation', async () => {
    const items = await harvestOf(
      `## user\n${SPEC}\n\n## agent\nI read the spec.\n\n## user\nDecision: Refunds go through the ledger too\n`,
    );
    assert.deepEqual(items.decisions, [{ statement: 'Refunds go through the ledger too' }]);
  });

  it("reads the same document as a person's notes when there is no conversation around it", async () => {
    const items = await harvestOf(SPEC);
    assert.equal(items.tasks_open.length, 6);
  });

  it("calls a turn much longer than the person's others, or full of output lines, pasted", () => {
    const long = 'The payment flow is described here in great detail. '.repeat(20);
    const log = ['error[E0308]: mismatched types', '  --> src/main.rs:4:5', 'warning: unused variable: `x`', 'npm ERR! code 1'].join('\n');
    const transcript = readTranscript(
      `## user\nfix it\n\n## agent\nok\n\n## user\n${long}\n\n## agent\nok\n\n## user\nthanks\n\n## agent\nok\n\n## user\n${log}\n`,
    );
    assert.deepEqual([...pastedTurns(transcript)], [2, 6]);
  });

  it('tells output lines from prose', () => {
    for (const line of [
      'warning: unused import: `std::fmt`',
      'error[E0382]: borrow of moved value: `x`',
      '    at Object.<anonymous> (/app/src/index.js:10:15)',
      'Traceback (most recent call last):',
      'TypeError: Cannot read properties of undefined',
      'npm ERR! missing script: test',
      'src/a.ts(3,1): error TS2304: Cannot find name',
      '2024-05-01 12:00:01 INFO server started',
      '$ npm run build',
      '  3 passing (20ms)',
    ])
      assert.ok(isOutputLine(line), line);
    for (const line of [
      'Note: the cache is per user',
      'The build uses esbuild for the bundle.',
      '# Findings',
      'Errors are reported to Sentry.',
    ])
      assert.ok(!isOutputLine(line), line);
  });

  it('tells script steps and bare links from statements', () => {
    assert.ok(isScriptStep('Run `npm install`'));
    assert.ok(isScriptStep('cd packages/app'));
    assert.ok(isScriptStep('`pnpm build`'));
    assert.ok(!isScriptStep('Go with SQLite for the index'));
    assert.ok(!isScriptStep('Rename session cd to dir'));
    assert.ok(isNoiseStatement('https://github.com/org/repo/pull/12'));
    assert.ok(isNoiseStatement('See https://example.com'));
    assert.ok(isNoiseStatement('warning: field `id` is never read'));
    assert.ok(isOutputLine('   Compiling serde v1.0.200'));
    assert.ok(isOutputLine('     Running `target/debug/app`'));
    assert.ok(isOutputLine('    Finished `dev` profile [unoptimized] target(s) in 0.52s'));
    // Prose that starts like a cargo line is still prose.
    assert.ok(!isOutputLine('Running the same suite without the reporter works (38 of 38 pass).'));
    assert.ok(!isNoiseStatement('Related storage: `file-history/`, `todos/`'));
    assert.ok(!isNoiseStatement('Use SQLite for the index'));
  });

  it('keeps a compiler warning quoted in a summary out of the facts', async () => {
    const items = await harvestOf(
      `## user\nbuild it\n\n## agent\n## Findings\n- warning: unused variable: \`count\`\n- The parser is configured in src/parse.rs\n`,
    );
    assert.deepEqual(items.facts, [{ statement: 'The parser is configured in src/parse.rs' }]);
  });

  it('reduces links to local files to their text and keeps web links', () => {
    assert.equal(
      withoutLocalLinks('Updated [.gitignore](/Users/me/app/.gitignore) and [main.go:12](cli/main.go:12)'),
      'Updated .gitignore and main.go:12',
    );
    assert.equal(withoutLocalLinks('See [the docs](https://example.com/a)'), 'See [the docs](https://example.com/a)');
    assert.equal(withoutLocalLinks('Opened [a.ts](file:///home/me/a.ts)'), 'Opened a.ts');
  });

  it('calls a statement about one machine that day machine state, not one about the project', async () => {
    assert.ok(isMachineState('764 session files across 40 projects on this system'));
    assert.ok(isMachineState('Port 3000 is taken on your machine'));
    assert.ok(!isMachineState('Sessions are stored under ~/.claude/projects, one folder per project'));
    const items = await harvestOf(
      '## user\nHow many?\n\n## agent\n## Findings\n- 764 session files across 40 projects on this system\n- Sessions are JSONL files, one object per line\n',
    );
    assert.deepEqual(
      items.facts.map((f) => f.statement),
      ['Sessions are JSONL files, one object per line'],
    );
  });
});
