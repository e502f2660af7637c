/**
 * The canonical task artifact envelope (seed: memd-task-artifacts.md). An artifact is one event
 * in the life of a task (its start, a checkpoint, a run, a piece of evidence, a review, a
 * decision, a digest, its finish). Artifacts are the source of truth: every other view of a task
 * (its markdown page, the index's side tables, search chunks, digests) is derived from them.
 * Field names are the seed's, in snake_case, so the JSONL files read the same as memd's.
 */
import { z } from 'zod';

/** The artifact kinds of the seed, in lifecycle order. */
export const ARTIFACT_KINDS = [
  'task_start',
  'task_progress',
  'run_start',
  'run_finish',
  'evidence',
  'review',
  'revision',
  'verification',
  'decision',
  'digest',
  'task_finish',
] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** A task's status (on task_start, task_progress, task_finish) or a run's (run_start, run_finish). */
export const TASK_STATUSES = ['active', 'blocked', 'done', 'failed', 'abandoned'] as const;
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export const ARTIFACT_STATUSES = [...TASK_STATUSES, ...RUN_STATUSES] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The roles of persisted digests (summary-first). */
export const DIGEST_ROLES = [
  'project_brief',
  'task_resume',
  'failure_library',
  'decision_library',
  'evidence_library',
  'highlight_library',
] as const;
export type DigestRole = (typeof DIGEST_ROLES)[number];

/** How far a digest (or any artifact) has been promoted. */
export const PROMOTION_STATES = ['raw', 'summarized', 'canonical', 'verified'] as const;

/**
 * What a verification artifact concluded about the claim it answers (reply_to_artifact_id), and
 * the effective status a claim gets from the verifications of other agents.
 */
export const VERIFICATION_STATUSES = ['unverified', 'verified', 'refuted', 'inconclusive'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** How an artifact relates to the one it replies to or names in related_artifact_ids. */
export const RELATION_KINDS = ['supports', 'refutes', 'revises', 'reviews', 'verifies', 'duplicates', 'follows_up', 'replies_to'] as const;

import { TASK_ID_PATTERN } from './taskNames';

export { TASK_ID_PATTERN };
/** A task id, or `_project`: the scope of project-wide digests (taskFiles.ts). */
const TASK_OR_SCOPE_PATTERN = /^(?:_project|[a-z0-9][a-z0-9._-]{0,79})$/;
/** Artifact ids: `a-` and 12 hex digits (artifactIds.ts). */
export const ARTIFACT_ID_PATTERN = /^a-[0-9a-f]{12}$/;

const text = (max: number) => z.string().max(max);
const shortText = text(300);
const longText = text(4000);
const list = (max: number) => z.array(longText).max(max);
/** Parameters, inputs, outputs, metrics: small JSON objects of the caller's own shape. */
const looseRecord = z.record(z.string().max(200), z.unknown());

/** A dataset a task used: name and version are exact filters. */
export const datasetRefSchema = z.object({ name: shortText.min(1), version: shortText.optional(), uri: text(1000).optional() });
/** A named thing a task is about (a module, a service, a gene, a model). */
export const entityRefSchema = z.object({ name: shortText.min(1), type: shortText.optional() });

/**
 * Where an artifact came from: the conversation (an id open_conversation takes), workspace files
 * (relative paths) and URLs. The Tasks view links evidence to these.
 */
export const provenanceSchema = z.object({
  source: shortText.optional().describe('Who recorded it: client:session, or manual'),
  conversation_id: shortText.optional(),
  files: z.array(text(1000)).max(50).optional(),
  urls: z.array(text(2000)).max(20).optional(),
});
export type Provenance = z.infer<typeof provenanceSchema>;

const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, 'an ISO 8601 UTC time');

/** The envelope: what one line of a task's JSONL file holds. Unknown fields are refused, not dropped. */
export const artifactSchema = z
  .object({
    artifact_id: z.string().regex(ARTIFACT_ID_PATTERN),
    artifact_kind: z.enum(ARTIFACT_KINDS),
    task_id: z.string().regex(TASK_OR_SCOPE_PATTERN),
    parent_task_id: z.string().regex(TASK_ID_PATTERN).optional(),
    tenant_id: shortText.optional(),
    project_id: shortText.optional(),
    agent_id: shortText.min(1),
    session_id: shortText.optional(),
    status: z.enum(ARTIFACT_STATUSES).optional(),
    artifact_role: shortText.optional(),
    challenge_id: shortText.optional(),
    thread_id: shortText.optional(),
    reply_to_artifact_id: z.string().regex(ARTIFACT_ID_PATTERN).optional(),
    relation_kind: z.enum(RELATION_KINDS).optional(),
    goal: longText.optional(),
    motivation: longText.optional(),
    hypothesis: longText.optional(),
    scientific_question: longText.optional(),
    summary: text(8000).optional(),
    blockers: list(50).optional(),
    what_worked: list(50).optional(),
    what_failed: list(50).optional(),
    validation: list(50).optional(),
    uncertainty: list(50).optional(),
    followups: list(50).optional(),
    dataset_refs: z.array(datasetRefSchema).max(50).optional(),
    entity_refs: z.array(entityRefSchema).max(100).optional(),
    related_artifact_ids: z.array(z.string().regex(ARTIFACT_ID_PATTERN)).max(200).optional(),
    contributors: z.array(shortText).max(50).optional(),
    tool_name: shortText.optional(),
    tool_version: shortText.optional(),
    command: longText.optional(),
    parameters: looseRecord.optional(),
    inputs: looseRecord.optional(),
    outputs: looseRecord.optional(),
    metrics: z.record(z.string().max(200), z.union([z.number(), z.string().max(200), z.boolean()])).optional(),
    why_chosen: longText.optional(),
    confidence: z.number().min(0).max(1).optional(),
    requested_action: shortText.optional(),
    verification_status: z.enum(VERIFICATION_STATUSES).optional(),
    promotion_state: z.enum(PROMOTION_STATES).optional(),
    digest_key: shortText.optional(),
    source_updated_at_ms: z.number().int().nonnegative().optional(),
    compute_budget: looseRecord.optional(),
    cost_actual: looseRecord.optional(),
    data_access_level: shortText.optional(),
    policy_tags: z.array(shortText).max(50).optional(),
    allowed_tools: z.array(shortText).max(100).optional(),
    approval_state: shortText.optional(),
    provenance: provenanceSchema.optional(),
    timestamp_created: isoTime,
    timestamp_observed: isoTime.optional(),
  })
  .strict();

/** One canonical task artifact. */
export type TaskArtifact = z.infer<typeof artifactSchema>;

/** The fields of an artifact a caller supplies; the store fills id, task, agent and time. */
export type ArtifactDraft = Omit<TaskArtifact, 'artifact_id' | 'timestamp_created'> & { timestamp_created?: string };

/**
 * When the store learned of an artifact, in milliseconds: what source freshness compares (an
 * observation time may lie in the past, and a digest must still count the artifact as new).
 */
export function artifactTimeMs(artifact: Pick<TaskArtifact, 'timestamp_created'>): number {
  return Date.parse(artifact.timestamp_created);
}
