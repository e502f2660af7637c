import * as assert from 'node:assert/strict';
import { commandOf, jobOf } from '../../../../src/core/services/providers/rules/rulesAttempts';
import { RulesProvider } from '../../../../src/core/services/providers/rules/rulesProvider';
import { harvestOf } from './rulesSupport';

describe('rules extractor failed attempts and playbooks', () => {
  it('keeps the command that replaced a failed one, and the failed one as a failed attempt', async () => {
    const items = await harvestOf(
      '## user\nrun the tests\n\n## agent\n> [tool:Bash] yarn test → error\n> [tool:Bash] ls\n> [tool:Bash] npm test\n\nThe tests pass.\n',
    );
    assert.deepEqual(items.playbooks, [{ name: 'Run the tests', steps: '`npm test`' }]);
    assert.deepEqual(items.facts, [{ statement: 'Did not work: `yarn test` (`npm test` did)' }]);
  });

  it('keeps both commands in a summary, so harvesting the summary finds the same items', async () => {
    const transcript = `## user\nrun the tests\n\n## agent\n> [tool:Bash] yarn test → error\n> [tool:Bash] npm test\n\n${'Looked around the repository. '.repeat(80)}\n`;
    const summary = (await new RulesProvider().generate({ task: 'summarize', instructions: '', content: transcript })).text;
    assert.ok(summary.length < transcript.length / 2, summary);
    assert.deepEqual(await harvestOf(summary), await harvestOf(transcript));
  });

  it('reads Codex exit codes and leaves the working folder out', async () => {
    const items = await harvestOf(
      '## user\nbuild\n\n## agent\n> [tool:exec_command] cd /Users/ann/app && python -m pytest → exit 127\n> [tool:exec_command] cd /Users/ann/app && python3 -m pytest -q\n',
    );
    assert.deepEqual(items.playbooks, [{ name: 'Run the tests', steps: '`python3 -m pytest -q`' }]);
    assert.ok(!JSON.stringify(items).includes('/Users/ann'));
  });

  it('keeps nothing when the failure was fixed in the code, or nothing replaced it', async () => {
    const fixed = await harvestOf(
      '## user\nfix\n\n## agent\n> [tool:Bash] npm test → error\n> [tool:Edit] src/a.ts\n> [tool:Bash] npm test -- --watch=false\n',
    );
    assert.deepEqual([fixed.playbooks, fixed.facts], [[], []]);
    const unanswered = await harvestOf('## user\nfix\n\n## agent\n> [tool:Bash] yarn test → error\n\nThe tests cannot run here.\n');
    assert.deepEqual([unanswered.playbooks, unanswered.facts], [[], []]);
    const otherJob = await harvestOf('## user\nfix\n\n## agent\n> [tool:Bash] yarn test → error\n> [tool:Bash] npm run build\n');
    assert.deepEqual(otherJob.playbooks, []);
  });

  it('names the job a command does, and skips commands it cannot rerun', () => {
    assert.equal(jobOf('npm run test:unit'), 'test:unit');
    assert.equal(jobOf('pnpm t'), 'test');
    assert.equal(jobOf('npx vitest run'), 'test');
    assert.equal(jobOf('CI=1 cargo build --release'), 'build');
    assert.equal(jobOf('git status'), undefined);
    assert.equal(jobOf('ls -la'), undefined);
    assert.equal(commandOf('cd /repo && npm test'), 'npm test');
    assert.equal(commandOf('rg -n "x" -S…'), undefined);
    assert.equal(commandOf("cat <<'EOF' > a.txt"), undefined);
  });

  it('keeps nothing when only a number changed: a busy port that day is not a failed approach', async () => {
    const items = await harvestOf(
      '## user\nstart it\n\n## agent\n> [tool:exec_command] npm run dev -- --port 3000 → exit 1\n> [tool:exec_command] npm run dev -- --port 3001\n',
    );
    assert.deepEqual([items.playbooks, items.facts], [[], []]);
  });
});
