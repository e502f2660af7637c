/**
 * A person's consent to an agent's write, asked inside the MCP client (an elicitation, method
 * `elicitation/create`) when the client declared the `elicitation` capability with forms: one
 * boolean, `keep`. Accept with keep → accept; keep false or a decline → decline; cancel → cancel.
 * An error, a client gone, or no answer within ASK_TIMEOUT_MS is no answer: the write waits in
 * review.md as it does for a client that cannot be asked (agentWrites.askConsent).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ConsentAnswer } from '../core/store/items/agentWrites';
import type { ToolExtra } from './toolProgress';

/** How long a person has to answer before the write is left to review.md. */
export const ASK_TIMEOUT_MS = 120_000;

const KEEP_SCHEMA = {
  type: 'object' as const,
  properties: {
    keep: { type: 'boolean' as const, title: 'Keep it', description: 'Yes: written to memory now. No: not written.' },
  },
  required: ['keep'],
};

export async function elicitConsent(
  server: McpServer,
  extra: ToolExtra,
  message: string,
  log?: (message: string) => void,
): Promise<ConsentAnswer> {
  try {
    const result = await server.server.elicitInput(
      { mode: 'form', message, requestedSchema: KEEP_SCHEMA },
      { timeout: ASK_TIMEOUT_MS, signal: extra.signal, relatedRequestId: extra.requestId },
    );
    if (result.action === 'accept') return result.content?.keep === true ? 'accept' : 'decline';
    return result.action === 'decline' ? 'decline' : 'cancel';
  } catch (error) {
    log?.(`lore mcp: asking the person about a write failed (${String((error as Error)?.message ?? error)}); it waits in review.md`);
    return undefined;
  }
}
