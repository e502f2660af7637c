/**
 * The inputs of the task tools, one definition for every surface that offers them: the MCP
 * tools (src/mcp/taskTools.ts), the VS Code language model tools (checked in the language
 * server) and their JSON schemas in package.json (test/manifest checks they agree). Each write
 * tool's input maps to an artifact draft through `toArtifactInput`.
 */
import { z } from 'zod';
import { sanitizeConversationId } from '../conversations/conversationId';
import {
  ARTIFACT_ID_PATTERN,
  RELATION_KINDS,
  TASK_ID_PATTERN,
  TASK_STATUSES,
  VERIFICATION_STATUSES,
  datasetRefSchema,
  entityRefSchema,
} from './artifactSchema';
import type { ArtifactInput } from './recordArtifact';
import { taskFiltersSchema } from './taskFilters';
import { TASK_TOOL_NAMES } from './taskNames';
import { MAX_TASK_REPLY_TOKENS, MIN_TASK_REPLY_TOKENS, SEARCH_MODES } from './taskSearch';

const text = (max: number) => z.string().max(max);
const items = z.array(text(2000)).max(30);
const taskId = z.string().regex(TASK_ID_PATTERN).describe('The task id task_start returned');
const artifactId = z.string().regex(ARTIFACT_ID_PATTERN).describe('An artifact id (a- and 12 hex digits)');
const metrics = z.record(z.string(), z.union([z.number(), z.string().max(200), z.boolean()]));
const common = {
  agent: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,39}$/)
    .optional()
    .describe('Your role when one client runs several agents (e.g. reviewer); recorded as client/role'),
  session: z.string().max(200).optional().describe('Your session or conversation id'),
};

/** The input shapes, by tool name. */
export const TASK_TOOL_INPUTS = {
  task_start: {
    goal: text(4000).min(1),
    task_id: taskId.optional().describe('A slug of your choosing; default: from the goal'),
    motivation: text(4000).optional(),
    hypothesis: text(4000).optional(),
    scientific_question: text(4000).optional(),
    parent_task_id: taskId.optional(),
    project_id: text(300).optional(),
    dataset_refs: z.array(datasetRefSchema).max(20).optional(),
    entity_refs: z.array(entityRefSchema).max(50).optional(),
    ...common,
  },
  task_progress: {
    task_id: taskId,
    summary: text(8000).min(1),
    status: z.enum(TASK_STATUSES).optional(),
    blockers: items.optional().describe('The current blockers (an empty list clears them)'),
    hypothesis: text(4000).optional(),
    what_worked: items.optional(),
    what_failed: items.optional(),
    followups: items.optional(),
    ...common,
  },
  task_run_start: {
    task_id: taskId,
    tool_name: text(300).optional(),
    tool_version: text(300).optional(),
    command: text(4000).optional(),
    why_chosen: text(4000).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
    dataset_refs: z.array(datasetRefSchema).max(20).optional(),
    ...common,
  },
  task_run_finish: {
    task_id: taskId,
    run_id: artifactId.describe('The run id task_run_start returned'),
    status: z.enum(['succeeded', 'failed', 'cancelled']).optional(),
    summary: text(8000).optional(),
    metrics: metrics.optional(),
    outputs: z.record(z.string(), z.unknown()).optional(),
    what_worked: items.optional(),
    what_failed: items.optional(),
    ...common,
  },
  task_add_evidence: {
    task_id: taskId,
    summary: text(8000).min(1),
    confidence: z.number().min(0).max(1).optional(),
    metrics: metrics.optional(),
    files: z.array(text(1000)).max(50).optional().describe('Workspace-relative files this is about or was shown in'),
    conversation_id: text(300).optional(),
    dataset_refs: z.array(datasetRefSchema).max(20).optional(),
    entity_refs: z.array(entityRefSchema).max(50).optional(),
    related_artifact_ids: z.array(artifactId).max(50).optional(),
    ...common,
  },
  task_finish: {
    task_id: taskId,
    status: z.enum(['done', 'failed', 'abandoned']).optional(),
    summary: text(8000).optional(),
    what_worked: items.optional(),
    what_failed: items.optional(),
    validation: items.optional(),
    uncertainty: items.optional(),
    followups: items.optional(),
    ...common,
  },
  artifact_create: {
    artifact_kind: z.enum(['review', 'revision', 'verification', 'decision']),
    task_id: taskId,
    summary: text(8000).min(1),
    reply_to_artifact_id: artifactId.optional(),
    verification_status: z.enum(VERIFICATION_STATUSES).optional(),
    relation_kind: z.enum(RELATION_KINDS).optional(),
    why_chosen: text(4000).optional(),
    thread_id: text(300).optional(),
    challenge_id: text(300).optional(),
    requested_action: text(300).optional(),
    confidence: z.number().min(0).max(1).optional(),
    ...common,
  },
  task_search: {
    query: text(1000).optional(),
    mode: z.enum(SEARCH_MODES).optional(),
    filters: taskFiltersSchema.optional(),
    limit: z.number().int().min(1).max(100).optional(),
    compact: z.boolean().optional(),
    max_tokens: z.number().int().min(MIN_TASK_REPLY_TOKENS).max(MAX_TASK_REPLY_TOKENS).optional(),
  },
  task_get: {
    task_id: taskId.optional(),
    artifact_id: artifactId.optional(),
    max_tokens: z.number().int().min(MIN_TASK_REPLY_TOKENS).max(MAX_TASK_REPLY_TOKENS).optional(),
  },
} as const;

