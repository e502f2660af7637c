/**
 * A store that arrives with symbolic links in it (git keeps them) never gets Lore to write
 * through them: not a harvest, not an agent's remember or task write, not the index.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { writeFileAtomic } from '../../src/core/base/atomicWrite';
import { appendInPlace } from '../../src/core/base/appendInPlace';
import { appendNoFollow, LinkInStoreError } from '../../src/core/base/storeLinks';
import { storePaths } from '../../src/core/store/storePaths';
import { makeWorkspace, runCli, snapshotTree, transcript } from '../helpers/cli';
import { connectLoreMcp, logged } from '../helpers/mcpClient';
import { makeTempDir } from '../helpers/paths';

/** A file outside the store, and a folder outside it, with what they hold now. */
function outside(): { file: string; dir: string; text: string } {
  const base = makeTempDir('lore-outside-');
  const file = path.join(base, 'precious.txt');
  const text = "a person's file outside the store\n";
  fs.writeFileSync(file, text);
  const dir = path.join(base, 'folder');
  fs.mkdirSync(dir);
  return { file, dir, text };
}

/** Replaces `entry` of the store with a link to `target` (as a clone of a planted repository has it). */
function plantLink(entry: string, target: string): void {
  fs.rmSync(entry, { recursive: true, force: true });
  fs.symlinkSync(target, entry);
}

const linkMessage = /is a symbolic link.*Lore does not write through links in its store/;

