import * as assert from 'node:assert/strict';
import { RulesProvider } from '../../../../src/core/services/providers/rules/rulesProvider';
import { harvestOf } from './rulesSupport';
import { classifySection, sectionHeading, summarySentence } from '../../../../src/core/services/providers/rules/rulesSections';

const provider = new RulesProvider();

const harvest = harvestOf;

async function summarize(content: string): Promise<string> {
  return (await provider.generate({ task: 'summarize', instructions: '', content })).text;
}

const statements = (items: Array<{ statement: string }>): string[] => items.map((item) => item.statement);

describe('rules extractor: sections', () => {
  it('reads headings and bold labels, whatever decorates them', () => {
    assert.deepEqual(sectionHeading('### 🚀 **Key Decisions**'), { level: 3, text: 'Key Decisions' });
    assert.deepEqual(sectionHeading('**Summary:**'), { level: 7, text: 'Summary' });
    assert.equal(sectionHeading('**Summary:** did it'), undefined);
    assert.equal(classifySection('Key Investigation Findings Summary'), 'facts');
    assert.equal(classifySection('Key Rust Adaptations'), 'decisions');
    assert.equal(classifySection('Updated Justfile'), 'commands');
    assert.equal(classifySection('Command Syntax Validation'), undefined);
    assert.equal(classifySection('Summary'), 'summary');
    assert.equal(classifySection('Implementation Plan'), undefined);
  });

  it('takes a list under "Key decisions" as decisions, in any turn', async () => {
    const items = await harvest(
      [
        '## user',
        '## Key Decisions',
        '1. **Reuse the error framework**: build on it rather than a new system.',
        '2. Keep detailed logs.',
        '## Next Steps',
        '1. Implement it.',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.decisions), [
      'Reuse the error framework: build on it rather than a new system.',
      'Keep detailed logs.',
    ]);
    assert.deepEqual(items.tasks_open, []);
  });

  it('keeps findings through plain subheadings, and stops at the next classified or higher heading', async () => {
    const items = await harvest(
      [
        '## agent',
        '## Key Findings',
        '### Storage',
        '- **Location**: `~/.app/data/`',
        '### Format',
        '- JSONL, one object per line',
        '## Plan',
        '- read the files',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.facts), ['Location: `~/.app/data/`', 'JSONL, one object per line']);
  });

  it('takes a summary only after the last request: earlier ones describe plans', async () => {
    const transcript = [
      '## user',
      'Please plan the export.',
      '## agent',
      '**Summary:** export sessions as files',
      '## user',
      'Go ahead.',
      '## agent',
      '## Summary',
      'I ported the library to Rust with the following:',
      '### Modules Ported',
      '1. **string_utils** - `reverse()`',
      '## agent',
      '**Summary:** Created `hello.sh` and ran it.',
    ].join('\n');
    const items = await harvest(transcript);
    assert.deepEqual(statements(items.tasks_done), ['Ported the library to Rust', 'Created `hello.sh` and ran it.']);
  });

  it('does not take a summary in the future tense or the imperative: it is a plan', async () => {
    const items = await harvest(
      [
        '## user',
        'Start task 8.',
        '## agent',
        '**Summary of changes:**',
        '- `tasks list` will hide DONE tasks.',
        '- Add a `--all` option.',
        '**Summary:** The filter will move to the domain layer.',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.tasks_done), []);
  });

  it('takes the list after "Done. …:" in the final answer as work done', async () => {
    const items = await harvest(
      [
        '## user',
        'Add multiply.',
        '## agent',
        'Done. I have added:',
        '1. **`multiply`** in `math.py` - multiplies two numbers',
        '',
        'Tests pass.',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.tasks_done), ['`multiply` in `math.py` - multiplies two numbers']);
  });

  it('makes a playbook of the commands listed under a commands heading, not of a checked list', async () => {
    const items = await harvest(
      [
        '## agent',
        '### Updated Justfile:',
        '- `just check` - runs the tests with coverage',
        '- `just lint` - cargo clippy',
        '**Command Syntax Validation:**',
        '- `minsky session dir` — correct',
      ].join('\n'),
    );
    assert.deepEqual(items.playbooks, [
      { name: 'Updated Justfile', steps: '`just check` - runs the tests with coverage; `just lint` - cargo clippy' },
    ]);
  });

  it('makes no playbook of a list of bare script names read off package.json', async () => {
    const items = await harvest(
      [
        '## agent',
        '### Available npm Scripts',
        '- `dev`: Start development server',
        '- `build`: Build for production',
        '### Commands',
        '- `npm run dev -- --port 3001`: start on another port',
      ].join('\n'),
    );
    assert.deepEqual(items.playbooks, [{ name: 'Commands', steps: '`npm run dev -- --port 3001`: start on another port' }]);
  });

  it('takes the rule a person states when asking for one, and the conventions they list', async () => {
    const items = await harvest(
      [
        '## user',
        'create a rule that specifies that when fixing a bug to first always create a failing test',
        '## user',
        'add markdown file conventions to CONVENTIONS.md',
        'Ensure each sentence is on its own line.',
        'Bullet lists use the - marker.',
        'CONVENTIONS.md',
        '## agent',
        'create a rule that says agents may not do this',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.decisions), [
      'When fixing a bug to first always create a failing test',
      'Ensure each sentence is on its own line.',
      'Bullet lists use the - marker.',
    ]);
  });

  it('drops an agent’s Note: caveats and checklists, keeps its explicit markers', async () => {
    const items = await harvest(
      ['## agent', 'Note: this may take a while', '- [ ] read the file', '- [x] listed the folder', 'Fact: the API is rate limited'].join(
        '\n',
      ),
    );
    assert.deepEqual(statements(items.facts), ['the API is rate limited']);
    assert.deepEqual(items.tasks_open, []);
    assert.deepEqual(items.tasks_done, []);
  });

  it('ignores Aider edit blocks even where their fence went astray', async () => {
    const items = await harvest(
      [
        '## agent',
        '<<<<<<< SEARCH',
        'old',
        '=======',
        '- Note: rule disabled',
        'Decision: file content',
        '>>>>>>> REPLACE',
        'Decision: mine',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.decisions), ['mine']);
    assert.deepEqual(items.facts, []);
  });

  it('never takes tool lines: a quoted Decision: or summary is not one', async () => {
    const items = await harvest(
      ['## user', 'Do it.', '## agent', '> [tool:Bash] echo "Decision: use X"', '> **Summary:** from a tool', 'Done.'].join('\n'),
    );
    assert.deepEqual(items.decisions, []);
    assert.deepEqual(items.tasks_done, []);
  });

  it('keeps section items through a summary', async () => {
    const filler = 'A long explanation without anything worth keeping in it at all. '.repeat(8);
    const input = [
      '## user',
      'Port it.',
      filler,
      '## agent',
      filler,
      '### Key Decisions:',
      '- Used `Result` instead of exceptions',
      filler,
      '## user',
      filler,
      'Thanks.',
      '## agent',
      '**Summary:** Ported the library to Rust.',
      '### Updated Justfile:',
      '- `just test` - runs the tests',
      filler,
    ].join('\n');
    const summary = await summarize(input);
    assert.ok(summary.length < input.length / 2, `summary ${summary.length} vs input ${input.length}`);
    assert.deepEqual(await harvest(summary), await harvest(input));
    assert.equal((await harvest(input)).tasks_done.length, 1);
  });

  it('does not read a summarize chunk without turn headings as a person’s words', async () => {
    const chunk = 'Conversation: c1 (part 2 of 3)\n\nNote: this may take a while\n- [ ] read the file\nDecision: use X\n';
    const summary = await summarize(chunk);
    assert.ok(summary.includes('Decision: use X'));
    assert.ok(!summary.includes('Note:'), summary);
    assert.ok(!summary.includes('read the file'), summary);
  });

  it('takes the closing "Done. …" sentence of the final answer only when it has no other summary', async () => {
    const alone = await harvest(['## user', 'Change test.txt.', '## agent', 'Done. I changed `test.txt` and committed it.'].join('\n'));
    assert.deepEqual(statements(alone.tasks_done), ['Changed `test.txt` and committed it']);
    const withSummary = await harvest(
      [
        '## user',
        'Write hello.sh.',
        '## agent',
        'Done. I created `hello.sh`.',
        '## agent',
        '**Summary:** Created `hello.sh` and ran it.',
      ].join('\n'),
    );
    assert.deepEqual(statements(withSummary.tasks_done), ['Created `hello.sh` and ran it.']);
    const earlier = await harvest(['## user', 'A.', '## agent', 'Done. I did A.', '## user', 'Now B?'].join('\n'));
    assert.deepEqual(earlier.tasks_done, []);
  });

  it('takes a choice a person settles with "let’s just …", not an invitation to try', async () => {
    const items = await harvest(
      [
        '## user',
        'ok, lets just rename session cd to dir',
        "let's try again",
        "Let's see what happens",
        '## agent',
        "Let's use SQLite.",
      ].join('\n'),
    );
    assert.deepEqual(statements(items.decisions), ['Rename session cd to dir']);
  });

  it('takes a list item led by a bold limitation or gotcha as a fact, its first sentence only', async () => {
    const items = await harvest(
      [
        '## agent',
        '- **CLI Limitation:** A CLI cannot change the parent shell’s directory (a process limit). If you run it, only its own changes.',
        '- **Common Solution:** print the path',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.facts), ['CLI Limitation: A CLI cannot change the parent shell’s directory (a process limit).']);
  });

  it('states a summary sentence without its speaker', () => {
    assert.equal(summarySentence("I've successfully created the app with the following:"), 'Created the app');
    assert.equal(summarySentence('We moved CI to Node 24.'), 'Moved CI to Node 24');
  });
});
