/**
 * `lore/sources`: discovery runs in the language server (it reads other tools' folders and
 * renders sessions), answering with the report `lore sources --json` prints.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes } from 'vscode-languageserver-protocol';
import { SourcesRequest } from '../../src/shared/protocol';
import { FIXTURES, makeTempDir } from '../helpers/paths';
import { LspTestClient } from './lspClient';
import { makeWorkspace } from './serverFixtures';

describe('language server: lore/sources', function () {
  this.timeout(60_000);
  let client: LspTestClient | undefined;
  afterEach(async () => client?.stop());

  it("answers with this workspace's sessions per tool, measured, and refuses malformed params", async () => {
    const w = makeWorkspace();
    const home = makeTempDir('lore-home-');
    const project = path.join(home, '.claude', 'projects', w.ws.replace(/[^A-Za-z0-9]/g, '-'));
    fs.mkdirSync(project, { recursive: true });
    fs.copyFileSync(
      path.join(FIXTURES, 'conversations', 'claude-session.jsonl'),
      path.join(project, 'a7c1e2f0-1111-4222-8333-944455556666.jsonl'),
    );
    fs.copyFileSync(path.join(FIXTURES, 'conversations', 'shop.aider.chat.history.md'), path.join(w.ws, '.aider.chat.history.md'));
    client = await LspTestClient.start(
      { storeRoot: w.paths.root, workspaceRoot: w.ws },
      { env: { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', CLAUDE_CONFIG_DIR: '', CODEX_HOME: '' } },
    );

    const report = await client.connection.sendRequest(SourcesRequest.type, {});
    assert.equal(report.workspace, w.ws);
    const found = report.tools.filter((t) => t.sessions > 0).map((t) => [t.tool, t.sessions, t.toHarvest, t.renderedBytes > 0]);
    assert.deepEqual(found, [
      ['claude-code', 1, 1, true],
      ['aider', 1, 1, true],
    ]);

    const refused = await client.connection.sendRequest(SourcesRequest.method, { allWorkspaces: 'yes' }).then(
      () => assert.fail('accepted'),
      (error: { code: number; message: string }) => error,
    );
    assert.equal(refused.code, ErrorCodes.InvalidParams);
    assert.match(refused.message, /^lore\/sources: allWorkspaces: /);
  });
});
