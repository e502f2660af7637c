import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { sessionPick } from '../../../src/extension/harvest/importConversations';
import { activateLore } from './support';

const AIDER = `# aider chat started at 2026-11-20 10:00:00

#### Decision: keep discovery in the language server.

Done. The listing runs off the extension host.
`;

describe('Lore discovery in VS Code', function () {
  this.timeout(60_000);
  let lore: LoreApi;

  before(async () => {
    lore = await activateLore();
  });

  it('contributes Import Conversations…', async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes('lore.importConversations'));
  });

  it("lists the workspace's agent sessions through the language server, measured as the dry run measures them", async () => {
    const history = path.join(lore.store.paths.workspace, '.aider.chat.history.md');
    fs.writeFileSync(history, AIDER);
    try {
      const report = await lore.listSources();
      assert.ok(report, 'the language server answered');
      assert.equal(report.workspace, lore.store.paths.workspace);
      const aider = report.tools.find((t) => t.tool === 'aider')!;
      assert.deepEqual(
        aider.items.map((i) => [i.path, i.matches, i.status, i.format]),
        [[history, true, 'harvest', 'aider']],
      );
      assert.equal(aider.rawBytes, Buffer.byteLength(AIDER));
      assert.ok(aider.renderedBytes > 0);
      assert.equal(aider.estimatedTokens, Math.ceil(aider.renderedBytes / 4));
      // The import picker names it by what was asked, when and how big; the file name comes last.
      assert.equal(aider.items[0].title, 'Decision: keep discovery in the language server.');
      const pick = sessionPick(aider.items[0]);
      assert.equal(pick.label, 'Decision: keep discovery in the language server.');
      assert.match(String(pick.description), /^20 Nov( 2026)? · [\d.]+ K?B$/);
      assert.match(String(pick.detail), /^new, .* · \.aider\.chat\.history\.md$/);
      // Nothing of another workspace is offered by default.
      assert.ok(report.tools.every((t) => t.items.every((i) => i.matches)));
    } finally {
      fs.rmSync(history, { force: true });
    }
  });
});
