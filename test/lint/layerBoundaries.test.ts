/**
 * The layer rules of eslint.config.mjs catch what they are meant to: each case lints a line of
 * source as if it lived in a given folder. If a glob or a regex in the config drifts (a folder
 * renamed, a pattern that matches nothing), the boundary silently stops being checked; this
 * notices.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '..', '..', '..');

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath: path.join(root, file) });
  return result.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('layer boundaries (eslint.config.mjs)', function () {
  this.timeout(60000);

  const forbidden: Array<[string, string]> = [
    ['src/core/store/x.ts', "import * as vscode from 'vscode';"],
    ['src/core/store/x.ts', "import { createConnection } from 'vscode-languageserver/node';"],
    ['src/core/store/x.ts', "import { LanguageClient } from 'vscode-languageclient/node';"],
    ['src/core/harvest/x.ts', "import { activate } from '../../extension/extension';"],
    ['src/core/harvest/x.ts', "import { x } from '../../server/hover';"],
    ['src/core/x.ts', "import { main } from '../cli/main';"],
    ['src/server/x.ts', "import * as vscode from 'vscode';"],
    ['src/server/x.ts', "import { activate } from '../extension/extension';"],
    ['src/server/x.ts', "import { LanguageClient } from 'vscode-languageclient/node';"],
    ['src/cli/commands/x.ts', "import { x } from '../../server/hover';"],
    ['src/cli/commands/x.ts', "import * as vscode from 'vscode';"],
    ['src/mcp/x.ts', "import { main } from '../cli/main';"],
    ['src/mcp/x.ts', "import { createConnection } from 'vscode-languageserver/node';"],
    ['src/extension/notes/x.ts', "import { x } from '../../server/hover';"],
    ['src/shared/x.ts', "import * as vscode from 'vscode';"],
    // One writer per window: the extension host loads none of core's write paths.
    ['src/extension/notes/x.ts', "import { addManualNote } from '../../core/store/items/manualNote';"],
    ['src/extension/x.ts', "import { writeFileAtomic } from '../core/base/atomicWrite';"],
    ['src/extension/knowledge/x.ts', "import { acquireStoreLock } from '../../core/base/storeLock';"],
    ['src/extension/knowledge/x.ts', "import { sleepSync } from '../../core/base/fileVersion';"],
    ['src/extension/review/x.ts', "import { decideReview } from '../../core/store/items/reviewEdit';"],
    ['src/extension/harvest/x.ts', "import { applyPreviewedHarvest } from '../../core/services/harvest/applyPreviewed';"],
    ['src/extension/x.ts', "import { recordStoreChange } from '../core/store/history/storeHistory';"],
    ['src/extension/cache/x.ts', "import { syncInstructionFiles } from '../../core/store/instructionSync';"],
    ['src/extension/views/x.ts', "import { listReview } from '../../core/store/items/reviewQueue';"],
  ];
  for (const [file, source] of forbidden) {
    it(`refuses in ${file}: ${source}`, async () => {
      assert.equal((await restrictedImports(file, source)).length, 1);
    });
  }

  const allowed: Array<[string, string]> = [
    ['src/extension/x.ts', "import * as vscode from 'vscode';"],
    ['src/extension/notes/x.ts', "import { LanguageClient } from 'vscode-languageclient/node';"],
    ['src/extension/notes/x.ts', "import type { NoteTarget } from '../../core/store/fileNotes';"],
    ['src/extension/x.ts', "import { readTextIfExists } from '../core/base/readText';"],
    ['src/extension/review/x.ts', "import type { ReviewEditResult } from '../../core/store/items/reviewEdit';"],
    ['src/server/x.ts', "import { createConnection } from 'vscode-languageserver/node';"],
    ['src/server/x.ts', "import { x } from '../shared/protocol';"],
    ['src/cli/commands/x.ts', "import { x } from '../../mcp/loreMcpServer';"],
    // A package path that happens to contain a layer's name is not that layer.
    ['src/mcp/x.ts', "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';"],
    ['src/core/services/harvest/x.ts', "import { x } from '../search/searchIndex';"],
  ];
  for (const [file, source] of allowed) {
    it(`allows in ${file}: ${source}`, async () => {
      assert.deepEqual(await restrictedImports(file, source), []);
    });
  }
});
