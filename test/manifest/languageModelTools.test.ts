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
import { REPO_ROOT } from '../helpers/paths';

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('manifest: the language model tools are generated from the agent tools', () => {
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

  it("offers each task tool with the MCP tool's own input schema and description", () => {
    const served = agentTools(host);
    try {
      for (const [lmName, tool] of Object.entries(TASK_TOOL_NAMES_VSCODE)) {
        assert.equal(languageModelToolName(tool), lmName);
        const declared = LANGUAGE_MODEL_TOOLS.find((t) => t.name === lmName);
        const definition = served.tools.find((t) => t.name === tool);
        assert.ok(declared && definition, `${lmName} is declared and ${tool} is an agent tool`);
        assert.equal(declared.inputSchema, definition.inputSchema);
        assert.equal(declared.modelDescription, definition.description);
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
