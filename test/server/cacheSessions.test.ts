/** The language server's `lore/cacheSessions`: the workspace's agent sessions' prompt caches, re-read as their files grow. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes } from 'vscode-languageserver-protocol';
import { CacheSessionsRequest } from '../../src/shared/protocol';
import { FIXTURES, makeTempDir } from '../helpers/paths';
import { LspTestClient } from './lspClient';
import { makeWorkspace } from './serverFixtures';

describe('language server: lore/cacheSessions', function () {
  this.timeout(60_000);
  let client: LspTestClient | undefined;
  afterEach(async () => client?.stop());

  it('answers with the sessions’ cache states at the moment asked, follows a session file as it grows, refuses malformed params', async () => {
    const w = makeWorkspace();
    const home = makeTempDir('lore-home-');
    const project = path.join(home, '.claude', 'projects', w.ws.replace(/[^A-Za-z0-9]/g, '-'));
    fs.mkdirSync(project, { recursive: true });
    const lines = fs
      .readFileSync(path.join(FIXTURES, 'cache', 'claude-1h.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    const session = path.join(project, '6f1d2b3c-4d5e-4f6a-9b0c-1d2e3f4a5b6c.jsonl');
    fs.writeFileSync(session, `${lines[0]}\n${lines[1]}\n`);
    client = await LspTestClient.start(
      { storeRoot: w.paths.root, workspaceRoot: w.ws },
      { env: { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', CLAUDE_CONFIG_DIR: '', CODEX_HOME: '' } },
    );

    const now = Date.parse('2026-03-10T10:30:00Z');
    const first = await client.connection.sendRequest(CacheSessionsRequest.type, { now });
    assert.equal(first.workspace, w.ws);
    assert.deepEqual(first.folders, [project]);
    assert.deepEqual(
      first.sessions.map((s) => [s.path, s.status, s.calls, s.ttlLabel]),
      [[session, 'warm', 1, '30:00']],
    );

    fs.appendFileSync(session, `${lines[2]}\n`);
    const grown = await client.connection.sendRequest(CacheSessionsRequest.type, { now });
    assert.deepEqual(
      grown.sessions.map((s) => [s.calls, s.hits, s.ttlLabel]),
      [[2, 1, '40:00']],
    );

    const refused = await client.connection.sendRequest(CacheSessionsRequest.method, { now: 'later' }).then(
      () => assert.fail('accepted'),
      (error: { code: number; message: string }) => error,
    );
    assert.equal(refused.code, ErrorCodes.InvalidParams);
    assert.match(refused.message, /^lore\/cacheSessions: now: /);
  });
});
