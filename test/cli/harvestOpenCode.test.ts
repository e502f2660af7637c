import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assembleSession, listStorageSessions } from '../../src/core/services/conversations/opencodeStore';
import { makeWorkspace, runCli, snapshotTree } from '../helpers/cli';
import { buildOpenCodeDb } from '../helpers/opencodeDb';
import { FIXTURES, makeTempDir } from '../helpers/paths';

const STORAGE = path.join(FIXTURES, 'opencode', 'storage');
const PROJECT = '4f9c2a7e1b3d5c6a8e0f2b4d6c8a0e1f3b5d7c9a';
const SESSIONS = ['ses_5d2a8f1c3ffeQhX2kLm9NpRsTa', 'ses_5d2b11aa2ffeHelloWorld0002'];

interface JsonConversation {
  path: string;
  sha256: string;
  class: string;
  format?: string;
  turns?: number;
  started?: string;
  inInbox: boolean;
}

/** OpenCode's data folder (~/.local/share/opencode) with the fixture storage, written a day ago. */
function openCodeData(): string {
  const data = makeTempDir('lore-opencode-');
  fs.cpSync(STORAGE, path.join(data, 'storage'), { recursive: true });
  const dayAgo = new Date(Date.now() - 24 * 3600_000);
  for (const entry of fs.readdirSync(data, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) fs.utimesSync(path.join(entry.parentPath, entry.name), dayAgo, dayAgo);
  }
  return data;
}

describe('lore harvest --from an OpenCode storage folder or database', function () {
  this.timeout(60_000);

  it('offers one conversation per top-level session, named by its session file, hashed over all its files', async () => {
    const { root } = await makeWorkspace();
    const storage = path.join(openCodeData(), 'storage');
    const result = await runCli(['harvest', '--root', root, '--from', storage, '--dry-run', '--json']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const json = JSON.parse(result.stdout) as { conversations: JsonConversation[]; problems: unknown[] };
    assert.deepEqual(
      json.conversations.map((c) => [path.relative(storage, c.path), c.class, c.format, c.turns, c.started, c.inInbox]),
      [
        [path.join('session', PROJECT, `${SESSIONS[0]}.json`), 'harvest', 'opencode', 7, '2026-03-02T09:00:00.000Z', false],
        [path.join('session', PROJECT, `${SESSIONS[1]}.json`), 'harvest', 'opencode', 2, '2026-03-03T14:00:00.000Z', false],
      ],
    );
    // The identity covers the session's messages and parts, not only its session file.
    const [cart] = listStorageSessions(storage);
    assert.equal(json.conversations[0].sha256, crypto.createHash('sha256').update(assembleSession(cart.source).text).digest('hex'));
    assert.notEqual(json.conversations[0].sha256, crypto.createHash('sha256').update(fs.readFileSync(cart.path)).digest('hex'));
    assert.deepEqual(json.problems, []);
  });

  it('reads opencode.db the same: beside the storage folder it was migrated from, each session is read from the database once', async () => {
    const { root } = await makeWorkspace();
    const data = openCodeData();
    const db = path.join(data, 'opencode.db');
    buildOpenCodeDb(path.join(data, 'storage'), db);
    const result = await runCli(['harvest', '--root', root, '--from', data, '--dry-run', '--json']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const json = JSON.parse(result.stdout) as { conversations: JsonConversation[] };
    assert.deepEqual(
      json.conversations.map((c) => [c.path, c.class]),
      SESSIONS.map((id) => [`${db}#${id}`, 'harvest']),
    );
    // The same session read from the folder alone gives the same bytes, so a ledger entry made either way holds.
    const alone = openCodeData();
    const fromFolder = JSON.parse(
      (await runCli(['harvest', '--root', root, '--from', path.join(alone, 'storage'), '--dry-run', '--json'])).stdout,
    ) as { conversations: JsonConversation[] };
    assert.deepEqual(
      fromFolder.conversations.map((c) => c.sha256),
      json.conversations.map((c) => c.sha256),
    );
  });

  it('reads one database session named `<db>#<id>` (as discovery lists it and Import Conversations… passes it)', async () => {
    const { root } = await makeWorkspace();
    const data = openCodeData();
    const db = path.join(data, 'opencode.db');
    buildOpenCodeDb(path.join(data, 'storage'), db);
    const result = await runCli(['harvest', '--root', root, '--from', `${db}#${SESSIONS[1]}`, '--dry-run', '--json']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const [only, ...rest] = (JSON.parse(result.stdout) as { conversations: JsonConversation[] }).conversations;
    assert.deepEqual([only.path, only.class, only.format, rest.length], [`${db}#${SESSIONS[1]}`, 'harvest', 'opencode', 0]);
    const missing = await runCli(['harvest', '--root', root, '--from', `${db}#ses_not_there`, '--dry-run', '--json']);
    assert.match(missing.stdout + missing.stderr, /ses_not_there/);
  });

  it('reads a session file named on its own (as Import Conversations… passes it) as its whole session', async () => {
    const { root } = await makeWorkspace();
    const storage = path.join(openCodeData(), 'storage');
    const file = path.join(storage, 'session', PROJECT, `${SESSIONS[0]}.json`);
    const result = await runCli(['harvest', '--root', root, '--from', file, '--dry-run', '--json']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const [only, ...rest] = (JSON.parse(result.stdout) as { conversations: JsonConversation[] }).conversations;
    assert.deepEqual([only.path, only.class, only.format, only.turns, rest.length], [file, 'harvest', 'opencode', 7, 0]);
  });

  it('leaves a session OpenCode wrote moments ago alone, as a live agent log', async () => {
    const { root } = await makeWorkspace();
    const storage = path.join(makeTempDir('lore-opencode-'), 'storage');
    fs.cpSync(STORAGE, storage, { recursive: true });
    const result = await runCli(['harvest', '--root', root, '--from', storage, '--dry-run', '--json']);
    assert.deepEqual(
      (JSON.parse(result.stdout) as { conversations: JsonConversation[] }).conversations.map((c) => c.class),
      ['live', 'live'],
    );
  });

  it('records each session in the ledger by the hash of its assembled bytes and never deletes OpenCode files', async () => {
    const { root } = await makeWorkspace();
    const storage = path.join(openCodeData(), 'storage');
    const before = snapshotTree(storage);
    const applied = await runCli(['harvest', '--root', root, '--from', storage, '--apply', '--json']);
    assert.equal(applied.code, 0, applied.stderr + applied.stdout);
    const json = JSON.parse(applied.stdout) as { conversations: JsonConversation[] };
    const ledger = JSON.parse(fs.readFileSync(path.join(root, 'ledger.json'), 'utf8')) as {
      entries: Record<string, { path: string; status: string }>;
    };
    for (const c of json.conversations) assert.equal(ledger.entries[c.sha256]?.status, 'harvested', c.path);
    assert.deepEqual(snapshotTree(storage), before);
    const again = await runCli(['harvest', '--root', root, '--from', storage, '--dry-run', '--json']);
    assert.deepEqual(
      (JSON.parse(again.stdout) as { conversations: JsonConversation[] }).conversations.map((c) => c.class),
      ['harvested', 'harvested'],
    );
    // The known-files cache vouches for one file by its stat: never for a session assembled from many.
    const knownFile = path.join(root, '.cache', 'known-files.json');
    const known = fs.existsSync(knownFile) ? Object.keys((JSON.parse(fs.readFileSync(knownFile, 'utf8')) as { files: object }).files) : [];
    assert.deepEqual(
      known.filter((file) => file.startsWith(storage)),
      [],
    );
  });
});
