import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import type { SearchResponse } from '../../../src/core/services/search/searchTypes';
import { searchHitItem } from '../../../src/extension/search/searchHitItem';
import { until } from './support';

describe('Lore search in VS Code', function () {
  this.timeout(60_000);

  it('shows a playbook found by search without its markdown', async () => {
    const lore = await vscode.extensions.getExtension<LoreApi>('lore-dev.lore')!.activate();
    fs.appendFileSync(
      path.join(lore.store.paths.root, 'playbooks.md'),
      '- **warp jump**: set `FLUX=on`, then read [the manual](https://example.com/warp) [from: itest-search, 2026-11-21]\n',
    );
    let response: SearchResponse | undefined;
    await until('the playbook is searchable', async () => {
      response = await lore.search.search('warp jump manual');
      return response.hits.some((h) => h.category === 'playbooks' && h.text.includes('warp jump'));
    });
    const row = searchHitItem(response!.hits.find((h) => h.text.includes('warp jump'))!);
    assert.equal(row.label, 'warp jump: set FLUX=on, then read the manual');
    assert.equal(row.detail, undefined);
    assert.match(row.description, /^playbooks · from itest-search, 2026-11-21$/);
  });

  it("finds a fact through the language server's index, and the lore_recall tool is registered and answers", async () => {
    const lore = await vscode.extensions.getExtension<LoreApi>('lore-dev.lore')!.activate();
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    fs.appendFileSync(
      path.join(lore.store.paths.root, 'facts.md'),
      '- The flux capacitor needs 1.21 gigawatts. [from: itest-search, 2026-11-20]\n',
    );
    // The index lives in the server and follows VS Code's file events, so the line arrives shortly.
    let response: SearchResponse | undefined;
    await until('the new fact is searchable', async () => {
      response = await lore.search.search('capacitor gigawatts');
      return response.hits.some((h) => h.text.includes('flux capacitor') && h.source === 'itest-search');
    });
    assert.equal(response!.backend, 'sqlite', `better-sqlite3 loads in the language server: ${response!.backendReason}`);
    await until('the server reported its search engine', () => lore.search.backend?.backend === 'sqlite');

    // The quick pick's row for that hit: the text once, as words.
    const row = searchHitItem(response!.hits.find((h) => h.text.includes('flux capacitor'))!);
    assert.equal(row.label, 'The flux capacitor needs 1.21 gigawatts.');
    assert.equal(row.detail, undefined, 'a short item is not shown a second time as its snippet');

    assert.ok(
      vscode.lm.tools.some((t) => t.name === 'lore_recall'),
      'lore_recall is registered',
    );
    const result = await vscode.lm.invokeTool('lore_recall', { input: { query: 'flux capacitor' }, toolInvocationToken: undefined });
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /flux capacitor/);
    assert.match(text, /itest-search/);
  });
});
