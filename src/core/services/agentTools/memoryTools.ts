/**
 * The tools agents keep memory correct with: `remember` (an item of any kind) and `change_item`
 * (update, supersede, done, forget an item by its stable id, core/knowledge/itemId); reading an
 * item by id is `search` with ids (itemsById.ts). Writes go through
 * core/knowledge/agentWrites: redacted, neutralized, flagged, under the store lock, and by default
 * queued for a person (review.md) rather than written; provenance names the client and session
 * (`[from: claude-code:<session>, date]`). Each tool declares an output schema and returns compact
 * structured content with a short text that names the id(s).
 */
import { z } from 'zod';
import { sanitizeConversationId } from '../conversations/conversationId';
import { acceptedIdentities, itemFilter } from '../../store/heldItems';
import {
  agentSource,
  changeItem,
  rememberItem,
  resultFile,
  type AgentWriteResult,
  type ChangeRequest,
} from '../../store/items/agentWrites';
import { ITEM_ID_PATTERN } from '../../model/itemId';
import { ITEM_KINDS } from '../../model/itemKinds';
import { redactDeep, redactSecrets } from '../../model/safety/redact';
import { describeStoreError } from '../../store/storeErrors';
import { AGENT_WRITES_MODES, type AgentWritesMode } from '../../model/storeConfigFormat';
import type { StorePaths } from '../../store/storePaths';
import { agentTool, type AgentTool, type AgentToolHost, type ToolCall, type ToolResult } from './agentTool';
import { consentMessage } from './writeConsent';

const id = z.string().regex(ITEM_ID_PATTERN, 'an 8-character item id, as replies name them');
const sessionArg = z.string().max(200).optional().describe('Your session id, recorded in the provenance');
const file = z.string().max(300).optional().describe('The store file, when the item is written in several');

/** What change_item does to an item. */
const CHANGE_ACTIONS = ['update', 'supersede', 'done', 'forget'] as const;

/** A write's structured content: what its text says (status, ids, the line, the file), no descriptions (see toolReply). */
const writeOutput = {
  status: z.enum(['recorded', 'pending', 'held', 'declined', 'unchanged', 'refused', 'not-found', 'ambiguous']),
  id: z.string().optional(),
  item: z.string().optional(),
  line: z.string().optional(),
  file: z.string().optional(),
  kinds: z.array(z.string()).optional(),
  reason: z.string().optional(),
  places: z.array(z.object({ file: z.string(), line: z.number() })).optional(),
};

function reply(text: string, structured: Record<string, unknown>, isError = false): ToolResult {
  return {
    content: [{ type: 'text', text: redactSecrets(text) }],
    structuredContent: redactDeep(structured),
    ...(isError ? { isError } : {}),
  };
}

const WAITS = 'waits for a person to accept it (lore review, or the Review view in VS Code) before agents get it';

/** The short text of a write's reply, naming the id(s). */
function describeWrite(action: string, result: AgentWriteResult): string {
  const acted = result.target ? ` ${result.target.id}` : '';
  const accepted = result.consent === 'accepted' ? ' (the person accepted it)' : '';
  switch (result.status) {
    case 'recorded':
      if (accepted) return `${describeWrite(action, { ...result, consent: undefined })}${accepted}`;
      if (action === 'forget') return `forgot${acted} from ${result.file}: removed ${result.line}`;
      if (action === 'done') return `marked task${acted} done in ${result.file}`;
      if (action === 'update') return `updated${acted} in ${result.file}; it is now ${result.id}: ${result.line}`;
      if (action === 'supersede') return `superseded${acted} by ${result.id} in ${result.file}: ${result.line}`;
      return `remembered ${result.id} in ${result.file}: ${result.line}`;
    case 'pending':
      return `pending ${action}${acted}${action === 'remember' || action === 'update' || action === 'supersede' ? ` (new item ${result.id})` : ''}: ${WAITS}. ${result.line}`;
    case 'held':
      return `held ${result.id} for review, not recorded: it reads as an instruction to an agent (${(result.kinds ?? []).join(', ')}); a person must accept it (lore review, or the Review view in VS Code). Held: ${result.line}`;
    case 'declined':
      return `not recorded: ${result.reason ?? 'the person declined it'} (${action}${acted}${result.id && result.id !== result.target?.id ? ` ${result.id}` : ''})`;
    case 'unchanged':
      return `${result.reason ?? 'unchanged'}: ${result.id}${result.file ? ` in ${result.file}` : ''}`;
    default:
      return `${result.status === 'refused' ? 'refused' : result.status}: ${result.reason ?? ''}`;
  }
}

function writeReply(action: string, result: AgentWriteResult): ToolResult {
  const failed = result.status === 'refused' || result.status === 'not-found' || result.status === 'ambiguous';
  return reply(
    describeWrite(action, result),
    {
      status: result.status,
      ...(result.id ? { id: result.id } : {}),
      ...(result.target ? { item: result.target.id } : {}),
      ...(result.line ? { line: result.line } : {}),
      ...(result.file ? { file: result.file } : {}),
      ...(result.kinds?.length ? { kinds: result.kinds } : {}),
      ...(result.reason ? { reason: result.reason } : result.consent === 'accepted' ? { reason: 'the person accepted it' } : {}),
      ...(result.places ? { places: result.places.map((p) => ({ file: p.file, line: p.line })) } : {}),
    },
    failed,
  );
}

