/**
 * The contract between the Lore language server (src/server) and the VS Code client
 * (src/extension): initialization options, custom requests and notifications, and the Lore
 * commands that code lenses, hovers and document links invoke.
 *
 * Each custom message is ONE declaration (src/shared/declareMessage.ts): its method, which way it
 * goes, and the zod schema of its params (and of its result where the receiver checks it). The
 * `Params`/`Result` types of its namespace follow from it, the server checks every request with
 * it before a handler runs (src/server/handleMessage.ts), and the client sends by it
 * (src/extension/serverRequest.ts). To add a message: declare it in the protocol file of its
 * area, register it on the server with handleRequest, send it with sendRequest.
 *
 * Importing a declaration loads neither zod nor an LSP library: the schemas and the LSP `type`
 * are built on first use, so the extension host loads the client's libraries
 * (dist/languageClient.js) only when it starts the client, after activation. The server
 * registers by `method` string: `vscode-languageserver` 10 carries its own nested jsonrpc copy,
 * whose parameter-structure check compares class instances by identity. The harvest's messages
 * are in harvestProtocol.ts, per-file notes' in notesProtocol.ts, task memory's in
 * taskProtocol.ts, the store's writes in storeProtocol.ts; this module re-exports them.
 */
import type { CacheReport } from '../core/services/promptCache/cacheReport';
import type { SourcesReport } from '../core/services/harvest/measureSources';
import type { ForgetPlan, ForgetResult } from '../core/store/forget/forgetConversation';
import type { RememberPlan, RememberResult } from '../core/store/items/rememberItem';
import { REMEMBER_KINDS, REMEMBER_MAX_CHARS } from '../core/model/rememberKinds';
import type { RecallResult } from '../core/services/search/recall';
import { SEARCH_CATEGORIES, type SearchResponse } from '../core/services/search/searchTypes';
import { filePath } from './boundedText';
import { notification, request, returns, type Zod } from './declareMessage';

/**
 * Node flags the language server runs with, wherever it is started (the extension, the tests, the
 * bench). A young generation of 4 MB instead of V8's default (up to 64 MB per semi-space on a
 * machine with memory to spare): a server answering many small requests otherwise grew by
 * ~40 MiB of short-lived garbage, 159 MiB at 10,000 note files against ~110 MiB with it, with
 * hover and lens no slower (`npm run bench`, server).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** What the client passes as `initializationOptions`. The store may not exist yet. */
export interface LoreInitializationOptions {
  /** Absolute path of the knowledge store, e.g. `<workspace>/.lore`. */
  storeRoot: string;
  /** Absolute path of the workspace folder the store describes (note paths are relative to it). */
  workspaceRoot: string;
  /** The `lore.search.backend` setting (default `auto`: the index file, in memory when it cannot be used). */
  searchBackend?: 'auto' | 'memory';
  /** The `lore.git.commit` setting when it decides over the store's config.json (absent: `store`). */
  gitCommit?: 'off' | 'apply' | 'interval';
  /** VS Code's workspace trust: the store's config.json may widen agents' writes and commits (core/store/storeTrust.ts). */
  workspaceTrusted?: boolean;
}

/** Ids of the client-side commands the server's lenses, hovers and links invoke. */
export const LoreCommands = {
  /** Args: {@link OpenProvenanceArgs}. Opens the transcript (inbox, archive, external source) or, when gone, its ledger entry. */
  openProvenance: 'lore.openProvenance',
  /** Args: {@link OpenNoteFileArgs}. Opens a note file at a line. */
  openNoteFile: 'lore.openNoteFile',
  /** Args: {@link EditNotesArgs}. Opens a file's note file for editing (cursor at the end of the notes). */
  editNotes: 'lore.editNotes',
  /** Args: {@link DeleteNoteArgs}. Deletes one note, e.g. by sending {@link DeleteNoteRequest}. */
  deleteNote: 'lore.deleteNote',
  /** Args: {@link MarkNotesValidArgs}. Sends {@link MarkNotesValidRequest}. */
  markNotesValid: 'lore.markNotesValid',
  /** Args: `{ id }`. Opens the store file holding the knowledge item with that id at its line (the newer item a superseded one points to). */
  revealItemById: 'lore.revealItemById',
} as const;

/**
 * The only commands a Lore hover may run: the client sets
 * `markdown: { isTrusted: { enabledCommands: HOVER_ENABLED_COMMANDS } }`. Note text in hovers is
 * escaped by the server, so no other command link can appear, but this list is the real guard.
 */
export const HOVER_ENABLED_COMMANDS: readonly string[] = Object.values(LoreCommands);

/**
 * Client → server: the agent sessions on this machine that belong to the workspace, per tool,
 * measured as the harvest's dry run measures them (core/discovery). The work reads other tools'
 * folders and renders sessions, so it runs here, never on the extension host.
 */
