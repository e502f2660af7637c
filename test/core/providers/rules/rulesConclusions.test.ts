import * as assert from 'node:assert/strict';
import {
  addressesPerson,
  conclusionTurns,
  doneWithList,
  doneWorkOf,
  isSlashCommand,
  isStatedDone,
  isWorthKeepingDone,
} from '../../../../src/core/services/providers/rules/rulesConclusions';
import { readTranscript } from '../../../../src/core/services/providers/rules/rulesTranscript';
import { RulesProvider } from '../../../../src/core/services/providers/rules/rulesProvider';
import { harvestOf } from './rulesSupport';

function statements(items: Array<{ statement: string }>): string[] {
  return items.map((item) => item.statement);
}

describe('rules extractor conclusions', () => {
  it('reads the work a closing sentence reports done, without its speaker', () => {
    assert.equal(
      doneWorkOf("Perfect! I've updated your `package.json` to use `>=20.0.0`, which will accept Node 20 and newer."),
      'Updated the `package.json` to use `>=20.0.0`',
    );
    assert.equal(
      doneWorkOf('Updated .gitignore for Rust artifacts, logs and local config.'),
      'Updated .gitignore for Rust artifacts, logs and local config',
    );
    assert.equal(
      doneWorkOf('CLAUDE.md has been created with the project structure and commands.'),
      'CLAUDE.md was created with the project structure and commands',
    );
    assert.equal(doneWorkOf('We have now added a cleanup hook to every spec. Tests pass.'), 'Added a cleanup hook to every spec');
    assert.equal(doneWorkOf('Added search to the settings page.'), 'Added search to the settings page');
    assert.equal(
      doneWorkOf('I changed the mount point to `/app/projects` so it stays under `/app`.'),
      'Changed the mount point to `/app/projects` so it stays under `/app`',
    );
  });

  it('reads the same report in Japanese and Chinese, when it names what changed', () => {
    assert.equal(
      doneWorkOf('CLAUDE.mdファイルを最新の状態にアップデートしました。主な更新内容：'),
      'CLAUDE.mdファイルを最新の状態にアップデートしました',
    );
    assert.equal(doneWorkOf('已更新 README 的安装步骤，并删除了旧脚本。'), '已更新 README 的安装步骤，并删除了旧脚本');
    assert.equal(doneWorkOf('已简化！现在只判断两种情况：'), undefined);
    assert.equal(doneWorkOf('我来帮你修改 `release.yml`'), undefined);
  });

  it('leaves plans, commits, reading and cut-off sentences out', () => {
    for (const sentence of [
      "I've updated the config, next I'll run the tests.",
      "I've committed the changes with a conventional message.",
      "I've read the file and checked the imports.",
      'I split the work into two steps and set up a plan.',
      "I'll update the config to use the new path.",
      'Created a comprehensive rule for bug fixing that:',
      'Written to `command.txt`.',
      'Updated the `SEARCH` part to match the file.',
      'Fixed it.',
    ])
      assert.equal(doneWorkOf(sentence), undefined, sentence);
  });

  it('reads "X has been updated to:" and its list as one done statement, not a plan announced with a list', () => {
    assert.equal(
      doneWithList('The `CHANGELOG.md` has been updated to:', ['Remove all duplicate entries.', 'Group changes under `[Unreleased]`.']),
      'The `CHANGELOG.md` was updated to: Remove all duplicate entries; Group changes under `[Unreleased]`',
    );
    assert.equal(doneWithList("I'll update the changelog to:", ['Remove duplicates.']), undefined);
    assert.equal(doneWithList('Here are the options:', ['Remove duplicates.']), undefined);
    assert.equal(doneWithList('The changelog has been updated.', ['Remove duplicates.']), undefined);
  });

  it('tells done list items from plan steps and reassurance from facts', () => {
    assert.ok(isStatedDone('Switched to Node.js 22: used `nvm use 22`'));
    assert.ok(isStatedDone('**Added** a lint-only tsconfig'));
    assert.ok(!isStatedDone('Add a `--all` option'));
    assert.ok(!isStatedDone('Committed the change'));
    assert.ok(addressesPerson('Your setup is working correctly'));
    assert.ok(!addressesPerson('The yarn cache lives in .yarn/cache'));
  });

  it('finds the turn that closes each request, not those answering a slash command', () => {
    const transcript = readTranscript(
      [
        '## user',
        'Fix the build.',
        '## agent',
        'Looking.',
        '## agent',
        'Fixed.',
        '## user',
        '/init',
        '## agent',
        'Created CLAUDE.md.',
        '## user',
        'Thanks, now the docs.',
        '## agent',
        'Done.',
      ].join('\n'),
    );
    assert.deepEqual([...conclusionTurns(transcript)], [2, 6]);
    assert.ok(isSlashCommand('❯ /terminal-setup   '));
    assert.ok(isSlashCommand('<command-name>/init</command-name>'));
    assert.ok(!isSlashCommand('/src/app.ts fails to build'));
    assert.ok(!isSlashCommand('/orchestrator update @CLAUDE.md to the current state'));
  });

  it('keeps the closing "I\'ve updated …" of each answer, unless a summary list says more', async () => {
    const items = await harvestOf(
      [
        '## user',
        'Make the engine accept newer Node versions.',
        '## agent',
        'Let me look at package.json.',
        '## agent',
        "I've updated `package.json` to use `>=20.0.0`, which accepts Node 20 and newer.",
        '## user',
        'Now fix the lint config.',
        '## agent',
        "I've added a lint-only tsconfig.",
        '## Summary',
        '- Added `tsconfig.eslint.json` that includes the tests.',
        '- Pointed ESLint at it.',
        '## user',
        'Thanks!',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.tasks_done), [
      'Updated `package.json` to use `>=20.0.0`',
      'Added `tsconfig.eslint.json` that includes the tests.',
      'Pointed ESLint at it.',
    ]);
  });

  it('takes a summary list before the last request only when its items are stated as done', async () => {
    const items = await harvestOf(
      [
        '## user',
        'Plan the export.',
        '## agent',
        '## Summary',
        '- Export sessions as files',
        '- Updated the README with the export format',
        '## user',
        'Go ahead.',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.tasks_done), ['Updated the README with the export format']);
  });

  it('takes nothing from a reassurance or from what a slash command did', async () => {
    const items = await harvestOf(
      [
        '## user',
        '/init',
        '## agent',
        "I've created a basic CLAUDE.md file for this empty repository.",
        '## user',
        'Why does ping fail?',
        '## agent',
        '**Summary:** Your setup is working correctly.',
        'Your MacBook crashed due to a kernel panic.',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.tasks_done), []);
    assert.deepEqual(statements(items.facts), []);
  });

  it('keeps what a closing sentence and its list gave through a summary', async () => {
    const transcript = [
      '## user',
      'Clean up the changelog.',
      '## agent',
      'Reading it first.',
      '## agent',
      'The `CHANGELOG.md` has been updated to:',
      '- Remove all duplicate entries.',
      '- Link each section to its conversation.',
      '## user',
      'And the README?',
      '## agent',
      "I've updated the README to list the new commands.",
    ].join('\n');
    const summary = await new RulesProvider().generate({ task: 'summarize', instructions: '', content: transcript });
    assert.deepEqual(statements((await harvestOf(summary.text)).tasks_done), statements((await harvestOf(transcript)).tasks_done));
    assert.equal((await harvestOf(transcript)).tasks_done.length, 2);
  });

  it('keeps work done that names what changed, not headlines, filed tasks, edit logs, chores or shell steps', () => {
    for (const kept of [
      'Ported the Python utility library to Rust',
      'Added a lint-only `tsconfig` that includes the tests',
      'CLAUDE.md was created with the project structure',
      'Created a fully functional TODO app using Next.js',
      'Pointed ESLint at it',
      'CLAUDE.mdファイルを最新の状態にアップデートしました',
    ])
      assert.ok(isWorthKeepingDone(kept), kept);
    for (const left of [
      'Fixed the treasury init issue',
      'Added treasury funding',
      'Fixed the payroll wizard and tightened the vault init path',
      'Fixed it by: Switching local dev config to devnet `NATIVE_MINT_2022`',
      'Fixed configuration: Added proper vitest globals configuration',
      'Created a new task (#015) for implementing the `session delete` command',
      'Created a new task specification (#014) for adding repository backend support',
      'Updated Core Methods section - Removed the `cleanup()` method from the API documentation.',
      'Updated Cleanup Considerations - Removed reference to the `cleanup()` method',
      'Updated the user journey section to reflect the need for larger canvases',
      'Updated .gitignore for Rust artifacts, logs and editor files',
      'Switched to Node.js 22: Used `nvm use 22` to switch from Node.js 23.7.0',
    ])
      assert.ok(!isWorthKeepingDone(left), left);
  });

  it('does not fall back on a closing sentence when the summary list it closes said what was done', async () => {
    const items = await harvestOf(
      [
        '## user',
        'Update the docs.',
        '## agent',
        "I've updated the documentation to reflect the current state of the Layers class:",
        '',
        '## Changes Made',
        '1. **Updated Core Methods section** - Removed the `cleanup()` method',
        '2. **Updated Memory Efficiency section** - Changed the wording',
      ].join('\n'),
    );
    assert.deepEqual(items.tasks_done, []);
  });
});
