/** What a Lore tool body runs with: the store, found (or the reply saying it is not), and errors made readable. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
