/**
 * Text an agent sends with a character cut in half (a lone UTF-16 surrogate, e.g. an emoji's
 * first half "\ud83d" left by a truncation) is stored once, as U+FFFD, and reads back as what the
 * reply said was written. Before, the line written (U+FFFD after UTF-8 encoding) never compared
 * equal to the line asked for, so the write's re-check appended it again: six copies in facts.md.
 * A lone surrogate of the range Lore uses to keep a person's invalid bytes (U+DC80–U+DCFF) must
 * not turn into a raw byte either.
 */
import * as assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { itemId } from '../../src/core/model/itemId';
import { setStoreTrust } from '../../src/core/store/storeTrust';
import { wellFormed } from '../../src/core/base/wellFormedText';
import { makeWorkspace, runCli } from '../helpers/cli';
import { connectLoreMcp } from '../helpers/mcpClient';

const HALF_EMOJI = '\ud83d';
const ESCAPE_RANGE = '\udcff';
const ESBUILD = '- the build uses esbuild for bundling [from: c1, 2026-11-20]';

interface WriteReply {
  status: string;
  id?: string;
  line?: string;
  file?: string;
}

describe('lore mcp: text with a character cut in half', function () {
  this.timeout(60_000);
  let client: Client;
  let root: string;
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
  const count = (text: string, part: string) => text.split(part).length - 1;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { result, data: result.structuredContent as unknown as WriteReply };
  };
  const direct = () => {
    fs.writeFileSync(path.join(root, 'config.json'), '{"agentWrites": "direct"}\n');
    setStoreTrust(root, true); // The person's own setting (storeTrust.ts).
  };

  beforeEach(async () => {
    ({ root } = await makeWorkspace());
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${ESBUILD}\n`);
    ({ client } = await connectLoreMcp(root, { clientName: 'claude-code' }));
  });
  afterEach(async () => {
    await client.close();
  });

  it('direct remember writes the item once, as the reply names it, and search finds it by that id', async () => {
    direct();
    const { data } = await call('remember', {
      kind: 'fact',
      statement: `the deploy channel is marked ${HALF_EMOJI} in the topic`,
      session: `s${HALF_EMOJI}1`,
    });
    assert.equal(data.status, 'recorded');
    assert.equal(data.line, wellFormed(data.line!), 'the reply names the line as written');
    assert.match(data.line!, /marked \ufffd in the topic \[from: claude-code:s\ufffd1, /);
    assert.equal(count(read('facts.md'), 'the deploy channel'), 1, read('facts.md'));
    assert.ok(read('facts.md').includes(data.line!));
    assert.equal(data.id, itemId(data.line!));
    const got = await call('search', { ids: [data.id!] });
    assert.equal((got.result.structuredContent as { items: Array<{ id: string }> }).items[0]?.id, data.id);
    const again = await call('remember', {
      kind: 'fact',
      statement: `the deploy channel is marked ${HALF_EMOJI} in the topic`,
      session: `s${HALF_EMOJI}1`,
    });
    assert.equal(again.data.status, 'unchanged', 'the same call again finds it recorded');
    assert.equal(count(read('facts.md'), 'the deploy channel'), 1);
  });

  it('a lone surrogate of the escape range stays a character: the file stays valid UTF-8', async () => {
    direct();
    const { data } = await call('remember', { kind: 'fact', statement: `raw byte ${ESCAPE_RANGE} here` });
    assert.equal(data.status, 'recorded');
    const bytes = fs.readFileSync(path.join(root, 'facts.md'));
    assert.ok(isUtf8(bytes), 'no raw byte was planted in facts.md');
    assert.equal(count(bytes.toString('utf8'), 'raw byte \ufffd here'), 1);
  });

  it('direct change_item update and supersede write one line each', async () => {
    direct();
    const updated = await call('change_item', { action: 'update', id: itemId(ESBUILD), text: `the build uses esbuild ${HALF_EMOJI} 0.25` });
    assert.equal(updated.data.status, 'recorded');
    assert.equal(count(read('facts.md'), 'esbuild \ufffd 0.25'), 1, read('facts.md'));
    const superseded = await call('change_item', { action: 'supersede', id: updated.data.id!, text: `the build uses tsup ${HALF_EMOJI}` });
    assert.equal(superseded.data.status, 'recorded');
    assert.equal(count(read('facts.md'), 'the build uses tsup \ufffd'), 1, read('facts.md'));
    assert.equal(count(read('facts.md'), 'esbuild \ufffd 0.25'), 1, 'the superseded line stays, once');
  });

  it('pending remember waits once in review.md, and accepting it writes one line', async () => {
    const { data } = await call('remember', { kind: 'decision', statement: `we ship on Tuesdays ${HALF_EMOJI}` });
    assert.equal(data.status, 'pending');
    assert.equal(count(read('review.md'), 'we ship on Tuesdays'), 1, read('review.md'));
    assert.equal((await runCli(['review', 'accept', '1', '--root', root])).code, 0);
    assert.equal(count(read('decisions.md'), 'we ship on Tuesdays \ufffd'), 1, read('decisions.md'));
  });

  it('task tools record the text as well-formed characters', async () => {
    const start = await call('tasks', { action: 'start', goal: `stop duplicate refunds ${HALF_EMOJI}`, session: 's1' });
    assert.equal(start.data.status, 'recorded');
    const taskId = (start.result.structuredContent as { task_id: string }).task_id;
    const log = fs
      .readdirSync(path.join(root, 'tasks'))
      .map((f) => read(path.join('tasks', f)))
      .join('');
    assert.ok(!/\\ud83d/i.test(log) && log.includes('stop duplicate refunds \ufffd'), log);
    const got = (await client.callTool({ name: 'tasks', arguments: { action: 'get', task_id: taskId } })) as CallToolResult;
    assert.match(JSON.stringify(got.structuredContent), /stop duplicate refunds \ufffd/);
  });
});
