/**
 * A tool call that waits on long work (the first index build of a large store): MCP progress
 * notifications while it waits, when the client asked for them with a progressToken, and the
 * call's cancellation (`notifications/cancelled`, which the SDK turns into an aborted
 * `extra.signal`) handed to the work so that it stops waiting. The work itself reports
 * `done of total`; this module throttles it and keeps it increasing, as the protocol requires.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ToolWait } from '../core/services/agentTools/agentTool';

/** What the SDK hands a tool callback besides its arguments. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** At most one progress notification per this many ms (the last one, all done, always goes). */
const MIN_INTERVAL_MS = 100;

/**
 * The wait options of one tool call. `what` names the work in progress messages ("indexing the
 * store"); a cancellation is logged, since the client gets no reply to it.
 */
export function toolWait(extra: ToolExtra, tool: string, what: string, log?: (message: string) => void): ToolWait {
  const token = extra._meta?.progressToken;
  let sent = -1;
  let lastAt = 0;
  const onProgress = ({ done, total }: { done: number; total: number }) => {
    if (token === undefined || extra.signal.aborted || done <= sent) return;
    const now = performance.now();
    if (done < total && now - lastAt < MIN_INTERVAL_MS) return;
    sent = done;
    lastAt = now;
    const message = total > 0 ? `${what}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} files` : what;
    // A client that went away cannot be told; the reply (or its absence) says the rest.
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: done, ...(total > 0 ? { total } : {}), message },
      })
      .catch(() => undefined);
  };
  const during = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (extra.signal.aborted) log?.(`lore mcp: ${tool} cancelled by the client; it stopped waiting (${what} goes on in the background)`);
      throw error;
    }
  };
  return { options: { signal: extra.signal, onProgress }, during };
}
