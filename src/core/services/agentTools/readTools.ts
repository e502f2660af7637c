/**
 * Lore's read tools for agents: search_knowledge, recall_context, read_digest, read_file_notes
 * and open_conversation. Each declares an output schema and answers through toolReply, so the text
 * and the structured content agree, stay within max_tokens, name item ids, and carry warnings.
 * Items held for review (they read as instructions to an agent) are left out of every reply.
 */
import * as path from 'node:path';
import { z } from 'zod';
import { sanitizeConversationId } from '../conversations/conversationId';
import { agentItemFilter, keepsRecord } from '../../store/heldItems';
import { CATEGORY_FILES } from '../../model/categories';
import { itemId } from '../../model/itemId';
import { withoutBullet } from '../../model/itemLines';
import { parseProvenance, stripProvenance } from '../../model/provenance';
import { supersededBy } from '../../model/supersession';
import { searchArchive, type ArchivedHit } from '../../store/lifecycle/archiveSearch';
import { recall } from '../search/recall';
import { PARTIAL_MATCHES_WARNING } from '../search/searchIndex';
import { SEARCH_CATEGORIES, type SearchCategory, type SearchHit } from '../search/searchTypes';
import { frameAsData } from '../../model/safety/dataFraming';
import { isInside, storeRelative, type StorePaths } from '../../store/storePaths';
import { digestItems } from './digestItems';
import { readFileNotes } from './fileNoteLines';
import { openConversationText } from './openConversation';
import { agentTool, type AgentTool, type AgentToolHost, type ToolResult, type ToolWait } from './agentTool';
import {
  budgetBytes,
  errorReply,
  itemFromHit,
  itemFromLine,
  itemFromRecall,
  listReply,
  listReplyShape,
  maxTokensArg,
  textReply,
  type ReplyItem,
} from './toolReply';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/** Search hits asked of the index per call by default, and at most. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** The read tools, in the order clients list them. */
export function readTools(host: AgentToolHost): AgentTool[] {
  return [
    agentTool(
      'search_knowledge',
      {
        title: 'Search project knowledge',
        description:
          "Search this project's recorded knowledge (facts, decisions, open questions, playbooks, tasks, notes on files, past agent conversations) for words. " +
          'Ranked results, each with its item id, category, text, where it came from [from: conversation, date] and its store file:line. ' +
          'Says when only some of the words matched (partial matches). Only current knowledge by default: ' +
          'include_superseded adds items a newer one replaced (status superseded, ranked lower), include_archived adds items lore prune archived as unused (status archived, after the live ones).',
        inputSchema: {
          query: z.string().max(1000).describe('Words to search for; plain text, no operators'),
          category: z.enum(SEARCH_CATEGORIES).optional().describe('Only this category'),
          limit: z
            .number()
            .int()
            .min(1)
            .max(MAX_LIMIT)
            .optional()
            .describe(`At most this many results (default ${DEFAULT_LIMIT}); max_tokens may show fewer`),
          include_superseded: z
            .boolean()
            .optional()
            .describe(
              'Also items a newer item superseded (left out by default): marked superseded with the newer id, ranked below current ones',
            ),
          include_archived: z
            .boolean()
            .optional()
            .describe(
              'Also archived items (lore prune moved them out of the live files as unused) holding every word: marked archived, after the live results',
            ),
          max_tokens: maxTokensArg,
        },
        outputSchema: {
          query: z.string(),
          partial: z.boolean().describe('True when no item has every word and these items have some of them'),
          engine: z.string().describe('The search engine and mode that answered'),
          indexing: z
            .object({ done: z.number(), total: z.number() })
            .optional()
            .describe('Set while the index is still being built: files indexed so far'),
          ...listReplyShape,
        },
        annotations: { title: 'Search project knowledge', ...READ_ONLY },
        logsUses: true,
      },
      async ({ query, category, limit, include_superseded, include_archived, max_tokens }, call) => {
        const { paths } = call;
        // A first build of a large store takes a while: progress while waiting, then the part indexed so far.
        const wait = call.wait('indexing the store');
        const max = limit ?? DEFAULT_LIMIT;
        const response = await wait.during(
          host.openIndex(paths).search(query, {
            categories: category ? [category] : undefined,
            limit: max,
            superseded: include_superseded === true,
            ...wait.options,
          }),
        );
        const superseded = { superseded: include_superseded === true };
        const keep = agentItemFilter(paths, superseded);
        const marked = include_superseded === true || include_archived === true;
        const live = response.hits.filter((h) => keepsRecord(keep, h, superseded)).map((hit) => withStatus(itemFromHit(hit), hit, marked));
        const archived = include_archived
          ? archivedItems(paths, query, category, max)
              .filter((a) => keep(a.line))
              .map(itemFromArchived)
          : [];
        const items = [...live, ...archived];
        const warnings = [
          ...(response.partial ? [PARTIAL_MATCHES_WARNING] : []),
          ...response.warnings,
          ...fallbackWarning(response.backend, response.backendReason),
        ];
        const engine = `${response.backend}, ${response.mode}`;
        const replaced = items.filter((i) => i.status === 'superseded').length;
        const counts = [replaced ? `${replaced} superseded` : '', include_archived ? `${archived.length} archived` : '']
          .filter(Boolean)
          .join(', ');
        return listReply({
          items,
          footer: `(${items.length} result${items.length === 1 ? '' : 's'}${counts ? `, ${counts}` : ''}; ${engine})`,
          empty: 'no results',
          more: 'pass a larger max_tokens, a category, or more words',
          warnings,
          extra: { query, partial: response.partial === true, engine, ...(response.indexing ? { indexing: response.indexing } : {}) },
          maxTokens: max_tokens,
        });
      },
    ),

    agentTool(
      'recall_context',
      {
        title: 'Recall context for a task',
        description:
          'What this project already knows for the task at hand, in one call: the notes on the files being worked on first, then the knowledge that best matches the query. ' +
          'Without query and files: the digest (open tasks, open questions, decisions, facts, playbooks). Call it before starting work on a task.',
        inputSchema: {
          query: z.string().max(1000).optional().describe('The task or question, in a few words'),
          files: z.array(z.string().max(4096)).max(50).optional().describe('Workspace-relative paths of the files being worked on'),
          max_tokens: maxTokensArg,
        },
        outputSchema: listReplyShape,
        annotations: { title: 'Recall context for a task', ...READ_ONLY },
        logsUses: true,
      },
      ({ query, files, max_tokens }, call) =>
        recallReply(host, call.paths, { query, files, maxTokens: max_tokens }, call.wait('indexing the store')),
    ),

    agentTool(
      'read_digest',
      {
        title: 'Read the knowledge digest',
        description:
          "A short summary of this project's knowledge: the newest open tasks, open questions, decisions, facts and playbooks, each with its id.",
        inputSchema: { max_tokens: maxTokensArg },
        outputSchema: listReplyShape,
        annotations: { title: 'Read the knowledge digest', ...READ_ONLY },
      },
      async ({ max_tokens }, { paths }) => digestReply(paths, max_tokens),
    ),

    agentTool(
      'read_file_notes',
      {
        title: 'Read the notes on a file',
        description:
          'The notes recorded about one file of the workspace (why it is the way it is, pitfalls, conventions), newest first, each with its id. ' +
          'A file with many notes is shown in pages: pass offset to go on, or query to keep only notes with those words.',
        inputSchema: {
          path: z.string().min(1).max(4096).describe('Workspace-relative path of the file'),
          query: z.string().max(1000).optional().describe('Only notes containing every one of these words'),
          offset: z.number().int().min(0).optional().describe('Skip this many notes (newest first), to read on'),
          max_tokens: maxTokensArg,
        },
        outputSchema: {
          path: z.string(),
          noteFile: z.string().optional().describe('The store file holding the notes'),
          total: z.number().int().describe('Notes on the file (matching the query, when given)'),
          offset: z.number().int(),
          ...listReplyShape,
        },
        annotations: { title: 'Read the notes on a file', ...READ_ONLY },
        logsUses: true,
      },
      async ({ path: file, query, offset, max_tokens }, { paths }) => {
        const abs = path.resolve(paths.workspace, file);
        if (!isInside(paths.workspace, abs)) return errorReply(`refused: ${file} is outside the workspace ${paths.workspace}`);
        const found = await readFileNotes(paths, abs);
        const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
        const matching = (found?.lines ?? [])
          .map((line, i) => ({ line, i }))
          .filter(({ line }) => words.every((w) => line.toLowerCase().includes(w)));
        const newestFirst = matching.reverse();
        const skip = Math.min(offset ?? 0, newestFirst.length);
        const keep = agentItemFilter(paths);
        const noteFile = found ? storeRelative(paths, found.file) : undefined;
        const relative = found?.path ?? file;
        // Only as many as a reply can hold are looked at (the rules cost a little per line).
        const cap = Math.ceil(budgetBytes(max_tokens) / 40);
        const window = newestFirst.slice(skip, skip + cap);
        const items = window
          .filter(({ line }) => keep(line))
          .map(({ line }) => {
            const prov = parseProvenance(line);
            return itemFromLine({
              id: itemId(line),
              category: 'notes',
              file: noteFile ?? '',
              path: relative,
              text: stripProvenance(withoutBullet(line)).trim(),
              source: prov?.source,
              date: prov?.validDate ? prov.date : undefined,
            });
          });
        const after = newestFirst.length - skip - window.length;
        return listReply({
          items,
          heading: [`# Notes on ${relative}${noteFile ? `  (${noteFile})` : ''}${skip ? `, from note ${skip + 1}` : ''}`],
          omittedBefore: after,
          footer: `(${newestFirst.length} note${newestFirst.length === 1 ? '' : 's'}${words.length ? ' matching' : ''}, newest first)`,
          empty: found && words.length ? `no notes on ${file} contain ${query}` : `no notes for ${file}`,
          more: (shown) => `call read_file_notes again with offset ${skip + shown}, a query, or a larger max_tokens`,
          warnings: [],
          extra: { path: relative, ...(noteFile ? { noteFile } : {}), total: newestFirst.length, offset: skip },
          maxTokens: max_tokens,
        });
      },
    ),

    agentTool(
      'open_conversation',
      {
        title: 'Open the conversation behind an item',
        description:
          'The stored transcript of the conversation a knowledge item came from, by the id in its provenance [from: ID, date], ' +
          'starting at the turn the item came from when the item text is given. Long transcripts come in parts: pass from_line to read on.',
        inputSchema: {
          source: z.string().min(1).max(120).describe('The conversation id, as in [from: ID, date]'),
          item: z.string().max(2000).optional().describe('The knowledge line (or its text) to find the turn of'),
          from_line: z.number().int().min(1).optional().describe('Start at this line of the transcript (to read on)'),
          max_tokens: maxTokensArg,
        },
        outputSchema: {
          conversation: z.string(),
          found: z.boolean(),
          file: z.string().optional().describe('The store file of the transcript'),
          fromLine: z.number().int().optional(),
          toLine: z.number().int().optional(),
          totalLines: z.number().int().optional(),
          nextLine: z.number().int().optional().describe('Pass as from_line to read on; absent at the end'),
          text: z.string(),
        },
        annotations: { title: 'Open the conversation behind an item', ...READ_ONLY },
      },
      async ({ source, item, from_line, max_tokens }, { paths }) => {
        const conversation = sanitizeConversationId(source);
        // The framing line and the JSON quoting of the text take their share of the budget.
        const excerpt = openConversationText(paths, conversation, item ?? '', {
          maxBytes: Math.floor(budgetBytes(max_tokens) * 0.8),
          fromLine: from_line,
        });
        // The structured content frames the text too: clients hand the model that, not the text content.
        return textReply(
          excerpt.text,
          { conversation, ...excerpt, text: excerpt.found ? frameAsData(excerpt.text) : excerpt.text },
          excerpt.found,
        );
      },
    ),
  ];
}

