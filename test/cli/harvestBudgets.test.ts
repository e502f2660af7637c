import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';
import { makeTempDir } from '../helpers/paths';

const SESSION = '7d1f0c2e-1111-4222-8333-944455556666';

/** A Claude Code session whose tool output makes the raw JSONL large while its transcript stays small. */
function claudeSession(toolOutputs: number, outputBytes: number): string {
  const records: object[] = [];
  const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 9, 30, s)).toISOString();
  const base = { isSidechain: false, cwd: '/home/dev/shop', sessionId: SESSION, version: '2.0.1' };
  records.push({
    ...base,
    type: 'user',
    uuid: 'u0',
    timestamp: at(0),
    message: { role: 'user', content: 'Fact: the build uses esbuild.\nPlease run the tests.' },
  });
  for (let i = 0; i < toolOutputs; i++) {
    records.push({
      ...base,
      type: 'assistant',
      uuid: `a${i}`,
      timestamp: at(1),
      message: {
        id: `m${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: 'npm test' } }],
      },
    });
    records.push({
      ...base,
      type: 'user',
      uuid: `r${i}`,
      timestamp: at(2),
      message: { role: 'user', content: [{ tool_use_id: `t${i}`, type: 'tool_result', content: 'ok '.repeat(outputBytes / 3) }] },
    });
  }
  records.push({
    ...base,
    type: 'assistant',
    uuid: 'end',
    timestamp: at(3),
    message: { id: 'mEnd', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'All tests pass.' }] },
  });
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

function oldMtime(file: string): void {
  const old = new Date(Date.now() - 3_600_000);
  fs.utimesSync(file, old, old);
}

describe('lore harvest budgets apply to the rendered transcript', function () {
  this.timeout(60_000);

  it('harvests a session whose raw JSONL is over 1 MB but renders small (--from)', async () => {
    const { root } = await makeWorkspace();
    const dir = makeTempDir('lore-sessions-');
    const file = path.join(dir, `${SESSION}.jsonl`);
    fs.writeFileSync(file, claudeSession(40, 40 * 1024));
    oldMtime(file);
    const raw = fs.statSync(file).size;
    assert.ok(raw > 1024 * 1024, `raw ${raw}`);

    const dry = await runCli(['harvest', '--root', root, '--from', file, '--json']);
    assert.equal(dry.code, 0, dry.stderr + dry.stdout);
    const json = JSON.parse(dry.stdout);
    const [c] = json.conversations;
    assert.equal(c.class, 'harvest');
    assert.equal(c.format, 'claude-code');
    assert.equal(c.turns > 0, true);
    assert.equal(c.rawBytes, raw);
    assert.ok(c.renderedBytes > 0 && c.renderedBytes < 64 * 1024, `rendered ${c.renderedBytes}`);
    assert.equal(c.started, '2026-11-20T09:30:00.000Z');
    assert.equal(json.harvestBytes, c.renderedBytes);
    assert.equal(json.harvestRawBytes, raw);
    assert.equal(json.estimatedTokens, Math.ceil(c.renderedBytes / 4));
    assert.equal(json.overSummarizeThreshold, 0);

    // A saved preview keeps the rendered sizes: applying it reports the same budgets.
    const planFile = path.join(dir, 'plan.json');
    const preview = await runCli(['harvest', '--root', root, '--from', file, '--preview', '--save-plan', planFile]);
    assert.equal(preview.code, 0, preview.stderr + preview.stdout);
    const applied = JSON.parse((await runCli(['harvest', '--root', root, '--apply-plan', planFile, '--json'])).stdout);
    assert.deepEqual(
      [applied.harvestBytes, applied.estimatedTokens, applied.conversations[0].renderedBytes],
      [c.renderedBytes, json.estimatedTokens, c.renderedBytes],
    );
    assert.match(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /^- the build uses esbuild\. \[from: /m);
    const entries = Object.values(JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')).entries) as Array<{ status: string }>;
    assert.deepEqual(
      entries.map((e) => e.status),
      ['harvested'],
    );
    assert.ok(fs.existsSync(file), 'a file outside the inbox is never reclaimed');
  });

  it('the dry run names a file without conversation turns: nothing to send, nothing estimated', async () => {
    const { root, inbox } = await makeWorkspace();
    const file = path.join(inbox, 'settings.json');
    fs.writeFileSync(file, '{"theme": "dark"}\n');
    const text = await runCli(['harvest', '--root', root]);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.includes(`not read (kept, never sent): ${file}: not a supported conversation format`), text.stdout);
    // Not counted among the files to harvest, in the text as in --json.
    assert.match(text.stdout, /^conversations: unrecognized:1$/m);
    assert.doesNotMatch(text.stdout, /new: /);
    const json = JSON.parse((await runCli(['harvest', '--root', root, '--json'])).stdout);
    const [c] = json.conversations;
    assert.deepEqual([c.class, c.status, c.turns, c.renderedBytes, c.rawBytes], ['unrecognized', undefined, 0, 0, 18]);
    assert.match(c.reason, /^not a supported conversation format/);
    assert.deepEqual([json.counts.harvest, json.counts.unrecognized, json.estimatedTokens], [0, 1, 0]);
  });

  it('keeps and reports a conversation whose rendering is over 1 MB', async () => {
    const { root, inbox } = await makeWorkspace();
    const file = path.join(inbox, 'long.md');
    fs.writeFileSync(file, transcript('long', 'Fact: long.\n'.repeat(100_000)));
    const raw = fs.statSync(file).size;

    const text = await runCli(['harvest', '--root', root]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /too large to harvest \(kept, never sent\): .*long\.md: 1\.\d+ MB rendered from 1\.\d+ MB on disk \(rendered transcript over 1\.0 MB\)/,
    );
    const json = JSON.parse((await runCli(['harvest', '--root', root, '--json'])).stdout);
    const [c] = json.conversations;
    assert.equal(c.class, 'too-large');
    assert.equal(c.format, 'lore-transcript');
    assert.equal(c.rawBytes, raw);
    assert.ok(c.renderedBytes > 1024 * 1024, `rendered ${c.renderedBytes}`);
    assert.equal(json.harvestBytes, 0);

    const applied = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.ok(fs.existsSync(file));
    const entries = Object.values(JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')).entries) as Array<{ status: string }>;
    assert.deepEqual(
      entries.map((e) => e.status),
      ['too-large'],
    );
    assert.equal(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), '# Facts\n');
  });
});
