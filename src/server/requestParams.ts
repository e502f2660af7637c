/**
 * The shapes the server accepts from its client, checked before a handler runs: the params of
 * every Lore request and the initialization options. The types live in src/shared/protocol.ts
 * (the extension imports them and must not load zod); each schema here `satisfies` its type, so
 * the two cannot drift apart without a compile error. A request that does not fit is answered
 * with InvalidParams naming the method and the field, and nothing is read or written.
 */
import { z } from 'zod';
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import type {
  CacheSessionsRequest,
  CompileContextRequest,
  DeleteNoteRequest,
  DidDeleteFilesRequest,
  DidRenameFilesRequest,
  FileDecorationsRequest,
  HarvestApplyRequest,
  HarvestChooseRequest,
  HarvestDiscardRequest,
  HarvestCancelNotification,
  HarvestRunRequest,
  HarvestUndoRequest,
  JournalSummarizeRequest,
  ForgetConversationRequest,
  PlanForgetRequest,
  LoreInitializationOptions,
  MarkNotesValidRequest,
  NoteFilesRequest,
  NotesForFileRequest,
  RecallRequest,
  PlanRememberRequest,
  RememberRequest,
  SearchRequest,
  SourcesRequest,
  WatchReplyRequest,
  TaskTimelineRequest,
  TaskToolRequest,
} from '../shared/protocol';
import { REMEMBER_KINDS, REMEMBER_MAX_CHARS } from '../core/store/items/rememberItem';
import { SEARCH_CATEGORIES } from '../core/services/search/searchTypes';
import { TASK_ID_PATTERN } from '../core/services/tasks/artifactSchema';
import { TASK_TOOL_INPUTS } from '../core/services/tasks/taskToolInputs';
import { describeSchemaIssue } from '../core/base/schemaIssue';

// Bounds: a path is at most PATH_MAX-ish, a batch of file events at most what a checkout touches.
const filePath = z.string().min(1).max(4096);
const paths = z.array(filePath).max(100_000);

const initializationOptionsSchema = z.looseObject({
  storeRoot: filePath,
  workspaceRoot: filePath,
  searchBackend: z.enum(['auto', 'sqlite', 'minisearch']).optional(),
  gitCommit: z.enum(['off', 'apply', 'interval']).optional(),
  workspaceTrusted: z.boolean().optional(),
}).partial() satisfies z.ZodType<Partial<LoreInitializationOptions>>;

