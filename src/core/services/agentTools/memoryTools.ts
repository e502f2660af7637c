/**
 * The tools agents keep memory correct with: `remember` (an item in any category),
 * `update_item` (new text, or a supersession), `complete_task`, `forget_item` and `get_item`, all
 * naming items by their stable id (core/knowledge/itemId). Writes go through
 * core/knowledge/agentWrites: redacted, neutralized, flagged, under the store lock, and by default
 * queued for a person (review.md) rather than written; provenance names the client and session
 * (`[from: claude-code:<session>, date]`). Each tool declares an output schema and returns compact
 * structured content with a short text that names the id(s).
 */
import * as path from 'node:path';
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
import { readItem, type ItemReport } from '../../store/items/itemReport';
import { learnedSummary, type LearnedSummary } from '../../store/items/itemHistory';
import { ItemHistoryMemo } from '../../store/items/itemHistoryCache';
import { addedByText } from '../../store/history/lineAuthors';
import { frameAsData } from '../../model/safety/dataFraming';
import { redactDeep, redactSecrets } from '../../model/safety/redact';
import { describeStoreError } from '../../store/storeErrors';
import { AGENT_WRITES_MODES, type AgentWritesMode } from '../../model/storeConfigFormat';
import type { StorePaths } from '../../store/storePaths';
import { agentTool, type AgentTool, type AgentToolHost, type ToolResult } from './agentTool';
import { openConversationText } from './openConversation';
import { logReplyUses } from './toolContext';

/** How much of the source conversation get_item hands out (the agent can open the rest). */
const EXCERPT_CHARS = 3000;

const id = z
  .string()
  .regex(ITEM_ID_PATTERN, 'an 8-character item id, as replies name them')
  .describe('The item id, as replies and get_item name it');
const sessionArg = z
  .string()
  .max(200)
  .optional()
  .describe('Your session or conversation id, recorded in the provenance [from: client:session, date]');
const file = z.string().max(300).optional().describe('Store file (e.g. facts.md) when the same item is written in several files');

const writeOutput = {
  status: z.enum(['recorded', 'pending', 'held', 'unchanged', 'refused', 'not-found', 'ambiguous']),
  id: z.string().optional().describe('The id of the new item, or of the item acted on'),
  item: z.string().optional().describe('The id of the item changed (update, supersede, done, forget)'),
  line: z.string().optional(),
  file: z.string().optional(),
  kinds: z.array(z.string()).optional(),
  reason: z.string().optional(),
  places: z.array(z.object({ file: z.string(), line: z.number() })).optional(),
};

