import * as assert from 'node:assert/strict';
import type { AgentToolHost } from '../../src/core/services/agentTools/agentTool';
import { agentTools } from '../../src/core/services/agentTools/agentTools';
import { connectAgentToolsInMemory } from './inMemoryTools';

describe('MCP: the agent tools as MCP tools', () => {
  it('lists every agent tool in its defined order, with its title, description and hints', async () => {
    const { client, close } = await connectAgentToolsInMemory();
    const host: AgentToolHost = {
      now: () => new Date(0),
      clientName: () => undefined,
      openIndex: () => assert.fail('not called'),
      reindex: async () => undefined,
    };
    const defined = agentTools(host);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => [t.name, t.title, t.description, t.annotations]),
        defined.tools.map((t) => [t.name, t.title, t.description, t.annotations]),
      );
      for (const tool of tools) {
        const declared = defined.tools.find((t) => t.name === tool.name)!;
        assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}), Object.keys(declared.inputSchema), `${tool.name}'s inputs`);
        assert.deepEqual(
          Object.keys(tool.outputSchema?.properties ?? {}).sort(),
          Object.keys(declared.outputSchema ?? {}).sort(),
          `${tool.name}'s outputs`,
        );
      }
      assert.deepEqual(
        tools.map((t) => t.name),
        ['search', 'open_conversation', 'remember', 'change_item', 'tasks'],
      );
    } finally {
      defined.close();
      await close();
    }
  });
});