describe('Lore never writes through a symbolic link in the store', function () {
  this.timeout(60_000);

  it('harvest --apply refuses a category file that is a link, names it, and leaves the linked file as it was', async () => {
    const { root, inbox } = await makeWorkspace();
    const { file, text } = outside();
    plantLink(path.join(root, 'facts.md'), file);
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-link', 'Fact: the cache is redis.'));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.notEqual(result.code, 0, result.stdout);
    assert.match(result.stderr, linkMessage);
    assert.match(result.stderr, /facts\.md/);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
  });

  it('harvest --apply that meets a linked category file writes none of the others first', async () => {
    const { root, inbox } = await makeWorkspace();
    const { file } = outside();
    plantLink(path.join(root, 'decisions.md'), file);
    const factsBefore = fs.readFileSync(path.join(root, 'facts.md'), 'utf8');
    fs.writeFileSync(
      path.join(inbox, 'a.md'),
      transcript('ses-link', 'Fact: the queue lives in src/queue.ts.\nDecision: use postgres for the queue.'),
    );
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.notEqual(result.code, 0, result.stdout);
    assert.match(result.stderr, /decisions\.md/);
    assert.equal(
      fs.readFileSync(path.join(root, 'facts.md'), 'utf8'),
      factsBefore,
      'facts.md was written before the link stopped the apply',
    );
    assert.ok(
      !fs.existsSync(path.join(root, 'transcripts')) || fs.readdirSync(path.join(root, 'transcripts')).length === 0,
      'a transcript was written before the link stopped the apply',
    );
  });

  it('harvest --apply writes no transcript into a transcripts folder that is a link', async () => {
    const { root, inbox } = await makeWorkspace();
    const { dir } = outside();
    fs.mkdirSync(path.join(root, 'transcripts'), { recursive: true });
    plantLink(path.join(root, 'transcripts'), dir);
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-link', 'Fact: the cache is redis.'));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.notEqual(result.code, 0, result.stdout);
    assert.match(result.stderr, linkMessage);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('harvest --apply with decisions.md linked to a file outside the workspace exits 1, says what to do, and the file keeps every byte', async () => {
    const { root, inbox } = await makeWorkspace();
    const base = makeTempDir('lore-outside-');
    const target = path.join(base, 'team-decisions.md');
    const bytes = Buffer.from('# Someone else’s decisions\r\n\r\n- keep\r\n', 'utf8');
    fs.writeFileSync(target, bytes);
    plantLink(path.join(root, 'decisions.md'), path.relative(root, target)); // relative, as git stores it
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-decide', 'Decision: use postgres for the queue.'));
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, /\.lore\/decisions\.md is a symbolic link \(to .*team-decisions\.md, outside the store\)/);
    assert.match(result.stderr, /nothing was written\. Replace it with a regular file/);
    assert.ok(fs.readFileSync(target).equals(bytes));
    assert.deepEqual(fs.readdirSync(inbox), ['a.md'], 'the conversation stays to be harvested once the link is replaced');
  });

  it('harvest --apply takes no conversation out of an inbox that is a link', async () => {
    const { root } = await makeWorkspace();
    const { dir } = outside();
    fs.writeFileSync(path.join(dir, 'a.md'), transcript('ses-inbox', 'Fact: the cache is redis.'));
    const before = snapshotTree(dir);
    plantLink(path.join(root, 'inbox'), dir);
    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.notEqual(result.code, 0, result.stdout);
    assert.match(result.stderr, /\.lore\/inbox is a symbolic link/);
    assert.deepEqual(snapshotTree(dir), before);
    assert.doesNotMatch(fs.readFileSync(path.join(root, 'facts.md'), 'utf8'), /redis/, 'nothing was harvested before the refusal');
  });

  it('neither harvest --apply nor undo deletes or moves files in a folder that .undo/ or .undo/inbox links to', async () => {
    const { root, inbox } = await makeWorkspace();
    fs.writeFileSync(path.join(inbox, 'a.md'), transcript('ses-one', 'Fact: the cache is redis.'));
    assert.equal((await runCli(['harvest', '--root', root, '--apply'])).code, 0);
    const kept = path.join(root, '.undo', 'inbox');
    const { dir } = outside();
    for (const name of fs.readdirSync(kept)) fs.copyFileSync(path.join(kept, name), path.join(dir, name));
    const before = snapshotTree(dir);
    plantLink(kept, dir);
    const undo = await runCli(['undo', '--root', root]);
    assert.notEqual(undo.code, 0, undo.stdout);
    assert.match(undo.stderr, /\.lore\/\.undo\/inbox is a symbolic link/);
    assert.deepEqual(snapshotTree(dir), before);

    plantLink(path.join(root, '.undo'), dir);
    fs.writeFileSync(path.join(inbox, 'b.md'), transcript('ses-two', 'Fact: the queue is kafka.'));
    const again = await runCli(['harvest', '--root', root, '--apply']);
    assert.notEqual(again.code, 0, again.stdout);
    assert.match(again.stderr, /\.lore\/\.undo is a symbolic link/);
    assert.deepEqual(snapshotTree(dir), before);
  });

  describe("agents' writes over MCP", () => {
    let client: Client | undefined;
    afterEach(async () => client?.close());
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client!.callTool({ name, arguments: args })) as CallToolResult;
      return {
        result,
        text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
        data: (result.structuredContent ?? {}) as Record<string, unknown>,
      };
    };

    it('remember refuses a review.md that is a link', async () => {
      const { root } = await makeWorkspace();
      const { file, text } = outside();
      plantLink(path.join(root, 'review.md'), file);
      ({ client } = await connectLoreMcp(root));
      const reply = await call('remember', { statement: 'the deploy key lives in vault', kind: 'fact' });
      assert.match(reply.text, linkMessage);
      assert.equal(fs.readFileSync(file, 'utf8'), text);
    });

    it('task_start writes nothing into a tasks folder that is a link, and task_progress appends nothing to a task log that is one', async () => {
      const { root } = await makeWorkspace();
      let serverLog: () => string;
      ({ client, stderr: serverLog } = await connectLoreMcp(root));
      const started = await call('tasks', { action: 'start', goal: 'Find the flaky test' });
      assert.equal(started.data.status, 'recorded', started.text);
      const taskId = started.data.task_id as string;
      const log = path.join(root, 'tasks', `${taskId}.jsonl`);
      const { file, dir } = outside();
      fs.copyFileSync(log, file);
      const before = fs.readFileSync(file, 'utf8');
      plantLink(log, file);
      const progress = await call('tasks', { action: 'progress', task_id: taskId, summary: 'bisected to the retry test' });
      assert.notEqual(progress.data.status, 'recorded', progress.text);
      // A log linked out of the store is not read either: the task reads as unknown, and the log names the link.
      assert.match(progress.text, /no task/);
      await logged(serverLog, /tasks\/[^ ]+\.jsonl is a symbolic link .*Lore does not read it/);
      assert.equal(fs.readFileSync(file, 'utf8'), before);

      await client.close();
      const other = (await makeWorkspace()).root;
      plantLink(path.join(other, 'tasks'), dir);
      ({ client } = await connectLoreMcp(other));
      const refused = await call('tasks', { action: 'start', goal: 'Write anywhere' });
      assert.notEqual(refused.data.status, 'recorded', refused.text);
      assert.deepEqual(fs.readdirSync(dir), []);
    });
  });

  it('every write of the substrate refuses a link in the store (a note file, a folder on the way, a log, the index) and names it', async () => {
    const root = path.join(makeTempDir('lore-links-'), '.lore');
    const paths = storePaths(root);
    fs.mkdirSync(paths.files, { recursive: true });
    const { file, dir, text } = outside();
    plantLink(path.join(paths.files, 'src'), dir);
    const note = path.join(paths.files, 'src', 'app.ts.md');
    assert.throws(
      () => writeFileAtomic(note, 'note\n'),
      (e: unknown) => e instanceof LinkInStoreError && e.link === path.join(paths.files, 'src') && e.file === note,
    );
    plantLink(path.join(paths.files, 'own.md'), file);
    const version = fs.statSync(file, { bigint: true });
    assert.throws(() => appendInPlace(path.join(paths.files, 'own.md'), version, Buffer.from('more\n'), true), LinkInStoreError);
    assert.throws(() => writeFileAtomic(path.join(paths.files, 'own.md'), 'replaced\n'), LinkInStoreError);
    fs.mkdirSync(path.join(root, '.logs'));
    plantLink(path.join(root, '.logs', 'hook.log'), file);
    assert.throws(() => appendNoFollow(path.join(root, '.logs', 'hook.log'), 'line\n'), LinkInStoreError);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    assert.deepEqual(fs.readdirSync(dir), []);
    assert.ok(fs.lstatSync(path.join(paths.files, 'own.md')).isSymbolicLink(), 'the link itself is left for the person to look at');

    // The search index: a linked .index/ gets no database.
    plantLink(paths.index, dir);
    const search = await runCli(['search', '--root', root, 'anything']);
    assert.match(search.stderr + search.stdout, linkMessage);
    assert.deepEqual(fs.readdirSync(dir), []);
    assert.ok(Object.keys(snapshotTree(dir)).length === 0);
  });
});
