/**
 * The agent tools (core/services/agentTools) as MCP tools: each definition registered as it is, its call
 * run on the session's store. The store is found on first use and never created: without one,
 * every tool says where Lore looked and what to do. Any failure of a handler becomes a tool error
 * the agent can read, naming the store file at fault.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool, AgentToolHost, ToolCall } from '../core/services/agentTools/agentTool';
import { agentTools } from '../core/services/agentTools/agentTools';
import { logReplyUses } from '../core/services/agentTools/toolContext';
import { errorReply } from '../core/services/agentTools/toolReply';
import type { AgentWritesMode } from '../core/model/storeConfigFormat';
import { describeStoreError } from '../core/store/storeErrors';
import { takeLinkNotices } from '../core/base/storeLinks';
import type { StorePaths } from '../core/store/storePaths';
import type { StoreSession } from './storeSession';
import { toolWait, type ToolExtra } from './toolProgress';
import { elicitConsent } from './writeConsentMcp';

/** Registers every agent tool on `server`; returns what closes their indexes. */
export function registerAgentTools(
  server: McpServer,
  session: StoreSession,
  options: { now: () => Date; agentWrites?: AgentWritesMode },
): { close(): void } {
  const host: AgentToolHost = {
    now: options.now,
    clientName: () => server.server.getClientVersion()?.name,
    openIndex: (paths) => session.openIndex(paths),
    reindex: (files) => session.reindex(files),
    ...(options.agentWrites ? { agentWrites: options.agentWrites } : {}),
  };
  const served = agentTools(host);
  for (const tool of served.tools) {
    const { name, title, description, outputSchema, annotations } = tool;
    const inputSchema = tool.moreFields ? z.looseObject(tool.inputSchema) : tool.inputSchema;
    server.registerTool(
      name,
      { title, description, inputSchema, ...(outputSchema ? { outputSchema } : {}), annotations },
      (args: Record<string, unknown>, extra: ToolExtra) =>
        withStore(session, (paths) =>
          call(tool, args, {
            paths,
            wait: (what) => toolWait(extra, name, what, session.log),
            ...(server.server.getClientCapabilities()?.elicitation?.form
              ? { askConsent: (message: string) => elicitConsent(server, extra, message, session.log) }
              : {}),
          }),
        ),
    );
  }
  return served;
}

async function call(tool: AgentTool, args: Record<string, unknown>, context: ToolCall): Promise<CallToolResult> {
  const result = await tool.handler(args, context);
  // The uses are logged after this turn of the event loop, in which the SDK hands the reply to the
  // transport: the agent does not wait on a write to the usage log, which changes nothing in the reply.
  if (tool.logsUses) setImmediate(() => logReplyUses(context.paths, result));
  return result;
}

/** Runs a call on the session's store, or says why there is none; a failure becomes a readable tool error. */
export async function withStore(session: StoreSession, body: (paths: StorePaths) => Promise<CallToolResult>): Promise<CallToolResult> {
  const lookup = await session.lookup();
  if (!lookup.found) return errorReply(lookup.message);
  try {
    return await body(lookup.paths);
  } catch (error) {
    return errorReply(`error: ${(describeStoreError(error, lookup.paths) ?? String((error as Error)?.message ?? error)).split('\n')[0]}`);
  } finally {
    // A store file the call skipped as a link out of the store: told to the person, once, in the log.
    for (const notice of takeLinkNotices()) session.log?.(`lore mcp: ${notice}`);
  }
}
