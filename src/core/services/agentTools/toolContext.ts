/** What a tool's reply does to the store besides answering: the items it hands out are logged as used. */
import { recordUses } from '../../store/lifecycle/usageLog';
import type { StorePaths } from '../../store/storePaths';
import type { ToolResult } from './agentTool';

/**
 * Logs the ids a successful reply names (its structured items)
 * as used by an agent, so items agents keep reading do not decay (lifecycle/decay.ts). One
 * appended line; a failure to log is ignored. Returns the reply.
 */
export function logReplyUses(paths: StorePaths, result: ToolResult): ToolResult {
  if (result.isError) return result;
  const content = (result.structuredContent ?? {}) as { items?: Array<{ id?: unknown }>; id?: unknown; found?: unknown };
  const ids = (Array.isArray(content.items) ? content.items : []).map((item) => (typeof item?.id === 'string' ? item.id : undefined));
  if (content.found === true && typeof content.id === 'string') ids.push(content.id);
  recordUses(paths, ids, 'agent');
  return result;
}
