import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { taskToolSchema } from '../../src/core/services/tasks/taskToolInputs';
import { TASK_TOOL_TEXTS } from '../../src/core/services/tasks/taskToolTexts';
import { TASK_TOOL_NAMES_VSCODE } from '../../src/extension/tasks/taskToolNames';
import { REPO_ROOT } from '../helpers/paths';

interface ToolEntry {
  name: string;
  modelDescription: string;
  inputSchema: unknown;
}

describe('manifest: the task tools as language model tools', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { languageModelTools: ToolEntry[]; views: Record<string, Array<{ id: string }>> };
  };

  it('declares every task tool with the input schema and guardrails of core (as the MCP tools have them)', () => {
    for (const [name, tool] of Object.entries(TASK_TOOL_NAMES_VSCODE)) {
      const entry = pkg.contributes.languageModelTools.find((t) => t.name === name);
      assert.ok(entry, `${name} is declared`);
      const { $schema: _schema, ...expected } = z.toJSONSchema(taskToolSchema(tool));
      assert.deepEqual(entry.inputSchema, expected, `${name}: package.json's inputSchema is core's (regenerate it when the tool changes)`);
      assert.equal(entry.modelDescription, TASK_TOOL_TEXTS[tool].description);
    }
  });

  it('contributes the Tasks view', () => {
    assert.ok(
      Object.values(pkg.contributes.views)
        .flat()
        .some((v) => v.id === 'lore.tasks'),
    );
  });
});