export type TaskToolName = keyof typeof TASK_TOOL_INPUTS;

// The protocol checks tool names against TASK_TOOL_NAMES (it must not load these schemas): both name the same tools.
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const SAME_TOOL_NAMES: SameNames<(typeof TASK_TOOL_NAMES)[number], TaskToolName> = true;
export const TASK_WRITE_TOOLS = [
  'task_start',
  'task_progress',
  'task_run_start',
  'task_run_finish',
  'task_add_evidence',
  'task_finish',
  'artifact_create',
] as const;
export type TaskWriteTool = (typeof TASK_WRITE_TOOLS)[number];

/** The zod object of a tool's input (strict: an unknown field is an error, not silently dropped). */
export function taskToolSchema(tool: TaskToolName): z.ZodObject {
  return z.object(TASK_TOOL_INPUTS[tool] as z.ZodRawShape).strict();
}

/** A write tool's input as an artifact draft (agent and session are the caller's context). */
export function toArtifactInput(tool: TaskWriteTool, input: Record<string, unknown>): ArtifactInput {
  const { agent: _agent, session: _session, ...fields } = input;
  switch (tool) {
    case 'task_start':
      return { artifact_kind: 'task_start', ...fields } as ArtifactInput;
    case 'task_progress':
      return { artifact_kind: 'task_progress', ...fields } as ArtifactInput;
    case 'task_run_start':
      return { artifact_kind: 'run_start', ...fields } as ArtifactInput;
    case 'task_run_finish': {
      const { run_id, ...rest } = fields;
      return { artifact_kind: 'run_finish', reply_to_artifact_id: run_id, ...rest } as ArtifactInput;
    }
    case 'task_add_evidence': {
      const { files, conversation_id, ...rest } = fields as { files?: string[]; conversation_id?: string };
      const provenance = {
        ...(files?.length ? { files } : {}),
        ...(conversation_id ? { conversation_id: sanitizeConversationId(conversation_id) } : {}),
      };
      return { artifact_kind: 'evidence', ...rest, ...(Object.keys(provenance).length ? { provenance } : {}) } as ArtifactInput;
    }
    case 'task_finish':
      return { artifact_kind: 'task_finish', ...fields } as ArtifactInput;
    case 'artifact_create':
      return fields as ArtifactInput;
  }
}
