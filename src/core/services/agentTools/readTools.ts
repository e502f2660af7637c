/**
 * Lore's read tools for agents: `search` (ranked matches, a file's notes, items by id, the
 * digest: one tool, so the tool list every request carries stays small) and `open_conversation`.
 * Each answers through toolReply, so the text and the structured content agree, stay within
 * max_tokens, name item ids, and carry the data framing and warnings. Items held for review
 * (they read as instructions to an agent) are left out of every reply.
 */
import * as path from 'node:path';
import { z } from 'zod';
import { sanitizeConversationId } from '../conversations/conversationId';
import { agentItemFilter, keepsRecord } from '../../store/heldItems';
import { CATEGORY_FILES } from '../../model/categories';
import { itemId } from '../../model/itemId';
import { withoutBullet } from '../../model/itemLines';
import { parseProvenance, stripProvenance } from '../../model/provenance';
import { supersededBy, withoutSupersession } from '../../model/supersession';
import { searchArchive, type ArchivedHit } from '../../store/lifecycle/archiveSearch';
import { PARTIAL_MATCHES_WARNING } from '../search/searchIndex';
import { SEARCH_CATEGORIES, type SearchCategory, type SearchHit } from '../search/searchTypes';
import { frameAsData } from '../../model/safety/dataFraming';
import { isInside, storeRelative, type StorePaths } from '../../store/storePaths';
import { digestItems } from './digestItems';
import { readFileNotes } from './fileNoteLines';
import { openConversationText } from './openConversation';
import { agentTool, type AgentTool, type AgentToolHost, type ToolCall, type ToolResult } from './agentTool';
import { itemsByIdReply } from './itemsById';
import { ITEM_ID_PATTERN } from '../../model/itemId';
import { ItemHistoryMemo } from '../../store/items/itemHistoryCache';
import {
  budgetBytes,
  errorReply,
  itemFromHit,
  itemFromLine,
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
const INCLUDES = ['superseded', 'archived'] as const;

/** The read tools, in the order clients list them: `search` (every read of knowledge), `open_conversation`. */
export function readTools(host: AgentToolHost): AgentTool[] {
  // Items' git histories (search with ids), remembered per item, HEAD and file version (bounded).
  const histories = new ItemHistoryMemo();
  return [
    agentTool(
      'search',
      {
        title: 'Search project memory',
        description:
          "Read this project's memory (facts, decisions, questions, playbooks, tasks, notes on files, past conversations). " +
          'Call it before working on a task or a file, and when the user refers to earlier work. ' +
          'query: ranked matches; path: the notes on that file (query keeps those with its words); ids: those items in full, with history; nothing: the digest. ' +
          'Each item shows its id, which change_item and ids take.',
        inputSchema: {
          query: z.string().max(1000).optional().describe('Words to look for, plain text'),
          path: z.string().max(4096).optional().describe('A workspace-relative file: its notes, newest first'),
          ids: z.array(z.string().regex(ITEM_ID_PATTERN)).max(50).optional().describe('Item ids to read in full'),
          category: z.enum(SEARCH_CATEGORIES).optional().describe('Only this category (with query)'),
          include: z.array(z.enum(INCLUDES)).optional().describe('Also items a newer one superseded, or that lore prune archived'),
          offset: z.number().int().min(0).max(10_000_000).optional().describe("Skip this many of path's notes, to read on"),
          limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Most results (default ${DEFAULT_LIMIT})`),
          max_tokens: maxTokensArg,
        },
        outputSchema: listReplyShape,
        annotations: { title: 'Search project memory', ...READ_ONLY },
        logsUses: true,
      },
      async ({ query, path: file, ids, category, include, offset, limit, max_tokens }, call) => {
        const words = query?.trim() ? query : undefined;
        if (ids?.length) return itemsByIdReply(call.paths, ids, histories, max_tokens);
        if (file) return fileNotesReply(call.paths, file, { query: words, offset, maxTokens: max_tokens });
        if (words) return searchReply(host, call, { query: words, category, include, limit, maxTokens: max_tokens });
        return digestReply(call.paths, max_tokens);
      },
    ),

    agentTool(
      'open_conversation',
      {
        title: 'Open the conversation behind an item',
        description:
          'The stored conversation an item came from, by the id in its [from: ID, date], from the turn the item came from when item is given. ' +
          'Use it when an item needs its context. Long conversations come in parts: pass from_line to read on.',
        inputSchema: {
          source: z.string().min(1).max(120).describe('The conversation id, as in [from: ID, date]'),
          item: z.string().max(2000).optional().describe("The item's text, to start at its turn"),
          from_line: z.number().int().min(1).max(100_000_000).optional().describe('Start at this line (to read on)'),
          max_tokens: maxTokensArg,
        },
        outputSchema: { found: z.boolean(), text: z.string(), nextLine: z.number().int().optional() },
        annotations: { title: 'Open the conversation behind an item', ...READ_ONLY },
      },
      async ({ source, item, from_line, max_tokens }, { paths }) => {
        const conversation = sanitizeConversationId(source);
        // The framing line and the JSON quoting of the text take their share of the budget.
        const excerpt = openConversationText(paths, conversation, item ?? '', {
          maxBytes: Math.floor(budgetBytes(max_tokens) * 0.8),
          fromLine: from_line,
        });
        // The structured content is the text itself, framed: clients hand the model that, not the text content.
        const text = excerpt.found ? frameAsData(excerpt.text) : excerpt.text;
        return textReply(text, { found: excerpt.found, text, ...(excerpt.nextLine ? { nextLine: excerpt.nextLine } : {}) }, false);
      },
    ),
  ];
}

/** A ranked search: current items, and superseded or archived ones when `include` names them. */
async function searchReply(
  host: AgentToolHost,
  call: ToolCall,
  args: {
    query: string;
    category?: SearchCategory;
    include?: ReadonlyArray<(typeof INCLUDES)[number]>;
    limit?: number;
    maxTokens?: number;
  },
): Promise<ToolResult> {
  const { paths } = call;
  const { query, category } = args;
  const includeSuperseded = args.include?.includes('superseded') === true;
  const includeArchived = args.include?.includes('archived') === true;
  // A first build of a large store takes a while: progress while waiting, then the part indexed so far.
  const wait = call.wait('indexing the store');
  const max = args.limit ?? DEFAULT_LIMIT;
  const response = await wait.during(
    host.openIndex(paths).search(query, {
      categories: category ? [category] : undefined,
      limit: max,
      superseded: includeSuperseded,
      ...wait.options,
    }),
  );
  const superseded = { superseded: includeSuperseded };
  const keep = agentItemFilter(paths, superseded);
  const marked = includeSuperseded || includeArchived;
  const live = response.hits.filter((h) => keepsRecord(keep, h, superseded)).map((hit) => withStatus(itemFromHit(hit), hit, marked));
  const archived = includeArchived
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
  const replaced = items.filter((i) => i.status === 'superseded').length;
  const counts = [replaced ? `${replaced} superseded` : '', includeArchived ? `${archived.length} archived` : '']
    .filter(Boolean)
    .join(', ');
  return listReply({
    items,
    footer: `(${items.length} result${items.length === 1 ? '' : 's'}${counts ? `, ${counts}` : ''})`,
    empty: 'no results',
    more: 'pass a larger max_tokens, a category, or more words',
    warnings,
    extra: {},
    maxTokens: args.maxTokens,
  });
}

/** The notes on one workspace file (those holding every word of `query`, when given), newest first, in pages of what a reply holds. */
async function fileNotesReply(
  paths: StorePaths,
  file: string,
  args: { query?: string; offset?: number; maxTokens?: number },
): Promise<ToolResult> {
  const { offset, maxTokens } = args;
  const abs = path.resolve(paths.workspace, file);
  if (!isInside(paths.workspace, abs)) return errorReply(`refused: ${file} is outside the workspace ${paths.workspace}`);
  const found = await readFileNotes(paths, abs);
  const words = (args.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const newestFirst = (found?.lines ?? []).filter((line) => words.every((w) => line.toLowerCase().includes(w))).reverse();
  const skip = Math.min(offset ?? 0, newestFirst.length);
  const keep = agentItemFilter(paths);
  const noteFile = found ? storeRelative(paths, found.file) : undefined;
  const relative = found?.path ?? file;
  // Only as many as a reply can hold are looked at (the rules cost a little per line).
  const cap = Math.ceil(budgetBytes(maxTokens) / 40);
  const window = newestFirst.slice(skip, skip + cap);
  const items = window
    .filter((line) => keep(line))
    .map((line) => {
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
    heading: [`# Notes on ${relative}${skip ? `, from note ${skip + 1}` : ''}`],
    omittedBefore: after,
    footer: `(${newestFirst.length} note${newestFirst.length === 1 ? '' : 's'}${words.length ? ' matching' : ''}, newest first)`,
    empty: found && words.length ? `no notes on ${file} contain ${args.query}` : `no notes for ${file}`,
    more: (shown) => `search again with this path and offset ${skip + shown}, a query, or a larger max_tokens`,
    warnings: [],
    extra: {},
    maxTokens,
  });
}

/** A hit's item with its status, when the caller asked for more than current items (`marked`). */
function withStatus(item: ReplyItem, hit: SearchHit, marked: boolean): ReplyItem {
  if (!marked || hit.category === 'transcripts') return item;
  const by = supersededBy(hit.text);
  // The status says what the marker said: the text is the statement alone.
  return by ? { ...item, text: withoutSupersession(item.text), status: 'superseded', supersededBy: by } : { ...item, status: 'current' };
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
    more: 'pass a larger max_tokens, or search with a query',
    warnings: [],
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
