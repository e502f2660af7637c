/**
 * The contract between the Lore language server (src/server) and the VS Code client
 * (src/extension): initialization options, custom requests and notifications, and the Lore
 * commands that code lenses, hovers and document links invoke. Each custom message is a
 * namespace `{ method; type }` as in vscode-eslint's shared protocol.
 *
 * The `type` objects come from the top-level `vscode-languageserver-protocol`, the copy
 * `vscode-languageclient` 11 uses, so the client can pass them to `sendRequest`/`onNotification`.
 * The server registers by `method` string instead: `vscode-languageserver` 10 carries its own
 * nested jsonrpc copy, whose parameter-structure check compares class instances by identity.
 *
 * They are built on first use (`lazyType`): importing this module loads no LSP library, so the
 * extension host loads the client's libraries (dist/languageClient.js) only when it starts the
 * client, after activation. New messages follow the same pattern (`export declare const type`
 * in the namespace, `lazyType(...)` after it). The harvest's messages are in harvestProtocol.ts,
 * per-file notes' in notesProtocol.ts, task memory's in taskProtocol.ts; this module re-exports them.
 */
import type { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { CacheReport } from '../core/services/promptCache/cacheReport';
import type { SourcesReport } from '../core/services/harvest/measureSources';
import type { ForgetPlan, ForgetResult } from '../core/store/forget/forgetConversation';
import type { RememberInput, RememberPlan, RememberResult } from '../core/store/items/rememberItem';
import type { RecallResult } from '../core/services/search/recall';
import type { SearchBackendName, SearchCategory, SearchResponse } from '../core/services/search/searchTypes';

import { lazyType } from './lazyType';

/** What the client passes as `initializationOptions`. The store may not exist yet. */
export interface LoreInitializationOptions {
  /** Absolute path of the knowledge store, e.g. `<workspace>/.lore`. */
  storeRoot: string;
  /** Absolute path of the workspace folder the store describes (note paths are relative to it). */
  workspaceRoot: string;
  /** The `lore.search.backend` setting (default `auto`: SQLite when it loads, else minisearch). */
  searchBackend?: 'auto' | 'sqlite' | 'minisearch';
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
export namespace SourcesRequest {
  export const method = 'lore/sources' as const;
  export interface Params {
    /** List other workspaces' sessions too (they are never preselected). */
    allWorkspaces?: boolean;
  }
  export type Result = SourcesReport;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(SourcesRequest, 'request');

/**
 * Client → server: the prompt caches of the workspace's recent agent sessions (Claude Code,
 * Codex, Copilot Chat) read from their session files (core/cache). The server keeps what it read
 * of each file and reads only what was appended since, so the client asks again whenever its
 * watcher sees a session file change (the folders to watch are in the result).
 */
export namespace CacheSessionsRequest {
  export const method = 'lore/cacheSessions' as const;
  export interface Params {
    /** Describe the caches at this moment, epoch ms (default: now). */
    now?: number;
    /** Read this many of the most recently modified sessions (default 10). */
    limit?: number;
  }
  export type Result = CacheReport;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(CacheSessionsRequest, 'request');

/**
 * Server → client after files in the store changed on disk (one debounced batch of the file
 * events the client forwarded): the extension refreshes its views and regenerates the digest
 * when a category file is among them. Paths are store-relative with forward slashes.
 */
export namespace StoreChangedNotification {
  export const method = 'lore/storeChanged' as const;
  export interface Params {
    files: string[];
    /** The store appeared, vanished or was rescanned: anything may have changed. */
    all?: boolean;
  }
  export declare const type: NotificationType<Params>;
}
lazyType(StoreChangedNotification, 'notification');

/** Client → server: search the store's index (the index lives in the server, never in the extension host). */
export namespace SearchRequest {
  export const method = 'lore/search' as const;
  export interface Params {
    query: string;
    limit?: number;
    categories?: SearchCategory[];
  }
  export type Result = SearchResponse;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(SearchRequest, 'request');

/** Client → server: token-budgeted knowledge for an agent (the `lore_recall` tool), as core's `recall`. */
export namespace RecallRequest {
  export const method = 'lore/recall' as const;
  export interface Params {
    query?: string;
    /** Workspace-relative or absolute paths whose notes come first. */
    files?: string[];
    tokenBudget?: number;
    /** Only these categories among the search hits (file notes of `files` come regardless). */
    categories?: SearchCategory[];
  }
  export type Result = RecallResult;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(RecallRequest, 'request');

/**
 * Client → server: record one item an agent asked for (the `lore_remember` tool, after the person
 * confirmed the line), with core's rememberItem under the store lock. Never creates a store.
 */
export namespace RememberRequest {
  export const method = 'lore/remember' as const;
  export interface Params extends RememberInput {
    /** Provenance source, e.g. `vscode-agent`. */
    source: string;
  }
  export type Result = RememberResult;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(RememberRequest, 'request');

/**
 * Client → server: the line `lore/remember` would write and where, without writing (the
 * confirmation the person sees before an agent's write).
 */
export namespace PlanRememberRequest {
  export const method = 'lore/planRemember' as const;
  export type Params = RememberRequest.Params;
  export type Result = RememberPlan;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(PlanRememberRequest, 'request');

/**
 * Client → server: the context compiler (core's explainContext) for one message, with the
 * store's topics (tiers 1 and 2, and tier 3 when `gate` names a model of the client, asked back
 * through `lore/gateAsk`), the P3 hits from the server's index and, for a session, the topics its
 * output watchers left (taken once). What @lore sends a model and what **Lore: Why This
 * Context?** shows; the same as `lore context --json`.
 */
export namespace CompileContextRequest {
  export const method = 'lore/compileContext' as const;
  export interface Params {
    message: string;
    /** Files in scope: absolute, or relative to the workspace. */
    files?: string[];
    /** The session whose pending output-watcher topics to take (an @lore discussion id). */
    sessionId?: string;
    discussion?: Record<string, string | number | boolean>;
    earlierTurns?: Array<{ role: 'user' | 'assistant'; text: string }>;
    /** Default: config.json context.budgetTokens, else 8000. */
    budgetTokens?: number;
    /** Also render the report as markdown (escaped), for a person. */
    markdown?: boolean;
    /**
     * Tier 3 with the client's model (@lore's: the one it answers with): gated topics are asked
     * back as `lore/gateAsk` with this id. Without it they follow the bypass table's no-gate rows.
     */
    gate?: { id: string; label: string };
    /** Why there is no gate, for the decisions (the client knows: no key, no chat model…). */
    noGateReason?: string;
    /** Who asks, for the gate log: `@lore` (a chat turn) or `vscode` (Why This Context?, the default). */
    via?: '@lore' | 'vscode';
  }
  export interface Result {
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
      decisions: Array<{ topic: string; active: boolean; tier?: number | string; score: number; gate: string; reason: string; tier1?: { kind: string; trigger: string; matched: string } }>;
      [key: string]: unknown;
    };
    /** The notes of files in scope that went in, per file (the answer's sources). */
    fileNotes: Array<{ path: string; notes: string[] }>;
    /** Whether the digest went in. */
    digest: boolean;
    markdown?: string;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(CompileContextRequest, 'request');

/**
 * Client → server: the topics' output watchers (§4.3) on a reply @lore's model gave; the topics
 * they activate wait for the session's next message (taken by lore/compileContext).
 */
export namespace WatchReplyRequest {
  export const method = 'lore/watchReply' as const;
  export interface Params {
    sessionId: string;
    reply: string;
  }
  export interface Result {
    activated: Array<{ topic: string; reason: string }>;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(WatchReplyRequest, 'request');

/**
 * Client → server: what forgetting a conversation would do (the Ledger view's Forget This
 * Conversation…, before its confirmation). Writes nothing.
 */
export namespace PlanForgetRequest {
  export const method = 'lore/planForget' as const;
  export interface Params {
    /** The conversation id, as the ledger and `[from: …]` name it. */
    conversation: string;
  }
  export type Result = ForgetPlan;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(PlanForgetRequest, 'request');

/**
 * Client → server: forgets a conversation for good (core's applyForget under the store lock; the
 * server's search index is brought up to date and purged).
 */
export namespace ForgetConversationRequest {
  export const method = 'lore/forgetConversation' as const;
  export type Params = PlanForgetRequest.Params;
  export type Result = ForgetResult;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(ForgetConversationRequest, 'request');

/** Server → client once the search index is open: which engine answers, so the client can say when it is the fallback. */
export namespace SearchBackendNotification {
  export const method = 'lore/searchBackend' as const;
  export interface Params {
    backend: SearchBackendName;
    reason: string;
  }
  export declare const type: NotificationType<Params>;
}
lazyType(SearchBackendNotification, 'notification');

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
