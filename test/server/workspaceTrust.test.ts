import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RememberRequest } from '../../src/shared/protocol';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { LspTestClient } from './lspClient';
import { makeWorkspace } from './serverFixtures';

describe('language server: a committed config.json counts only in a workspace the person trusted in VS Code', function () {
  this.timeout(60_000);

  for (const trusted of [false, true]) {
    it(`"git": {"commit": "apply"} ${trusted ? "commits the server's writes in a trusted workspace" : 'makes no commit in Restricted Mode'}`, async () => {
      const w = makeWorkspace();
      fs.writeFileSync(path.join(w.paths.root, 'config.json'), '{"git": {"commit": "apply"}}\n');
      fs.writeFileSync(path.join(w.paths.root, 'facts.md'), '# Facts\n');
      initRepo(w.ws);
      const head = gitIn(w.ws, 'rev-parse', 'HEAD');
      const client = await LspTestClient.start({ storeRoot: w.paths.root, workspaceRoot: w.ws, workspaceTrusted: trusted });
      try {
        const result = await client.connection.sendRequest(RememberRequest.type, {
          kind: 'fact',
          text: 'the queue is SQS',
          source: 'vscode-agent',
        });
        assert.ok(result.ok && result.added);
      } finally {
        await client.stop();
      }
      assert.match(fs.readFileSync(path.join(w.paths.root, 'facts.md'), 'utf8'), /the queue is SQS/);
      if (trusted) assert.notEqual(gitIn(w.ws, 'rev-parse', 'HEAD'), head, 'committed');
      else assert.equal(gitIn(w.ws, 'rev-parse', 'HEAD'), head, 'no commit');
    });
  }
});