export const SourcesRequest = request({
  method: 'lore/sources',
  direction: 'toServer',
  // allWorkspaces: list other workspaces' sessions too (they are never preselected).
  params: (z) => z.object({ allWorkspaces: z.boolean().optional() }).strict(),
  result: returns<SourcesReport>(),
});
/** How many session files one SessionTitlesRequest may name (a view asks for the rows it shows). */
export const SESSION_TITLES_MAX = 200;

/**
 * Client → server: the titles of conversation files the views list (the Ledger's and the Inbox's
 * rows whose ledger entry records none), read by the importers (core/discovery/sessionTitle.ts),
 * which stay out of the extension host. Files without a title are left out of the answer.
 */
export const SessionTitlesRequest = request({
  method: 'lore/sessionTitles',
  direction: 'toServer',
  params: (z) => z.object({ paths: z.array(z.string()).max(SESSION_TITLES_MAX) }).strict(),
  result: returns<Record<string, string>>(),
});
/**
 * Client → server: the prompt caches of the workspace's recent agent sessions (Claude Code,
 * Codex, Copilot Chat) read from their session files (core/cache). The server keeps what it read
 * of each file and reads only what was appended since, so the client asks again whenever its
 * watcher sees a session file change (the folders to watch are in the result).
 */
export const CacheSessionsRequest = request({
  method: 'lore/cacheSessions',
  direction: 'toServer',
  // now: describe the caches at this moment, epoch ms (default: now); limit: read this many of the
  // most recently modified sessions (default 10).
  params: (z) => z.object({ now: z.number().finite().optional(), limit: z.number().int().min(1).max(1000).optional() }).strict(),
  result: returns<CacheReport>(),
});
/**
 * Server → client after files in the store changed on disk (one debounced batch of the file
 * events the client forwarded): the extension refreshes its views and regenerates the digest
 * when a category file is among them. Paths are store-relative with forward slashes.
 */
export const StoreChangedNotification = notification({
  method: 'lore/storeChanged',
  direction: 'toClient',
  // all: the store appeared, vanished or was rescanned: anything may have changed.
  params: (z) => z.object({ files: z.array(z.string()), all: z.boolean().optional() }),
});
/** Client → server: search the store's index (the index lives in the server, never in the extension host). */
export const SearchRequest = request({
  method: 'lore/search',
  direction: 'toServer',
  params: (z) =>
    z.object({
      query: z.string().max(10_000),
      limit: z.number().int().min(1).max(1000).optional(),
      categories: z.array(z.enum(SEARCH_CATEGORIES)).max(SEARCH_CATEGORIES.length).optional(),
    }),
  result: returns<SearchResponse>(),
});
/** Client → server: token-budgeted knowledge for an agent (the `lore_recall` tool), as core's `recall`. */
export const RecallRequest = request({
  method: 'lore/recall',
  direction: 'toServer',
  // files: workspace-relative or absolute paths whose notes come first; categories: only these
  // among the search hits (file notes of `files` come regardless). The budget is clamped by the
  // server, the files cut to what recall uses.
  params: (z) =>
    z.object({
      query: z.string().max(10_000).optional(),
      files: z.array(filePath(z)).max(100_000).optional(),
      tokenBudget: z.number().positive().optional(),
      categories: z.array(z.enum(SEARCH_CATEGORIES)).max(SEARCH_CATEGORIES.length).optional(),
    }),
  result: returns<RecallResult>(),
});
/** What an agent asks to remember: the same for the write and for its preview. */
const rememberParams = (z: Zod) =>
  z.object({
    kind: z.enum(REMEMBER_KINDS),
    text: z.string().min(1).max(REMEMBER_MAX_CHARS),
    detail: z.string().max(REMEMBER_MAX_CHARS).optional(),
    path: filePath(z).optional(),
    // Provenance source, e.g. `vscode-agent`.
    source: z.string().min(1).max(120),
  });

/**
 * Client → server: record one item an agent asked for (the `lore_remember` tool, after the person
 * confirmed the line), with core's rememberItem under the store lock. Never creates a store.
 */
export const RememberRequest = request({
  method: 'lore/remember',
  direction: 'toServer',
  params: rememberParams,
  result: returns<RememberResult>(),
});
/**
 * Client → server: the line `lore/remember` would write and where, without writing (the
 * confirmation the person sees before an agent's write).
 */
export const PlanRememberRequest = request({
  method: 'lore/planRemember',
  direction: 'toServer',
  params: rememberParams,
  result: returns<RememberPlan>(),
});
/**
 * Client → server: the context compiler (core's explainContext) for one message, with the
 * store's topics (tiers 1 and 2, and tier 3 when `gate` names a model of the client, asked back
 * through `lore/gateAsk`), the P3 hits from the server's index and, for a session, the topics its
 * output watchers left (taken once). What @lore sends a model and what **Lore: Why This
 * Context?** shows; the same as `lore context --json`.
 */
