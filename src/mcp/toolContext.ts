/** What a Lore tool body runs with: the store, found (or the reply saying it is not), and errors made readable. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { recordUses } from '../core/store/lifecycle/usageLog';
import { describeStoreError } from '../core/store/storeErrors';
import type { StorePaths } from '../core/store/storePaths';
import type { StoreSession } from './storeSession';
import { errorReply } from './toolReply';

/**
 * Runs a tool body on the session's store. Without a store the call fails with the message that
 * says where Lore looked and what to do, and nothing is created; any failure of the body becomes
 * a tool error the agent can read, naming the store file at fault.
 */
export async function withStore(session: StoreSession, body: (paths: StorePaths) => Promise<CallToolResult>): Promise<CallToolResult> {
  const lookup = await session.lookup();
  if (!lookup.found) return errorReply(lookup.message);
  try {
    return await body(lookup.paths);
  } catch (error) {
    return errorReply(`error: ${(describeStoreError(error, lookup.paths) ?? String((error as Error)?.message ?? error)).split('\n')[0]}`);
  }
}

/**
 * withStore for a read tool whose reply hands items to the agent: the ids in the reply (its
 * structured items, or the one item get_item found) are logged as used, so items agents keep
 * reading do not decay (lifecycle/decay.ts). One appended line; a failure to log is ignored.
 */
export async function withStoreLoggingUses(session: StoreSession, body: (paths: StorePaths) => Promise<CallToolResult>): Promise<CallToolResult> {
  return withStore(session, async (paths) => logReplyUses(paths, await body(paths)));
}

/** Logs the ids a successful reply names as used by an agent; returns the reply. */
export function logReplyUses(paths: StorePaths, result: CallToolResult): CallToolResult {
  if (result.isError) return result;
  const content = (result.structuredContent ?? {}) as { items?: Array<{ id?: unknown }>; id?: unknown; found?: unknown };
  const ids = (Array.isArray(content.items) ? content.items : []).map((item) => (typeof item?.id === 'string' ? item.id : undefined));
  if (content.found === true && typeof content.id === 'string') ids.push(content.id);
  recordUses(paths, ids, 'agent');
  return result;
}
