import * as assert from 'node:assert/strict';
import { getEncoding } from 'js-tiktoken';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mcpCommand } from '../../src/cli/commands/mcpCommand';
import type { AgentToolHost } from '../../src/core/services/agentTools/agentTool';
import { agentTools } from '../../src/core/services/agentTools/agentTools';
import { TASK_TOOL_INPUTS } from '../../src/core/services/tasks/taskToolInputs';
import { REPO_ROOT } from '../helpers/paths';
import { connectAgentToolsInMemory } from './inMemoryTools';

/** The most Lore's tools/list may cost an agent, in tokens: clients such as Codex and Gemini CLI send it with every request. */
const TOOL_LIST_TOKENS = 3000;

/** The tools/list result's JSON, as a fresh server sends it. */
async function toolListJson(): Promise<string> {
  const { client, close } = await connectAgentToolsInMemory();
  try {
    return JSON.stringify(await client.listTools());
  } finally {
    await close();
  }
}

describe('MCP: what the tool list costs an agent', () => {
  it('costs at most 3,000 tokens with its input and output schemas, in both OpenAI tokenizers', async () => {
    const json = await toolListJson();
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const tokens = getEncoding(encoding).encode(json).length;
      assert.ok(tokens <= TOOL_LIST_TOKENS, `tools/list is ${tokens} ${encoding} tokens`);
    }
  });

  it('is the same bytes, in the same order, from two server starts (clients cache it)', async () => {
    const first = await toolListJson();
    const second = await toolListJson();
    assert.equal(second, first);
    assert.deepEqual(
      (JSON.parse(first) as { tools: Array<{ name: string }> }).tools.map((t) => t.name),
      ['search', 'open_conversation', 'remember', 'change_item', 'tasks'],
    );
  });
});

describe('MCP: every tool and parameter is documented', () => {
  const host: AgentToolHost = {
    now: () => new Date(0),
    clientName: () => undefined,
    openIndex: () => assert.fail('no call runs here'),
    reindex: async () => undefined,
  };
  const served = agentTools(host);
  after(() => served.close());
  const docs = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'mcp.md'), 'utf8');
  const toolsTable = docs.slice(docs.indexOf('### Tools'), docs.indexOf('### Prompts'));
  const help = mcpCommand.help;

  it("in docs/mcp.md's table and lore mcp --help: each tool with each listed parameter", () => {
    for (const tool of served.tools) {
      const row = toolsTable.split('\n').find((l) => new RegExp(`^\\| \`${tool.name}\` +\\|`).test(l));
      assert.ok(row, `docs/mcp.md has a row for ${tool.name}`);
      const helpLine = help.split('\n').find((l) => l.trim().startsWith(`${tool.name} `));
      assert.ok(helpLine, `lore mcp --help names ${tool.name}`);
      const helpEntry = help.slice(help.indexOf(helpLine)).split(/\n {2}\S/)[0];
      for (const parameter of Object.keys(tool.inputSchema)) {
        assert.ok(row.includes(`\`${parameter}`), `docs/mcp.md documents ${tool.name}'s ${parameter}`);
        assert.match(helpEntry, new RegExp(`\\b${parameter}\\b`), `lore mcp --help documents ${tool.name}'s ${parameter}`);
      }
      assert.ok(tool.description.length > 80, `${tool.name} says when to use it`);
    }
  });

  it("the tasks tool's description and docs/mcp.md name every field of every action", () => {
    const tasks = served.tools.find((t) => t.name === 'tasks')!;
    const listed = new Set(Object.keys(tasks.inputSchema));
    for (const [tool, input] of Object.entries(TASK_TOOL_INPUTS)) {
      for (const field of Object.keys(input)) {
        if (listed.has(field)) continue;
        // run_id, artifact_id and reply_to_artifact_id are what artifact_id stands for, per action.
        if (['run_id', 'reply_to_artifact_id'].includes(field)) continue;
        assert.match(tasks.description, new RegExp(`\\b${field}\\b`), `the tasks description names ${tool}'s ${field}`);
        assert.match(toolsTable, new RegExp(`\\b${field}\\b`), `docs/mcp.md names ${tool}'s ${field}`);
      }
    }
  });
});