export interface CompileContextResult {
  text: string;
  stablePrefixLength: number;
  stablePrefixBytes: number;
  boundaries: Array<{ layer: string; start: number; end: number; startByte: number; endByte: number }>;
  budgetTokens: number;
  tokens: number;
  slots: Array<{ slot: string; name: string; bytes: number; included: number; cut: Array<{ label: string; bytes: number; why: string }> }>;
  /** The P3 items included. */
  hits: string[];
  topics: {
    active: Array<{ name: string; tier: number | string; reason: string }>;
    decisions: Array<{
      topic: string;
      active: boolean;
      tier?: number | string;
      score: number;
      gate: string;
      reason: string;
      tier1?: { kind: string; trigger: string; matched: string };
    }>;
    [key: string]: unknown;
  };
  /** The notes of files in scope that went in, per file (the answer's sources). */
  fileNotes: Array<{ path: string; notes: string[] }>;
  /** Whether the digest went in. */
  digest: boolean;
  markdown?: string;
}

export const CompileContextRequest = request({
  method: 'lore/compileContext',
  direction: 'toServer',
  // files: in scope, absolute or relative to the workspace; sessionId: the session whose pending
  // output-watcher topics to take (an @lore discussion id); budgetTokens: default config.json
  // context.budgetTokens, else 8000; markdown: also render the report as markdown (escaped), for a
  // person; gate: tier 3 with the client's model (@lore's: the one it answers with), gated topics
  // asked back as `lore/gateAsk` with this id (without it they follow the bypass table's no-gate
  // rows); noGateReason: why there is no gate, for the decisions; via: who asks, for the gate log
  // (`@lore` a chat turn, `vscode` Why This Context?, the default). A message or reply is cut, not
  // refused, by the caller; these bounds only keep out what no chat sends.
  params: (z) =>
    z.object({
      message: z.string().max(100_000),
      files: z.array(filePath(z)).max(50).optional(),
      sessionId: z.string().min(1).max(200).optional(),
      discussion: z.record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean()])).optional(),
      earlierTurns: z
        .array(z.object({ role: z.enum(['user', 'assistant']), text: z.string().max(200_000) }))
        .max(200)
        .optional(),
      budgetTokens: z.number().int().min(256).max(1_000_000).optional(),
      markdown: z.boolean().optional(),
      gate: z.object({ id: z.string().min(1).max(200), label: z.string().max(300) }).optional(),
      noGateReason: z.string().max(500).optional(),
      via: z.enum(['@lore', 'vscode']).optional(),
    }),
  result: returns<CompileContextResult>(),
});
/**
 * Client → server: the topics' output watchers (§4.3) on a reply @lore's model gave; the topics
 * they activate wait for the session's next message (taken by lore/compileContext).
 */
export const WatchReplyRequest = request({
  method: 'lore/watchReply',
  direction: 'toServer',
  params: (z) => z.object({ sessionId: z.string().min(1).max(200), reply: z.string().max(1_000_000) }),
  result: returns<{ activated: Array<{ topic: string; reason: string }> }>(),
});
/**
 * Client → server: what forgetting a conversation would do (the Ledger view's Forget This
 * Conversation…, before its confirmation). Writes nothing.
 */
export const PlanForgetRequest = request({
  method: 'lore/planForget',
  direction: 'toServer',
  // conversation: the conversation id, as the ledger and `[from: …]` name it.
  params: (z) => z.object({ conversation: z.string().trim().min(1).max(500) }).strict(),
  result: returns<ForgetPlan>(),
});
/**
 * Client → server: forgets a conversation for good (core's applyForget under the store lock; the
 * server's search index is brought up to date and purged).
 */
export const ForgetConversationRequest = request({
  method: 'lore/forgetConversation',
  direction: 'toServer',
  params: (z) => z.object({ conversation: z.string().trim().min(1).max(500) }).strict(),
  result: returns<ForgetResult>(),
});
/** Server → client once the search index is open: where it lives, so the client can say when it is in memory or missing. */
export const SearchBackendNotification = notification({
  method: 'lore/searchBackend',
  direction: 'toClient',
  params: (z) => z.object({ backend: z.enum(['sqlite', 'memory', 'none']), reason: z.string() }),
});
/**
 * Builds a `command:` URI for a Lore command. The args are JSON in the query; `(`, `)` and the
 * other characters `encodeURIComponent` keeps are escaped too so a markdown link destination
 * cannot be closed early by a conversation id.
 */
export function commandUri(command: string, args: unknown): string {
  const query = encodeURIComponent(JSON.stringify([args])).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `command:${command}?${query}`;
}

export * from './harvestProtocol';
export * from './notesProtocol';
export * from './taskProtocol';
export * from './storeProtocol';