/** A hit's item with its status, when the caller asked for more than current items (`marked`). */
function withStatus(item: ReplyItem, hit: SearchHit, marked: boolean): ReplyItem {
  if (!marked || hit.category === 'transcripts') return item;
  const by = supersededBy(hit.text);
  return by ? { ...item, status: 'superseded', supersededBy: by } : { ...item, status: 'current' };
}

/** Archived items holding every word of the query; archive files hold category items only, so notes and transcripts have none. */
function archivedItems(paths: StorePaths, query: string, category: SearchCategory | undefined, limit: number): ArchivedHit[] {
  if (category && !(category in CATEGORY_FILES)) return [];
  const hits = searchArchive(paths, query, category ? Number.MAX_SAFE_INTEGER : limit);
  return (category ? hits.filter((h) => h.category === category) : hits).slice(0, limit);
}

/** An archived item as a reply item. */
function itemFromArchived(hit: ArchivedHit): ReplyItem {
  const prov = parseProvenance(hit.line);
  return itemFromLine({
    id: hit.id,
    category: hit.category,
    text: stripProvenance(hit.text).trim(),
    source: prov?.source,
    date: prov?.validDate ? prov.date : undefined,
    file: hit.file,
    line: hit.lineNumber,
    status: 'archived',
  });
}

