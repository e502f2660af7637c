/**
 * Every agent tool Lore offers, in the order clients list them: the read tools, the memory
 * tools, the task tools. The one list the surfaces adapt (MCP, VS Code's language model tools).
 */
import type { AgentTool, AgentToolHost } from './agentTool';
import { memoryTools } from './memoryTools';
import { readTools } from './readTools';
import { taskTools } from './taskTools';

/** The tools served to one host; `close` releases what they opened (the task indexes). */
export function agentTools(host: AgentToolHost): { tools: AgentTool[]; close(): void } {
  const tasks = taskTools(host);
  return { tools: [...readTools(host), ...memoryTools(host), ...tasks.tools], close: tasks.close };
}
