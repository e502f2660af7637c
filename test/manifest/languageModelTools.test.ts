import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentToolHost } from '../../src/core/services/agentTools/agentTool';
import { agentTools } from '../../src/core/services/agentTools/agentTools';
import {
  LANGUAGE_MODEL_TOOLS,
  languageModelToolName,
  languageModelToolsManifest,
} from '../../src/core/services/agentTools/languageModelTools';
import { TASK_TOOL_NAMES_VSCODE } from '../../src/extension/tasks/taskToolNames';
import { TASK_ACTIONS } from '../../src/core/services/agentTools/taskTools';
import { TASK_TOOL_INPUTS } from '../../src/core/services/tasks/taskToolInputs';
import { TASK_TOOL_TEXTS } from '../../src/core/services/tasks/taskToolTexts';
import { REPO_ROOT } from '../helpers/paths';

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('manifest: the language model tools are generated from the agent tool definitions', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { languageModelTools: unknown[] };
  };
  const host: AgentToolHost = {
    now: () => new Date(0),
    clientName: () => undefined,
    openIndex: () => assert.fail('no call runs here'),
    reindex: async () => undefined,
  };

  it("package.json's languageModelTools are what the declarations generate (npm run manifest rewrites them)", () => {
    assert.deepEqual(pkg.contributes.languageModelTools, languageModelToolsManifest());
  });

  it("offers each task tool with the seed's input schema and description, each an action of the MCP tasks tool", () => {
    const served = agentTools(host);
    try {
      const tasks = served.tools.find((t) => t.name === 'tasks')!;
      const actions = (tasks.inputSchema.action as unknown as { options: string[] }).options;
      for (const [lmName, tool] of Object.entries(TASK_TOOL_NAMES_VSCODE)) {
        assert.equal(languageModelToolName(tool), lmName);
        const declared = LANGUAGE_MODEL_TOOLS.find((t) => t.name === lmName);
        assert.ok(declared, `${lmName} is declared`);
        assert.equal(declared.inputSchema, TASK_TOOL_INPUTS[tool]);
        assert.equal(declared.modelDescription, TASK_TOOL_TEXTS[tool].description);
        const action = Object.entries(TASK_ACTIONS).find(([, t]) => t === tool)?.[0];
        assert.ok(action && actions.includes(action), `${tool} is an action of the MCP tasks tool`);
      }
    } finally {
      served.close();
    }
  });

  it('every declared tool has an adapter in the extension: the task tools by their table, the others by name', () => {
    const taskNames = new Set(Object.keys(TASK_TOOL_NAMES_VSCODE));
    assert.deepEqual(
      LANGUAGE_MODEL_TOOLS.map((t) => t.name)
        .filter((n) => taskNames.has(n))
        .sort(),
      [...taskNames].sort(),
    );
    const sources = walk(path.join(REPO_ROOT, 'src/extension'))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    for (const { name } of LANGUAGE_MODEL_TOOLS.filter((t) => !taskNames.has(t.name))) {
      assert.match(sources, new RegExp(`registerTool<\\w+>\\('${name}'`), `${name} is registered by the extension`);
    }
  });
});
