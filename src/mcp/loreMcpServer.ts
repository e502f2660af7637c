/**
 * Lore as an MCP server (stdio): agents such as Claude Code, Codex and Cursor search the store,
 * read the digest and a file's notes, and record facts and notes. Every tool input is untrusted:
 * sizes are bounded by the schemas, text is redacted and neutralized before it is written, note
 * paths must resolve inside the workspace, and writes take the store lock and are atomic. Replies
 * that hand out knowledge open with the data framing and leave out items held for review.
 */
import { Console } from 'node:console';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { sanitizeConversationId } from '../core/conversations/conversationId';
import { agentItemFilter, keepsRecord } from '../core/knowledge/heldItems';
import { frameAsData } from '../core/safety/dataFraming';
import { redactSecrets } from '../core/safety/redact';
import { recall } from '../core/search/recall';
import { SearchIndex, type SearchIndexOptions } from '../core/search/searchIndex';
import { SEARCH_CATEGORIES, type SearchHit } from '../core/search/searchTypes';
import { watchStore, type StoreWatcher } from '../core/search/storeWatcher';
import { digestSections, readCategoryTexts, renderDigest } from '../core/store/digest';
import { describeStoreError } from '../core/store/storeErrors';
import { isInside, storeRelative, type StorePaths } from '../core/store/storePaths';
import { addFact, addNote, readFileNotes } from './mcpWrites';
import { openConversationText } from './openConversation';
import { LoreStdioTransport } from './stdioTransport';
import { toolWait } from './toolProgress';

export interface LoreMcpOptions {
  indexOptions?: SearchIndexOptions;
  /** The clock for provenance dates (tests pin it). */
  now?: () => Date;
  /** Diagnostics (stderr in the CLI: stdout is the protocol). */
  log?: (message: string) => void;
  /**
   * How long search and recall wait for the index to be built or refreshed before they answer
   * from the part indexed so far, saying so (default MCP_INDEX_WAIT_MS).
   */
  indexWaitMs?: number;
}

/** A first build of a large store takes tens of seconds: an agent gets an answer after this long. */
export const MCP_INDEX_WAIT_MS = 1000;

/** Without file events, the index is re-scanned for changes at most this often (see openIndex). */
const MCP_REFRESH_AFTER_MS = 2000;
/** With file events, a full re-scan still runs this often, for events that were lost. */
const MCP_SAFETY_REFRESH_MS = 60_000;

/** Provenance source of what an MCP client writes without naming a source. */
const MCP_SOURCE = 'mcp';

/**
 * A tool result. This is the agent-reply boundary: every text a tool returns (digest, notes,
 * hits, echoed arguments, errors) is redacted here, whatever it was read from.
 */
const text = (value: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: redactSecrets(value) }], ...(isError ? { isError } : {}) });

function hitLine(hit: SearchHit): string {
  const prov = hit.source || hit.date ? ` [from: ${hit.source ?? '?'}, ${hit.date ?? '?'}]` : '';
  const about = hit.notedPath ? ` (${hit.notedPath})` : '';
  return `- [${hit.category}]${about} ${hit.snippet}${prov} (${hit.file}${hit.line ? `:${hit.line}` : ''})`;
}

/** The reply to a write held for review: not an error, but nothing was recorded yet. */
function heldReply(kinds: readonly string[], line: string): string {
  return `held for review, not recorded yet: it reads as an instruction to an agent (${kinds.join(', ')}). A person must accept it (lore review, or the Review view in VS Code) before it reaches the knowledge agents get. Held: ${line}`;
}

/** Runs a tool body, turning any failure into a tool error the agent can read (naming the store file at fault). */
async function guarded(paths: StorePaths, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return text(`error: ${(describeStoreError(error, paths) ?? String((error as Error)?.message ?? error)).split('\n')[0]}`, true);
  }
}

