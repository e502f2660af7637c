import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import type { TreeNode } from '../../../src/extension/views/treeBase';
import { until } from './support';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function childrenOf(provider: vscode.TreeDataProvider<TreeNode>, node?: TreeNode): Promise<TreeNode[]> {
  return (await provider.getChildren(node)) ?? [];
}

describe('Lore tasks in VS Code', function () {
  this.timeout(60_000);

  it('records a task through the language model tools and shows its timeline, evidence linked to its file, in the Tasks view', async () => {
    const lore = await vscode.extensions.getExtension<LoreApi>('lore-dev.lore')!.activate();
    if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
    for (const name of ['lore_task_start', 'lore_task_add_evidence', 'lore_task_search'])
      assert.ok(
        vscode.lm.tools.some((t) => t.name === name),
        `${name} is registered`,
      );
    const started = textOf(
      await vscode.lm.invokeTool('lore_task_start', {
        input: { goal: 'Shrink the login page bundle', task_id: 'itest-bundle' },
        toolInvocationToken: undefined,
      }),
    );
    assert.match(started, /recorded task_start a-[0-9a-f]{12} in task itest-bundle/);
    const evidence = textOf(
      await vscode.lm.invokeTool('lore_task_add_evidence', {
        input: { task_id: 'itest-bundle', summary: 'lodash is 70 KB of the login bundle', files: ['src/login.ts'] },
        toolInvocationToken: undefined,
      }),
    );
    assert.match(evidence, /recorded evidence/);
    assert.ok(fs.existsSync(path.join(lore.store.paths.root, 'tasks', 'itest-bundle.jsonl')));
    const found = textOf(
      await vscode.lm.invokeTool('lore_task_search', {
        input: { query: 'lodash login', mode: 'find_evidence' },
        toolInvocationToken: undefined,
      }),
    );
    assert.match(found, /itest-bundle evidence\/evidence \[canonical_record\]: lodash is 70 KB/);

    const view = lore.views.tasks;
    let task: TreeNode | undefined;
    await until('the task is in the Tasks view', async () => {
      const active = (await childrenOf(view)).find((n) => n.toTreeItem().label === 'active');
      task = active && (await childrenOf(view, active)).find((n) => n.toTreeItem().label === 'Shrink the login page bundle');
      return task !== undefined;
    });
    const timeline = await childrenOf(view, task);
    assert.deepEqual(
      timeline.map((n) => String(n.toTreeItem().description).split(' · ')[0]),
      ['task_start', 'evidence'],
    );
    const links = await childrenOf(view, timeline[1]);
    const link = links[0].toTreeItem();
    assert.equal(link.label, 'src/login.ts');
    assert.equal((link.command?.arguments?.[0] as vscode.Uri).fsPath, path.join(lore.store.paths.workspace, 'src', 'login.ts'));
  });
});
