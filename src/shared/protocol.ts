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
 * in the namespace, `lazyType(...)` after it).
 */
import type { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { CacheReport } from '../core/cache/cacheReport';
import type { HarvestMode, HarvestReport } from '../core/harvest/runHarvest';
import type { UndoOutcome } from '../core/harvest/undoLastHarvest';
import type { ModelReply, ModelRequest, ProviderErrorKind } from '../core/providers/provider';
import type { ReclaimMode } from '../core/store/storeConfig';
import type { SourcesReport } from '../core/discovery/measureSources';
import type { ForgetPlan, ForgetResult } from '../core/forget/forgetConversation';
import type { PrivateMarkers } from '../core/safety/privateSpans';
import type { RememberInput, RememberPlan, RememberResult } from '../core/knowledge/rememberItem';
import type { RecallResult } from '../core/search/recall';
import type { SearchBackendName, SearchCategory, SearchResponse } from '../core/search/searchTypes';
import type { TaskToolReply } from '../core/tasks/taskReplies';
import type { TaskListRow } from '../core/tasks/taskRecords';

/** Defines `message.type` as a getter that builds the type object once, when first asked for. */
function lazyType(message: { readonly method: string }, kind: 'request' | 'notification'): void {
  let value: unknown;
  const create = () => {
    const lsp = require('vscode-languageserver-protocol') as typeof import('vscode-languageserver-protocol');
    return kind === 'request' ? new lsp.RequestType(message.method) : new lsp.NotificationType(message.method);
  };
  Object.defineProperty(message, 'type', { enumerable: true, get: () => (value ??= create()) });
}

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

/** A provenance marker `[from: source, date]` and where it was found. */
export interface OpenProvenanceArgs {
  /** Conversation id (file stem or session id), or `manual`. */
  source: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Absolute path of the note or category file that holds the marker. */
  noteFile: string;
  /** 0-based line of the marker in `noteFile`. */
  line: number;
}

export interface OpenNoteFileArgs {
  /** Absolute path of the note file. */
  noteFile: string;
  /** 0-based line to reveal. */
  line?: number;
}

export interface EditNotesArgs {
  noteFile: string;
  /** Absolute path of the file the notes are about. */
  path: string;
}

export interface DeleteNoteArgs {
  noteFile: string;
  /** 0-based line of the note in the note file. */
  line: number;
  /** The note's raw line: the delete is refused when the line no longer reads so. */
  raw: string;
}

export interface MarkNotesValidArgs {
  /** Absolute path of the file whose notes are still valid. */
  path: string;
}

/** One note as the server reports it. */
export interface NoteInfo {
  /** The note text without list marker and provenance. */
  text: string;
  /** The raw first line in the note file. */
  raw: string;
  provenance?: { source: string; date: string };
  /** Every source of a line several conversations taught (`[from: a, d1; b, d2]`), the first (`provenance`) first. */
  sources?: Array<{ source: string; date: string }>;
  /** 0-based line in the note file. */
  line: number;
  /** Absolute path of the note file. */
  noteFile: string;
}

/** How far a file has moved on since its notes were recorded. */
export interface NoteStaleness {
  /** `unknown`: no fingerprint recorded (a hand-made note file). */
  state: 'unchanged' | 'changed' | 'unknown';
  /**
   * Fraction (0–1) of distinct lines added or removed since the notes were recorded; only when the
   * server saw the file's content at the recorded fingerprint (it keeps line hashes in `.index/`).
   */
  distance?: number;
  /**
   * True when the notes deserve a second look: the file changed a lot (distance ≥ 0.5), or it
   * changed and the amount is unknown. Lenses then offer "Still valid" (lore.markNotesValid).
   */
  stale: boolean;
}

export interface FileNotes {
  /** Absolute path of the file. */
  path: string;
  noteFile: string;
  /** The path the note file records (workspace-relative). */
  recordedPath: string;
  /** How the note file was found: by device:inode, or re-found by path or content (then healed). */
  via: 'inode' | 'path' | 'fingerprint';
  notes: NoteInfo[];
  staleness: NoteStaleness;
}

/**
 * Server → client after note files or category files changed on disk (debounced). The client
 * refreshes file decorations (and anything else it shows) for these URIs; `all` means every
 * decoration may have changed (the store appeared, vanished or was rescanned).
 */
export namespace NotesChangedNotification {
  export const method = 'lore/notesChanged' as const;
  export interface Params {
    uris: string[];
    all?: boolean;
  }
  export declare const type: NotificationType<Params>;
}
lazyType(NotesChangedNotification, 'notification');

/** Client → server: forward `vscode.workspace.onDidRenameFiles` (files and folders) so note keys follow at once. */
export namespace DidRenameFilesRequest {
  export const method = 'lore/didRenameFiles' as const;
  export interface Params {
    /** Absolute file-system paths. */
    files: Array<{ oldPath: string; newPath: string }>;
  }
  export interface Result {
    /** Note files rewritten or re-keyed. */
    updated: number;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(DidRenameFilesRequest, 'request');

/**
 * Client → server: forward `vscode.workspace.onDidDeleteFiles` (files and folders). The server
 * moves the notes of those paths to facts.md as `path: note` (or re-keys them when the path
 * holds a file again), under the store lock, touching only those note files.
 */
export namespace DidDeleteFilesRequest {
  export const method = 'lore/didDeleteFiles' as const;
  export interface Params {
    /** Absolute file-system paths. */
    files: string[];
  }
  export interface Result {
    /** Note files re-keyed because the path holds a file again. */
    healed: number;
    /** Note files whose notes moved to facts.md (the client regenerates the digest). */
    orphaned: number;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(DidDeleteFilesRequest, 'request');

/**
 * Client → server: every note file the server's index knows, and how many stored transcripts the
 * store keeps, for the Knowledge view (no note file is parsed, no transcript read for it).
 */
export namespace NoteFilesRequest {
  export const method = 'lore/noteFiles' as const;
  export type Params = Record<string, never>;
  export interface Result {
    files: Array<{
      /** Absolute path of the note file. */
      file: string;
      /** The workspace-relative path it is about ('' for a hand-made note file without meta). */
      path: string;
      fileId: string;
      /** How many notes it holds. */
      count: number;
    }>;
    /** The store's transcripts/: how many files and their total size in bytes (absent from an older server). */
    transcripts?: { count: number; bytes: number };
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(NoteFilesRequest, 'request');

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

/** Client → server: the notes of one file (healing the key when its inode changed), or null. */
export namespace NotesForFileRequest {
  export const method = 'lore/notesForFile' as const;
  export interface Params {
    path: string;
  }
  export declare const type: RequestType<Params, FileNotes | null, void>;
}
lazyType(NotesForFileRequest, 'request');

/** Client → server: note counts for explorer badges. Paths without notes are absent from `counts`. */
export namespace FileDecorationsRequest {
  export const method = 'lore/fileDecorations' as const;
  export interface Params {
    paths: string[];
  }
  export interface Result {
    counts: Record<string, number>;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(FileDecorationsRequest, 'request');

/** Client → server: record the file's current size and fingerprint in its note file (under the store lock). */
export namespace MarkNotesValidRequest {
  export const method = 'lore/markNotesValid' as const;
  export type Params = MarkNotesValidArgs;
  export interface Result {
    updated: boolean;
    noteFile?: string;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(MarkNotesValidRequest, 'request');

/** Client → server: delete one note line (under the store lock; refused when the line changed). */
export namespace DeleteNoteRequest {
  export const method = 'lore/deleteNote' as const;
  export type Params = DeleteNoteArgs;
  export interface Result {
    deleted: boolean;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(DeleteNoteRequest, 'request');

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
 * Client → server: a harvest run (dry run, preview, or apply for the scheduled harvest) with
 * core's runHarvest in the server process: scanning, the importers, distillation's parsing, the
 * plan. The model is called back on the client (`lore/providerGenerate`), which holds the
 * provider (VS Code's language models live in the extension host, and the keys in its secret
 * storage). Progress comes as `lore/harvestProgress`; `lore/harvestCancel` stops the run, which
 * then answers with `cancelled: true` and nothing written.
 */
export namespace HarvestRunRequest {
  export const method = 'lore/harvestRun' as const;
  export interface Params {
    /** Names this run in progress, provider calls and cancellation. */
    runId: string;
    mode: HarvestMode;
    sources: string[];
    /** The client's provider, as runHarvest reports it; the offline rules extractor runs in the server. */
    provider: { name: string; label: string; offline: boolean };
    reclaim?: ReclaimMode;
    transcripts?: boolean;
    digestEnabled?: boolean;
    /** A marker pair around private text besides `<private>` and config.json's (the `lore.privateMarkers` setting). */
    privateMarkers?: PrivateMarkers;
    timeoutMs?: number;
  }
  export type Result = HarvestReport;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(HarvestRunRequest, 'request');

/** Client → server: write a previewed plan exactly as shown (core's applyPreviewedHarvest); the report says `stale` when it no longer fits. */
export namespace HarvestApplyRequest {
  export const method = 'lore/harvestApply' as const;
  export interface Params {
    /** The preview report as the server returned it (its plan is checked like a saved plan file). */
    report: HarvestReport;
  }
  export type Result = HarvestReport;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(HarvestApplyRequest, 'request');

/** Client → server: put the store back as it was before the last apply (core's undoLastHarvest). */
export namespace HarvestUndoRequest {
  export const method = 'lore/harvestUndo' as const;
  export type Params = Record<string, never>;
  export type Result = UndoOutcome;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(HarvestUndoRequest, 'request');

/**
 * Client → server: summarize a day's journal with the client's provider (core's summarizeJournal
 * in the server; the model call comes back as `lore/providerGenerate` under `runId`, and
 * `lore/harvestCancel` with that id stops it). `summary` is absent when the day has no journal.
 */
export namespace JournalSummarizeRequest {
  export const method = 'lore/journalSummarize' as const;
  export interface Params {
    runId: string;
    /** YYYY-MM-DD (UTC, like the journal's days). */
    date: string;
    provider: { name: string; label: string; offline: boolean };
    timeoutMs?: number;
  }
  export interface Result {
    date: string;
    /** Absolute path of the day's journal. */
    file: string;
    summary?: string[];
    model?: string;
    /** What the store's git history said (the summary is written either way). */
    warning?: string;
  }
  export declare const type: RequestType<Params, Result, ProviderFailure>;
}
lazyType(JournalSummarizeRequest, 'request');

/** Client → server: stop a running harvest (the progress notification's Cancel). */
export namespace HarvestCancelNotification {
  export const method = 'lore/harvestCancel' as const;
  export interface Params {
    runId: string;
  }
  export declare const type: NotificationType<Params>;
}
lazyType(HarvestCancelNotification, 'notification');

/** Server → client: a harvest run's progress line ("distilling 2/5: …"). */
export namespace HarvestProgressNotification {
  export const method = 'lore/harvestProgress' as const;
  export interface Params {
    runId: string;
    message: string;
  }
  export declare const type: NotificationType<Params>;
}
lazyType(HarvestProgressNotification, 'notification');

/**
 * Server → client: one model call of a harvest run, made with the run's provider on the client.
 * A provider failure comes back as an error whose `data` is {@link ProviderFailure}, so the
 * server's harvest classifies it as it would in process.
 */
export namespace ProviderGenerateRequest {
  export const method = 'lore/providerGenerate' as const;
  export interface Params {
    runId: string;
    request: Omit<ModelRequest, 'signal'>;
  }
  export type Result = ModelReply;
  export declare const type: RequestType<Params, Result, ProviderFailure>;
}
lazyType(ProviderGenerateRequest, 'request');

/**
 * Server → client: one tier-3 gate call (core's GateCall) of a lore/compileContext that named
 * `gate`, answered by the client's model with at most one token at temperature 0 where its API
 * allows; the reply's text comes back (the server reads YES/NO and caches the answer).
 */
export namespace GateAskRequest {
  export const method = 'lore/gateAsk' as const;
  export interface Params {
    /** The `gate.id` of the lore/compileContext asking. */
    gateId: string;
    instructions: string;
    prompt: string;
  }
  export interface Result {
    text: string;
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(GateAskRequest, 'request');

/** What a provider's error says, across the connection (core's ProviderError). */
export interface ProviderFailure {
  provider: string;
  kind: ProviderErrorKind;
  /** The message without the provider prefix ProviderError adds. */
  message: string;
  status?: number;
}

/**
 * Client → server: one task tool call from a VS Code language model tool (lore_task_*), checked
 * against the same input schema as the MCP tool and answered with the same reply.
 */
export namespace TaskToolRequest {
  export const method = 'lore/taskTool' as const;
  export interface Params {
    tool: string;
    input: unknown;
    /** Recorded as the artifact's agent_id (e.g. `vscode-agent`). */
    agentId: string;
  }
  export type Result = TaskToolReply;
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(TaskToolRequest, 'request');

/** Client → server: the tasks of the store for the Tasks view, newest first. */
export namespace TasksListRequest {
  export const method = 'lore/tasks' as const;
  export type Params = Record<string, never>;
  export interface Result {
    tasks: TaskListRow[];
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(TasksListRequest, 'request');

/** One artifact of a task's timeline in the Tasks view, with the files and conversation it links to. */
export interface TimelineEntry {
  artifact_id: string;
  artifact_kind: string;
  status?: string;
  agent_id: string;
  created: string;
  title: string;
  verification_status?: string;
  held?: boolean;
  files: string[];
  conversation_id?: string;
}

/** Client → server: a task's artifacts in order (the Tasks view's timeline). */
export namespace TaskTimelineRequest {
  export const method = 'lore/taskTimeline' as const;
  export interface Params {
    taskId: string;
  }
  export interface Result {
    entries: TimelineEntry[];
  }
  export declare const type: RequestType<Params, Result, void>;
}
lazyType(TaskTimelineRequest, 'request');

/**
 * Builds a `command:` URI for a Lore command. The args are JSON in the query; `(`, `)` and the
 * other characters `encodeURIComponent` keeps are escaped too so a markdown link destination
 * cannot be closed early by a conversation id.
 */
export function commandUri(command: string, args: unknown): string {
  const query = encodeURIComponent(JSON.stringify([args])).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `command:${command}?${query}`;
}