export const paramsSchemas = {
  search: z.object({ query: z.string().max(10_000), limit: z.number().int().min(1).max(1000).optional(), categories: z.array(z.enum(SEARCH_CATEGORIES)).max(SEARCH_CATEGORIES.length).optional() }) satisfies z.ZodType<SearchRequest.Params>,
  // The budget is clamped by the server, the files cut to what recall uses.
  recall: z.object({
    query: z.string().max(10_000).optional(),
    files: paths.optional(),
    tokenBudget: z.number().positive().optional(),
    categories: z.array(z.enum(SEARCH_CATEGORIES)).max(SEARCH_CATEGORIES.length).optional(),
  }) satisfies z.ZodType<RecallRequest.Params>,
  remember: z.object({
    kind: z.enum(REMEMBER_KINDS),
    text: z.string().min(1).max(REMEMBER_MAX_CHARS),
    detail: z.string().max(REMEMBER_MAX_CHARS).optional(),
    path: filePath.optional(),
    source: z.string().min(1).max(120),
  }) satisfies z.ZodType<RememberRequest.Params & PlanRememberRequest.Params>,
  // The tool's own input is checked by its schema in core (taskToolInputs), as the MCP tool's is.
  taskTool: z.object({ tool: z.enum(Object.keys(TASK_TOOL_INPUTS) as [string, ...string[]]), input: z.unknown(), agentId: z.string().min(1).max(120) }) satisfies z.ZodType<TaskToolRequest.Params>,
  taskTimeline: z.object({ taskId: z.string().regex(TASK_ID_PATTERN) }).strict() satisfies z.ZodType<TaskTimelineRequest.Params>,
  notesForFile: z.object({ path: filePath }) satisfies z.ZodType<NotesForFileRequest.Params>,
  noteFiles: z.object({}).strict() satisfies z.ZodType<NoteFilesRequest.Params>,
  sources: z.object({ allWorkspaces: z.boolean().optional() }).strict() satisfies z.ZodType<SourcesRequest.Params>,
  cacheSessions: z.object({ now: z.number().finite().optional(), limit: z.number().int().min(1).max(1000).optional() }).strict() satisfies z.ZodType<CacheSessionsRequest.Params>,
  fileDecorations: z.object({ paths }) satisfies z.ZodType<FileDecorationsRequest.Params>,
  didRenameFiles: z.object({ files: z.array(z.object({ oldPath: filePath, newPath: filePath })).max(100_000) }) satisfies z.ZodType<DidRenameFilesRequest.Params>,
  didDeleteFiles: z.object({ files: paths }) satisfies z.ZodType<DidDeleteFilesRequest.Params>,
  markNotesValid: z.object({ path: filePath }) satisfies z.ZodType<MarkNotesValidRequest.Params>,
  // A message or reply is cut, not refused, by the caller; these bounds only keep out what no chat sends.
  compileContext: z.object({
    message: z.string().max(100_000),
    files: z.array(filePath).max(50).optional(),
    sessionId: z.string().min(1).max(200).optional(),
    discussion: z.record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean()])).optional(),
    earlierTurns: z.array(z.object({ role: z.enum(['user', 'assistant']), text: z.string().max(200_000) })).max(200).optional(),
    budgetTokens: z.number().int().min(256).max(1_000_000).optional(),
    markdown: z.boolean().optional(),
    gate: z.object({ id: z.string().min(1).max(200), label: z.string().max(300) }).optional(),
    noGateReason: z.string().max(500).optional(),
    via: z.enum(['@lore', 'vscode']).optional(),
  }) satisfies z.ZodType<CompileContextRequest.Params>,
  watchReply: z.object({ sessionId: z.string().min(1).max(200), reply: z.string().max(1_000_000) }) satisfies z.ZodType<WatchReplyRequest.Params>,
  forget: z.object({ conversation: z.string().trim().min(1).max(500) }).strict() satisfies z.ZodType<PlanForgetRequest.Params & ForgetConversationRequest.Params>,
  deleteNote: z.object({ noteFile: filePath, line: z.number().int().min(0), raw: z.string().max(100_000) }) satisfies z.ZodType<DeleteNoteRequest.Params>,
  harvestRun: z.object({
    runId: z.string().min(1).max(200),
    mode: z.enum(['dry-run', 'preview', 'apply']),
    sources: paths,
    provider: z.object({ name: z.string().min(1).max(100), label: z.string().max(1000), offline: z.boolean() }),
    reclaim: z.enum(['delete', 'archive', 'keep']).optional(),
    transcripts: z.boolean().optional(),
    digestEnabled: z.boolean().optional(),
    privateMarkers: z.object({ open: z.string().min(1).max(200), close: z.string().min(1).max(200) }).optional(),
    timeoutMs: z.number().positive().optional(),
  }) satisfies z.ZodType<HarvestRunRequest.Params>,
  harvestApply: z.object({ planId: z.string().min(1).max(200) }).strict() satisfies z.ZodType<HarvestApplyRequest.Params>,
  harvestChoose: z.object({ planId: z.string().min(1).max(200), rejected: z.array(z.string().min(1).max(200)).max(100_000) }).strict() satisfies z.ZodType<HarvestChooseRequest.Params>,
  harvestDiscard: z.object({ planId: z.string().min(1).max(200) }).strict() satisfies z.ZodType<HarvestDiscardRequest.Params>,
  harvestCancel: z.object({ runId: z.string().min(1).max(200) }) satisfies z.ZodType<HarvestCancelNotification.Params>,
  harvestUndo: z.object({}).strict() satisfies z.ZodType<HarvestUndoRequest.Params>,
  journalSummarize: z.object({
    runId: z.string().min(1).max(200),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    provider: z.object({ name: z.string().min(1).max(100), label: z.string().max(1000), offline: z.boolean() }),
    timeoutMs: z.number().positive().optional(),
  }).strict() satisfies z.ZodType<JournalSummarizeRequest.Params>,
};

/** The params as the schema reads them, or a ResponseError (InvalidParams) saying which field is wrong. */
export function checkParams<T>(method: string, schema: z.ZodType<T>, params: unknown): T {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  throw new ResponseError(ErrorCodes.InvalidParams, `${method}: ${describeSchemaIssue(result.error)}`);
}

/** The initialization options, or none with a log line when the client sent something else. */
export function checkInitializationOptions(raw: unknown, log: (message: string) => void): Partial<LoreInitializationOptions> {
  if (raw === undefined || raw === null) return {};
  const result = initializationOptionsSchema.safeParse(raw);
  if (result.success) return result.data;
  log(`initializationOptions ignored: ${describeSchemaIssue(result.error)}`);
  return {};
}
