/**
 * The exact filters of task_search (seed: resolved first over the side tables, then ranked),
 * as a zod schema (the MCP tools, CLI and VS Code share it) and as SQL over `task_artifacts a`.
 */
import { z } from 'zod';
import { ARTIFACT_KINDS, ARTIFACT_STATUSES, RELATION_KINDS, TASK_STATUSES, VERIFICATION_STATUSES } from './artifactSchema';

const value = z.string().min(1).max(300);

/** Every exact filter; all given filters must hold. */
export const taskFiltersSchema = z
  .object({
    task_id: value.optional(),
    artifact_kind: z.enum(ARTIFACT_KINDS).optional(),
    status: z.enum(ARTIFACT_STATUSES).optional().describe("The artifact's own status (a run's, or the task's at that artifact)"),
    task_status: z.enum(TASK_STATUSES).optional().describe("The task's current status"),
    challenge_id: value.optional(),
    thread_id: value.optional(),
    reply_to_artifact_id: value.optional(),
    artifact_role: value.optional(),
    dataset_name: value.optional(),
    dataset_version: value.optional(),
    entity_name: value.optional(),
    entity_type: value.optional(),
    tool_name: value.optional(),
    project_id: value.optional(),
    agent_id: value.optional(),
    session_id: value.optional(),
    requested_action: value.optional(),
    verification_status: z
      .enum(VERIFICATION_STATUSES)
      .optional()
      .describe("verified means countersigned by another agent than the claim's"),
    relation_kind: z.enum([...RELATION_KINDS, 'related']).optional(),
    file: value.optional().describe('A workspace file the artifact links to (provenance.files)'),
    conversation_id: value.optional(),
  })
  .strict();
export type TaskFilters = z.infer<typeof taskFiltersSchema>;

/** Columns of task_artifacts filtered by equality. */
const DIRECT = [
  'task_id',
  'artifact_kind',
  'status',
  'challenge_id',
  'thread_id',
  'reply_to_artifact_id',
  'artifact_role',
  'tool_name',
  'project_id',
  'agent_id',
  'session_id',
  'requested_action',
  'verification_status',
  'relation_kind',
] as const;

/** A WHERE clause over `task_artifacts a` and its parameters; superseded digests are never candidates. */
export function filterSql(filters: TaskFilters): { where: string; params: unknown[] } {
  const clauses = ['a.superseded = 0'];
  const params: unknown[] = [];
  for (const key of DIRECT) {
    const v = filters[key];
    if (v === undefined) continue;
    // relation_kind also matches an artifact that others relate to with that kind.
    if (key === 'relation_kind') {
      clauses.push(
        '(a.relation_kind = ? OR EXISTS (SELECT 1 FROM artifact_relations r WHERE r.from_artifact_id = a.artifact_id AND r.relation_kind = ?))',
      );
      params.push(v, v);
      continue;
    }
    clauses.push(`a.${key} = ?`);
    params.push(v);
  }
  if (filters.task_status) {
    clauses.push('EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = a.task_id AND t.status = ?)');
    params.push(filters.task_status);
  }
  if (filters.dataset_name || filters.dataset_version) {
    // A dataset named anywhere in the task counts: the evidence of a task is about its data.
    clauses.push(
      `EXISTS (SELECT 1 FROM task_datasets d WHERE d.task_id = a.task_id${filters.dataset_name ? ' AND d.name = ?' : ''}${filters.dataset_version ? ' AND d.version = ?' : ''})`,
    );
    if (filters.dataset_name) params.push(filters.dataset_name);
    if (filters.dataset_version) params.push(filters.dataset_version);
  }
  if (filters.entity_name || filters.entity_type) {
    clauses.push(
      `EXISTS (SELECT 1 FROM task_entities e WHERE e.task_id = a.task_id${filters.entity_name ? ' AND e.name = ?' : ''}${filters.entity_type ? ' AND e.type = ?' : ''})`,
    );
    if (filters.entity_name) params.push(filters.entity_name);
    if (filters.entity_type) params.push(filters.entity_type);
  }
  for (const [kind, target] of [
    ['file', filters.file],
    ['conversation', filters.conversation_id],
  ] as const) {
    if (!target) continue;
    clauses.push('EXISTS (SELECT 1 FROM artifact_links l WHERE l.artifact_id = a.artifact_id AND l.target_kind = ? AND l.target = ?)');
    params.push(kind, target);
  }
  return { where: clauses.join(' AND '), params };
}

/** The filters given, as `key=value` (replies say what was applied). */
export function describeFilters(filters: TaskFilters): string[] {
  return Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`);
}