/** The digest as a reply. */
function digestReply(paths: StorePaths, maxTokens: number | undefined): ToolResult {
  const entries = digestItems(paths, budgetBytes(maxTokens));
  const sections = new Map(entries.map(({ item, section }) => [item, section]));
  return listReply({
    items: entries.map((e) => e.item),
    section: (item) => sections.get(item),
    heading: ['# Knowledge digest'],
    empty: 'the knowledge store has no items yet',
    more: 'pass a larger max_tokens, or use search_knowledge',
    warnings: [],
    extra: {},
    maxTokens,
  });
}

/** recall_context's reply (also the file_knowledge and task_context prompts'). */
export async function recallReply(
  host: Pick<AgentToolHost, 'openIndex'>,
  paths: StorePaths,
  args: { query?: string; files?: string[]; maxTokens?: number },
  wait?: ToolWait,
): Promise<ToolResult> {
  const { query, files, maxTokens } = args;
  if (!query?.trim() && !files?.length) return digestReply(paths, maxTokens);
  // The index only serves the query: the notes of files are read from their note files.
  const work = recall(paths, {
    query,
    files,
    tokenBudget: maxTokens,
    index: query?.trim() ? host.openIndex(paths) : undefined,
    ...wait?.options,
  });
  const result = await (wait ? wait.during(work) : work);
  const sections = new Map<ReplyItem, string>();
  const items = result.items.map((r) => {
    const item = itemFromRecall(r);
    sections.set(item, r.kind === 'file-note' ? `## Notes on ${r.notedPath}` : `## Knowledge matching "${query?.trim()}"`);
    return item;
  });
  return listReply({
    items,
    section: (item) => sections.get(item),
    omittedBefore: result.omitted,
    empty: 'nothing recorded yet for these files or this query',
    more: 'pass a larger max_tokens, or use search_knowledge or read_file_notes',
    warnings: [...result.warnings, ...fallbackWarning(result.backend, result.backendReason)],
    extra: {},
    maxTokens,
  });
}

/**
 * The warning that an in-memory index answered (rebuilt on every start), if one did. Without any
 * index (no SQLite driver) the search's own warnings already say why it found nothing.
 */
function fallbackWarning(backend: string | undefined, reason: string | undefined): string[] {
  return backend === 'memory' ? [`search ran on an in-memory index: ${reason}`] : [];
}