/** Runs a tool body; a failure becomes a tool error naming the store file at fault. */
async function guarded(paths: StorePaths, body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (error) {
    const message = (describeStoreError(error, paths) ?? String((error as Error)?.message ?? error)).split('\n')[0];
    return reply(`error: ${message}`, { status: 'refused', reason: message }, true);
  }
}

/** `$LORE_AGENT_WRITES` when it names a mode (anything else is ignored: config.json decides). */
export function agentWritesFromEnv(value: string | undefined): AgentWritesMode | undefined {
  const parsed = z.enum(AGENT_WRITES_MODES).safeParse(value?.trim());
  return parsed.success ? parsed.data : undefined;
}

/** remember and change_item, in the order clients list them. */
export function memoryTools(host: AgentToolHost): AgentTool[] {
  const onStore = (paths: StorePaths, body: () => Promise<ToolResult>) => guarded(paths, body);
  const sourceOf = (sessionId: string | undefined) => agentSource(host.clientName(), sessionId, sanitizeConversationId);
  const mode = host.agentWrites ?? agentWritesFromEnv(process.env.LORE_AGENT_WRITES);
  // Where the surface can ask the person, a write that waits for review is put to them (writeConsent.ts).
  const context = (sessionId: string | undefined, call: ToolCall) => {
    const ask = call.askConsent;
    return {
      source: sourceOf(sessionId),
      today: host.now(),
      ...(mode ? { mode } : {}),
      ...(ask ? { consent: (question: Parameters<typeof consentMessage>[0]) => ask(consentMessage(question)) } : {}),
    };
  };
  // Re-indexes what a write recorded, so the agent's next search sees it.
  const after = async (paths: StorePaths, result: AgentWriteResult) => {
    const written = result.status === 'recorded' ? resultFile(paths, result) : undefined;
    if (written) await host.reindex([written]);
  };
  const change = (call: ToolCall, action: string, request: ChangeRequest, sessionId?: string) =>
    onStore(call.paths, async () => {
      const { paths } = call;
      const result = await changeItem(paths, request, context(sessionId, call));
      await after(paths, result);
      // Done and forget echo the item as it stands: one held for review is not handed out.
      // (Held: flagged and not accepted. A superseded item is not held: its line may be echoed.)
      if ((request.op === 'done' || request.op === 'forget') && result.line && !itemFilter(acceptedIdentities(paths))(result.line)) {
        result.line = `[withheld: it reads as an instruction to an agent]`;
      }
      return writeReply(action, result);
    });

  return [
    agentTool(
      'remember',
      {
        title: 'Remember in project memory',
        description:
          'Record one item a later session should know: a fact, decision (reason in detail), open question, playbook (name, steps), task, done_task, ' +
          'or a note on a workspace file (path). Not for passing progress. One self-contained statement; secrets are redacted. ' +
          "Unless the store's config says otherwise it waits for a person's review; the reply names its id.",
        inputSchema: {
          kind: z.enum(ITEM_KINDS),
          statement: z.string().min(1).max(2000).describe('The item (a playbook: its steps)'),
          detail: z.string().max(2000).optional().describe('Why, or more detail'),
          name: z.string().max(200).optional().describe("A playbook's name"),
          path: z.string().max(4096).optional().describe("A note's workspace-relative file"),
          scope: z
            .enum(['shared', 'personal'])
            .optional()
            .describe("personal: the user's own (preferences, their machine), never committed"),
          session: sessionArg,
        },
        outputSchema: writeOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      ({ kind, statement, detail, name, path, scope, session: sessionId }, call) =>
        onStore(call.paths, async () => {
          const { paths } = call;
          const result = await rememberItem(paths, { kind, statement, detail, name, path, scope }, context(sessionId, call));
          await after(paths, result);
          return writeReply('remember', result);
        }),
    ),

    agentTool(
      'change_item',
      {
        title: 'Change a memory item',
        description:
          'Change an item by id when it is wrong or outdated: update (new text, new id), supersede (keep the old one marked superseded beside the new), ' +
          "done (an open task), forget (delete it). Unless the store's config says otherwise it waits for a person's review.",
        inputSchema: {
          action: z.enum(CHANGE_ACTIONS),
          id,
          text: z.string().min(1).max(2000).optional().describe('The new text (update, supersede)'),
          file,
          session: sessionArg,
        },
        outputSchema: writeOutput,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      },
      ({ action, id: itemId, text, file: where, session: sessionId }, call) => {
        if ((action === 'update' || action === 'supersede') && !text)
          return Promise.resolve(
            reply(`refused: ${action} needs the new text`, { status: 'refused', reason: `${action} needs text` }, true),
          );
        const request: ChangeRequest =
          action === 'update' || action === 'supersede'
            ? { op: action, id: itemId, text: text!, file: where }
            : { op: action, id: itemId, file: where };
        return change(call, action, request, sessionId);
      },
    ),
  ];
}
