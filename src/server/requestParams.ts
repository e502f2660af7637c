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
  DeleteNoteRequest,
  DidDeleteFilesRequest,
  DidRenameFilesRequest,
  FileDecorationsRequest,
  LoreInitializationOptions,
  MarkNotesValidRequest,
  NoteFilesRequest,
  NotesForFileRequest,
  RecallRequest,
  PlanRememberRequest,
  RememberRequest,
  SearchRequest,
  SourcesRequest,
  TaskTimelineRequest,
  TaskToolRequest,
} from '../shared/protocol';
import { REMEMBER_KINDS, REMEMBER_MAX_CHARS } from '../core/knowledge/rememberItem';
import { SEARCH_CATEGORIES } from '../core/search/searchTypes';
import { TASK_ID_PATTERN } from '../core/tasks/artifactSchema';
import { TASK_TOOL_INPUTS } from '../core/tasks/taskToolInputs';
import { describeSchemaIssue } from '../core/util/schemaIssue';

// Bounds: a path is at most PATH_MAX-ish, a batch of file events at most what a checkout touches.
const filePath = z.string().min(1).max(4096);
const paths = z.array(filePath).max(100_000);

const initializationOptionsSchema = z.looseObject({
  storeRoot: filePath,
  workspaceRoot: filePath,
  searchBackend: z.enum(['auto', 'sqlite', 'minisearch']).optional(),
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
  deleteNote: z.object({ noteFile: filePath, line: z.number().int().min(0), raw: z.string().max(100_000) }) satisfies z.ZodType<DeleteNoteRequest.Params>,
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