const itemOutput = {
  id: z.string(),
  found: z.boolean(),
  status: z.enum(['recorded', 'superseded', 'pending', 'held']).optional(),
  kind: z.string().optional(),
  line: z.string().optional(),
  file: z.string().optional(),
  layer: z
    .enum(['shared', 'personal'])
    .optional()
    .describe("personal: in the user's own layer (.lore/personal/), not shared with the team"),
  lineNumber: z.number().optional(),
  notedPath: z.string().optional(),
  provenance: z.object({ source: z.string(), date: z.string() }).optional(),
  supersededBy: z.string().optional(),
  pending: z
    .array(z.object({ op: z.string(), newId: z.string().optional(), of: z.string().optional(), line: z.string() }))
    .optional()
    .describe("Agents' writes of this item waiting for a person"),
  places: z.array(z.object({ file: z.string(), line: z.number() })).optional(),
  conversation: z.string().optional().describe('An excerpt of the conversation the item came from, when the store keeps it'),
  learned: z
    .object({
      date: z.string().optional().describe('When the commit that added the item was made (ISO 8601); absent while not committed'),
      commit: z.string().optional(),
      subject: z.string().optional(),
      conversation: z.string().optional().describe('The conversation the item came from (its provenance)'),
      transcript: z.string().optional().describe('Its stored transcript, store-relative'),
      changes: z.number().describe('Commits that changed the item since'),
      lastChanged: z.string().optional(),
      uncommitted: z.boolean().describe('The line as it stands is not committed yet'),
    })
    .optional()
    .describe('When the store is in git: when the item was learned (as lore history ID tells it)'),
  addedBy: z
    .object({ author: z.string(), date: z.string().describe('ISO 8601'), commit: z.string() })
    .optional()
    .describe('When the store is in git and the item is committed: the git author of the commit that added its line'),
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
  switch (result.status) {
    case 'recorded':
      if (action === 'forget') return `forgot${acted} from ${result.file}: removed ${result.line}`;
      if (action === 'done') return `marked task${acted} done in ${result.file}`;
      if (action === 'update') return `updated${acted} in ${result.file}; it is now ${result.id}: ${result.line}`;
      if (action === 'supersede') return `superseded${acted} by ${result.id} in ${result.file}: ${result.line}`;
      return `remembered ${result.id} in ${result.file}: ${result.line}`;
    case 'pending':
      return `pending ${action}${acted}${action === 'remember' || action === 'update' || action === 'supersede' ? ` (new item ${result.id})` : ''}: ${WAITS}. ${result.line}`;
    case 'held':
      return `held ${result.id} for review, not recorded: it reads as an instruction to an agent (${(result.kinds ?? []).join(', ')}); a person must accept it (lore review, or the Review view in VS Code). Held: ${result.line}`;
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
      ...(result.reason ? { reason: result.reason } : {}),
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

/** The source conversation of an item: by its provenance id, else by the session part of `client:session`. */
function conversationExcerpt(paths: StorePaths, report: ItemReport): string | undefined {
  const source = report.provenance?.source;
  if (!source || !report.line) return undefined;
  const candidates = [source, ...(source.includes(':') ? [source.slice(source.indexOf(':') + 1)] : [])];
  for (const candidate of candidates) {
    // About EXCERPT_CHARS bytes of transcript from the turn the item came from.
    const found = openConversationText(paths, sanitizeConversationId(candidate), report.line, { maxBytes: EXCERPT_CHARS });
    if (!found.found) continue;
    return found.nextLine
      ? `${found.text}\n(cut; open_conversation with source ${candidate} and from_line ${found.nextLine} reads on)`
      : found.text;
  }
  return undefined;
}

/** The learned block of get_item (undefined without git history). */
function learnedOf(summary: LearnedSummary | undefined): Record<string, unknown> | undefined {
  if (!summary) return undefined;
  return {
    ...(summary.added ? { date: summary.added.date, commit: summary.added.commit, subject: summary.added.subject } : {}),
    ...(summary.conversation ? { conversation: summary.conversation } : {}),
    ...(summary.transcript ? { transcript: summary.transcript } : {}),
    changes: summary.changes,
    ...(summary.lastChange ? { lastChanged: summary.lastChange.date } : {}),
    uncommitted: summary.uncommitted,
  };
}

/** One line: when the item was learned, the way the hover says it. */
function describeLearned(summary: LearnedSummary): string {
  if (!summary.added) return 'learned: not committed yet';
  const from = summary.conversation ? ` from conversation ${summary.conversation}` : '';
  const since = summary.lastChange
    ? `; changed ${summary.changes} time${summary.changes === 1 ? '' : 's'} since, last ${summary.lastChange.date.slice(0, 10)}`
    : '';
  return `learned ${summary.added.date.slice(0, 10)}${from} — ${summary.added.subject} (${summary.added.commit.slice(0, 7)})${since}${summary.uncommitted ? '; changed since, not committed yet' : ''}`;
}

function describeItem(report: ItemReport): string {
  if (!report.found)
    return `no item ${report.id} in this store${report.places?.length ? '' : ' (it may have been changed: a changed text has a new id)'}`;
  const where = report.file ? ` ${report.file}${report.lineNumber ? `:${report.lineNumber}` : ''}` : '';
  const lines = [
    `${report.id} (${report.kind}, ${report.status}${report.layer === 'personal' ? ', personal' : ''})${where}${report.notedPath ? ` about ${report.notedPath}` : ''}`,
    report.line ?? '',
  ];
  if (report.supersededBy) lines.push(`superseded by ${report.supersededBy}`);
  for (const p of report.pending ?? [])
    lines.push(`pending ${p.op}${p.of ? ` of ${p.of}` : ''}${p.newId ? ` (new item ${p.newId})` : ''}: ${p.line}`);
  if ((report.places?.length ?? 0) > 1)
    lines.push(
      `also in: ${report
        .places!.slice(1)
        .map((p) => `${p.file}:${p.line}`)
        .join(', ')}`,
    );
  return lines.join('\n');
}

/** `$LORE_AGENT_WRITES` when it names a mode (anything else is ignored: config.json decides). */
export function agentWritesFromEnv(value: string | undefined): AgentWritesMode | undefined {
  const parsed = z.enum(AGENT_WRITES_MODES).safeParse(value?.trim());
  return parsed.success ? parsed.data : undefined;
}

/** remember, update_item, complete_task, forget_item and get_item, in the order clients list them. */
export function memoryTools(host: AgentToolHost): AgentTool[] {
  const onStore = (paths: StorePaths, body: () => Promise<ToolResult>) => guarded(paths, body);
  const sourceOf = (sessionId: string | undefined) => agentSource(host.clientName(), sessionId, sanitizeConversationId);
  const mode = host.agentWrites ?? agentWritesFromEnv(process.env.LORE_AGENT_WRITES);
  // get_item's "learned": histories remembered per item, HEAD and file version (bounded).
  const histories = new ItemHistoryMemo();
  const context = (sessionId: string | undefined) => ({ source: sourceOf(sessionId), today: host.now(), ...(mode ? { mode } : {}) });
  // Re-indexes what a write recorded, so the agent's next search sees it.
  const after = async (paths: StorePaths, result: AgentWriteResult) => {
    const written = result.status === 'recorded' ? resultFile(paths, result) : undefined;
    if (written) await host.reindex([written]);
  };
  const change = (paths: StorePaths, action: string, request: ChangeRequest, sessionId?: string) =>
    onStore(paths, async () => {
      const result = await changeItem(paths, request, context(sessionId));
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
          'Record one item in the project knowledge: a fact, decision, open question, playbook (name + steps), open task, done task, ' +
          'or a note on a workspace file (path). By default it waits for a person to accept it; the reply names its id. ' +
          'Write one self-contained statement; secrets are redacted.',
        inputSchema: {
          category: z.enum(ITEM_KINDS).describe('fact | decision | question | playbook | task (open) | done_task | note (needs path)'),
          statement: z.string().min(1).max(2000).describe('The item, one self-contained statement (a playbook: its steps)'),
          detail: z.string().max(2000).optional().describe('Why, or more detail, written after the statement'),
          name: z.string().max(200).optional().describe("A playbook's name"),
          path: z.string().max(4096).optional().describe('For a note: the workspace-relative path of the file it is about'),
          scope: z
            .enum(['shared', 'personal'])
            .optional()
            .describe("shared (default): the team's knowledge; personal: the user's own (preferences, their machine), never committed"),
          session: sessionArg,
        },
        outputSchema: writeOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      ({ category, statement, detail, name, path, scope, session: sessionId }, { paths }) =>
        onStore(paths, async () => {
          const result = await rememberItem(paths, { kind: category, statement, detail, name, path, scope }, context(sessionId));
          await after(paths, result);
          return writeReply('remember', result);
        }),
    ),

    agentTool(
      'update_item',
      {
        title: 'Update or supersede a memory item',
        description:
          'Change an item by id. Without supersede, its text is replaced (it keeps its source, dated today, and gets a new id). ' +
          'With supersede: true, the old item stays, marked superseded, and the new text becomes a new item beside it. ' +
          'By default the change waits for a person to accept it.',
        inputSchema: {
          id,
          text: z.string().min(1).max(2000).describe('The new text of the item'),
          supersede: z.boolean().optional(),
          file,
          session: sessionArg,
        },
        outputSchema: writeOutput,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      },
      ({ id: itemId, text, supersede, file: where, session: sessionId }, { paths }) =>
        change(
          paths,
          supersede ? 'supersede' : 'update',
          { op: supersede ? 'supersede' : 'update', id: itemId, text, file: where },
          sessionId,
        ),
    ),

    agentTool(
      'complete_task',
      {
        title: 'Mark a task done',
        description: 'Move an open task (by id) to Done in tasks.md. By default the change waits for a person to accept it.',
        inputSchema: { id, file, session: sessionArg },
        outputSchema: writeOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      ({ id: itemId, file: where, session: sessionId }, { paths }) =>
        change(paths, 'done', { op: 'done', id: itemId, file: where }, sessionId),
    ),

    agentTool(
      'forget_item',
      {
        title: 'Forget a memory item',
        description:
          'Delete an item (by id) from its file; the reply says what was removed. By default it waits for a person to accept it.',
        inputSchema: { id, file, session: sessionArg },
        outputSchema: writeOutput,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      },
      ({ id: itemId, file: where, session: sessionId }, { paths }) =>
        change(paths, 'forget', { op: 'forget', id: itemId, file: where }, sessionId),
    ),

    agentTool(
      'get_item',
      {
        title: 'Read a memory item by id',
        description:
          'One item by id: its line, file:line, category, provenance, status (recorded, superseded, pending, held) and changes waiting ' +
          'for review, with an excerpt of the conversation it came from when the store keeps it, and when the store keeps a git history, ' +
          'who added it (the git author of the commit that added its line), when it was learned (commit date, conversation) and how often it changed since.',
        inputSchema: { id },
        outputSchema: itemOutput,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ id: itemId }, { paths }) =>
        onStore(paths, async () => {
          const report = readItem(paths, itemId);
          const conversation = report.found && report.status !== 'held' ? conversationExcerpt(paths, report) : undefined;
          // A written item (not one waiting in review, not a held one) in a store with git history.
          const written = report.found && report.lineNumber !== undefined && report.status !== 'held' && report.file;
          const history = written ? await histories.get(paths, report.id, path.join(paths.root, written)) : undefined;
          const summary = history ? learnedSummary(history) : undefined;
          const learned = learnedOf(summary);
          const added = summary?.added;
          const addedBy = added ? { author: added.author, date: added.date, commit: added.commit } : undefined;
          const structured = {
            ...report,
            ...(conversation ? { conversation } : {}),
            ...(learned ? { learned } : {}),
            ...(addedBy ? { addedBy } : {}),
          };
          const text =
            describeItem(report) +
            (addedBy ? `\n${addedByText(addedBy)}` : '') +
            (summary ? `\n${describeLearned(summary)}` : '') +
            (conversation ? `\n\n${conversation}` : '');
          return logReplyUses(paths, reply(report.found ? frameAsData(text) : text, structured));
        }),
    ),
  ];
}
