/**
 * Untrusted text made well-formed at each door it enters by (wellFormedText): an agent's write
 * through the engine (as VS Code's tools reach it, without the MCP transport), a task artifact, a
 * hook's input and a model's reply. A lone surrogate (half an emoji) becomes U+FFFD, so what is
 * written is what is compared with what was written.
 */
import * as assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseHarvestReply } from '../../../src/core/services/harvest/parseReply';
import { parseHookInput } from '../../../src/core/services/hooks/hookInput';
import { changeItem, rememberItem } from '../../../src/core/store/items/agentWrites';
import { itemId } from '../../../src/core/model/itemId';
import { ensureStoreLayout } from '../../../src/core/store/initStore';
import { storePaths } from '../../../src/core/store/storePaths';
import { recordArtifact } from '../../../src/core/services/tasks/recordArtifact';
import { taskLogFile } from '../../../src/core/services/tasks/taskFiles';
import { wellFormed, wellFormedDeep } from '../../../src/core/base/wellFormedText';
import { makeTempDir } from '../../helpers/paths';

const HIGH = '\ud83d';
const LOW = '\ude00';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('well-formed untrusted text', () => {
  it('replaces lone surrogates only: a whole pair, the escape range and plain text stay', () => {
    assert.equal(wellFormed(`a${HIGH}b`), 'a\ufffdb');
    assert.equal(wellFormed(`a${LOW}b`), 'a\ufffdb');
    assert.equal(wellFormed(`end${HIGH}`), 'end\ufffd');
    assert.equal(wellFormed('\udcff'), '\ufffd');
    assert.equal(wellFormed(`ok ${HIGH}${LOW} ok`), 'ok \u{1f600} ok');
    assert.equal(wellFormed('plain é 日本'), 'plain é 日本');
    assert.deepEqual(wellFormedDeep({ a: [`x${HIGH}`, 1, null, { [`k${LOW}`]: true }] }), { a: ['x\ufffd', 1, null, { 'k\ufffd': true }] });
  });

  it("an agent's remember and update through the engine write their line once", async () => {
    const ws = makeTempDir();
    const paths = storePaths(path.join(ws, '.lore'), ws);
    ensureStoreLayout(paths);
    const context = { source: `claude-code:s${HIGH}`, today: new Date('2026-11-27T10:00:00Z'), mode: 'direct' as const };
    const remembered = await rememberItem(paths, { kind: 'fact', statement: `deploys post ${HIGH} to the channel` }, context);
    assert.equal(remembered.status, 'recorded');
    assert.equal(remembered.line, '- deploys post \ufffd to the channel [from: claude-code:s\ufffd, 2026-11-27]');
    const facts = () => fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8');
    assert.equal(count(facts(), 'deploys post'), 1, facts());
    const updated = await changeItem(
      paths,
      { op: 'update', id: remembered.id!, text: `deploys post ${LOW} to the release channel` },
      context,
    );
    assert.equal(updated.status, 'recorded');
    assert.equal(count(facts(), 'deploys post \ufffd to the release channel'), 1, facts());
    assert.equal(count(facts(), 'deploys post'), 1, facts());
    assert.equal(updated.id, itemId(updated.line!));
  });

  it('a task artifact is recorded well-formed, in its log and its page', async () => {
    const paths = storePaths(path.join(makeTempDir(), '.lore'));
    const { artifact } = await recordArtifact(
      paths,
      { artifact_kind: 'task_start', goal: `refunds twice ${HIGH}`, hypothesis: `retries ${LOW}` },
      { agentId: 'a', now: () => new Date('2026-11-27T10:00:00Z') },
    );
    assert.equal(artifact.goal, 'refunds twice \ufffd');
    const log = fs.readFileSync(taskLogFile(paths, artifact.task_id));
    assert.ok(isUtf8(log));
    assert.ok(!/\\ud8|\\udc|\\ude/i.test(log.toString('utf8')), 'no escaped lone surrogate in the log');
  });

  it("a hook's session id, prompt and tool paths arrive well-formed, and a prompt cut through an emoji leaves U+FFFD", () => {
    const prompt = `${'x'.repeat(64 * 1024 - 1)}\u{1f600}`;
    const parsed = parseHookInput(JSON.stringify({ session_id: `s${HIGH}`, cwd: '/w', hook_event_name: 'UserPromptSubmit', prompt }));
    assert.ok(!('problem' in parsed));
    assert.equal(parsed.sessionId, 's\ufffd');
    assert.equal(parsed.prompt!.length, 64 * 1024);
    assert.ok(parsed.prompt!.endsWith('x\ufffd'));
    const tool = parseHookInput(
      JSON.stringify({ session_id: 's', cwd: '/w', hook_event_name: 'PostToolUse', tool_input: { file_path: `/w/a${LOW}.ts` } }),
    );
    assert.ok(!('problem' in tool));
    assert.deepEqual(tool.toolFiles, ['/w/a\ufffd.ts']);
  });

  it("a model's reply with half an emoji gives well-formed items", () => {
    const { items } = parseHarvestReply(JSON.stringify({ facts: [{ statement: `the bot posts ${HIGH}`, detail: `in ${LOW}` }] }));
    assert.equal(items.facts[0].statement, 'the bot posts \ufffd');
    assert.equal(items.facts[0].detail, 'in \ufffd');
  });
});