/** Builds the server with its tools; `close` releases the search index. */
function createLoreMcpServer(paths: StorePaths, options: LoreMcpOptions = {}): { server: McpServer; close(): void } {
  const server = new McpServer({ name: 'lore', version: '0.1.0' });
  const now = options.now ?? (() => new Date());
  let index: SearchIndex | undefined;
  // The stat of every source before each query costs tens of ms on a large store: file events
  // update the index instead, with a slow full refresh as a safety net; without events, an
  // agent can live with two seconds of staleness. The server's own writes reindex at once.
  const reindex = async (files: string[]) => {
    await index?.update({ only: files }).catch(() => undefined);
  };
  let watcher: StoreWatcher | undefined;
  const openIndex = () => {
    if (index) return index;
    watcher = watchStore(
      paths,
      (files) => void reindex(files),
      (error) => {
        // Events stopped: fall back to the short re-scan interval.
        options.log?.(`lore mcp: watching the store failed (${error.message}); re-checking it every ${MCP_REFRESH_AFTER_MS / 1000} s instead`);
        watcher?.close();
        index?.refreshAfter(MCP_REFRESH_AFTER_MS);
      },
    );
    const refreshAfterMs = watcher ? MCP_SAFETY_REFRESH_MS : MCP_REFRESH_AFTER_MS;
    const updateWaitMs = options.indexWaitMs ?? MCP_INDEX_WAIT_MS;
    return (index = SearchIndex.open(paths, { refreshAfterMs, updateWaitMs, ...options.indexOptions, log: options.log }));
  };

  server.registerTool(
    'search',
    {
      description:
        'Search the project knowledge (facts, decisions, questions, playbooks, tasks, per-file notes, past conversations). ' +
        'Returns ranked one-line results with provenance [from: source, date] and store file:line.',
      inputSchema: {
        query: z.string().max(1000).describe('Words to search for; plain text, no operators'),
        category: z.enum(SEARCH_CATEGORIES).optional().describe('Only this category'),
        limit: z.number().int().min(1).max(100).optional().describe('At most this many results (default 10)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, category, limit }, extra) =>
      guarded(paths, async () => {
        const wait = toolWait(extra, 'search', 'indexing the store', options.log);
        const response = await wait.during(openIndex().search(query, { categories: category ? [category] : undefined, limit: limit ?? 10, ...wait.options }));
        const keep = agentItemFilter(paths);
        response.hits = response.hits.filter((h) => keepsRecord(keep, h));
        const lines = response.hits.map(hitLine);
        const footer = `(${response.hits.length} result${response.hits.length === 1 ? '' : 's'}; ${response.backend}; ${response.modeReason})${response.indexing ? `\n(${response.warnings.join('; ')})` : ''}`;
        return {
          ...text(lines.length ? frameAsData([...lines, footer].join('\n')) : ['no results', footer].join('\n')),
          // Hits are index documents, redacted when they were indexed (extractDocs): walking every
          // field through the rules again cost more than the query itself.
          structuredContent: { hits: response.hits, backend: response.backend, backendReason: response.backendReason, mode: response.mode, modeReason: response.modeReason, ...(response.indexing ? { indexing: response.indexing, warnings: response.warnings } : {}) },
        };
      }),
  );

  server.registerTool(
    'recall',
    {
      description:
        'Compact, token-budgeted knowledge for a task: the notes of the given files first, then the best matches for the query. ' +
        'Without query and files, the store digest.',
      inputSchema: {
        query: z.string().max(1000).optional(),
        files: z.array(z.string().max(4096)).max(50).optional().describe('Workspace-relative paths of the files being worked on'),
        token_budget: z.number().int().min(50).max(20000).optional().describe('Approximate tokens to return (default 1000)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, files, token_budget }, extra) =>
      guarded(paths, async () => {
        const wait = toolWait(extra, 'recall', 'indexing the store', options.log);
        // The index only serves the query: the notes of files are read from their note files.
        const result = await wait.during(recall(paths, { query, files, tokenBudget: token_budget, index: query?.trim() ? openIndex() : undefined, ...wait.options }));
        const building = result.indexing ? `\n(${result.warnings?.join('; ')})` : '';
        const more = (result.omitted > 0 ? `\n(${result.omitted} more match${result.omitted === 1 ? '' : 'es'} did not fit the budget; use search)` : '') + building;
        return text(result.text ? frameAsData(result.text) + more : 'nothing recorded yet' + more);
      }),
  );

  server.registerTool(
    'read_digest',
    {
      description: 'The 4 KB digest of the store: open tasks, open questions, decisions, facts, playbooks, newest first.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => guarded(paths, async () => text(renderDigest(digestSections(readCategoryTexts(paths), agentItemFilter(paths))) ?? 'the knowledge store has no items yet')),
  );

  server.registerTool(
    'read_file_notes',
    {
      description: 'The notes attached to a file of the workspace (workspace-relative path).',
      inputSchema: { path: z.string().min(1).max(4096) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path: file }) =>
      guarded(paths, async () => {
        const abs = path.resolve(paths.workspace, file);
        if (!isInside(paths.workspace, abs)) return text(`refused: ${file} is outside the workspace ${paths.workspace}`, true);
        const found = await readFileNotes(paths, abs);
        const keep = agentItemFilter(paths);
        const lines = found?.lines.filter(keep) ?? [];
        if (!found || lines.length === 0) return text(`no notes for ${file}`);
        return text(frameAsData([`# ${found.path}  (${storeRelative(paths, found.file)})`, ...lines].join('\n')));
      }),
  );

  server.registerTool(
    'open_conversation',
    {
      description:
        'The conversation a knowledge item came from, by the id in its provenance [from: ID, date]: its stored transcript, ' +
        'starting at the turn the item came from when the item line is given.',
      inputSchema: {
        source: z.string().min(1).max(120).describe('The conversation id, as in [from: ID, date]'),
        item: z.string().max(2000).optional().describe('The knowledge line (or its text) to find the turn of'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ source, item }) =>
      guarded(paths, async () => {
        const reply = openConversationText(paths, sanitizeConversationId(source), item ?? '');
        return text(reply.found ? frameAsData(reply.text) : reply.text);
      }),
  );

  server.registerTool(
    'add_fact',
    {
      description: 'Record a durable fact about the project in facts.md, with provenance [from: source, today].',
      inputSchema: {
        statement: z.string().min(1).max(2000).describe('One self-contained statement'),
        source: z.string().max(120).optional().describe('Where it comes from (conversation id); default "mcp"'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ statement, source }) =>
      guarded(paths, async () => {
        const from = source && source.trim() ? sanitizeConversationId(source) : MCP_SOURCE;
        const result = await addFact(paths, statement, from, now());
        if (result.held) return text(heldReply(result.held.kinds, result.line));
        await reindex([path.join(paths.root, 'facts.md')]);
        return text(result.added ? `added to facts.md: ${result.line}` : `already recorded: ${result.line}`);
      }),
  );

  server.registerTool(
    'add_note',
    {
      description: 'Attach a note to a file of the workspace (workspace-relative path); refused for paths outside the workspace.',
      inputSchema: { path: z.string().min(1).max(4096), note: z.string().min(1).max(2000) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ path: file, note }) =>
      guarded(paths, async () => {
        const result = await addNote(paths, file, note, MCP_SOURCE, now());
        if (!result.ok) return text(`refused: cannot attach a note to ${file}: ${result.reason} (workspace: ${paths.workspace})`, true);
        if (result.held) return text(heldReply(result.held.kinds, result.line));
        await reindex([result.noteFile]);
        return text(`noted ${result.relative} in ${storeRelative(paths, result.noteFile)}: ${result.line}`);
      }),
  );

  return {
    server,
    close: () => {
      watcher?.close();
      index?.close();
    },
  };
}

/** Serves the store over stdio until the client disconnects. */
export async function serveLoreMcp(paths: StorePaths, options: LoreMcpOptions = {}): Promise<void> {
  // Stdout is the protocol: a library that console.logs (the ollama SDK does on an HTTP error)
  // would break the client's stream, so console output goes to stderr while serving.
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const { server, close } = createLoreMcpServer(paths, options);
  // Lore's transport answers oversized and invalid lines, and closes when stdin ends.
  const transport = new LoreStdioTransport(process.stdin, process.stdout, { log: options.log });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  options.log?.(`lore mcp: serving ${paths.root} on stdio`);
  await closed;
  close();
  await server.close().catch(() => undefined);
}
