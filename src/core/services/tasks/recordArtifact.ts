/**
 * Recording an artifact: the one write path of task memory (MCP tools, CLI, VS Code). The draft
 * is checked against the lifecycle (a task starts once; a run finishes once and in its own task;
 * a verification answers an artifact that exists), redacted, flagged when it reads as an
 * instruction to an agent, given an id and a time, appended durably under the store lock, and
 * the task's markdown page regenerated.
 */
import { randomBytes } from 'node:crypto';
import { writeFileAtomic } from '../../base/atomicWrite';
import { acquireStoreLock } from '../../base/storeLock';
import type { StorePaths } from '../../store/storePaths';
import { redactDeep } from '../../model/safety/redact';
import { wellFormedDeep } from '../../base/wellFormedText';
import { flagInstruction, flagKinds, type InstructionFlagKind } from '../../model/safety/instructionFlags';
import {
  DIGEST_ROLES,
  RUN_STATUSES,
  TASK_ID_PATTERN,
  TASK_STATUSES,
  artifactSchema,
  type ArtifactKind,
  type TaskArtifact,
} from './artifactSchema';
import { PROJECT_SCOPE_TASK, taskPageFile } from './taskFiles';
import { appendArtifacts, readTaskLog } from './taskLog';
import { renderTaskPage } from './taskPage';
import { foldTask } from './taskState';
import { artifactTexts } from './artifactText';

/** What the caller supplies: the envelope without id and creation time; task_id may be left to Lore on task_start. */
export type ArtifactInput = Partial<Omit<TaskArtifact, 'artifact_id' | 'timestamp_created' | 'agent_id'>> & { artifact_kind: ArtifactKind };

/** Who writes, and when. */
export interface RecordContext {
  agentId: string;
  sessionId?: string;
  /** Provenance source, e.g. `claude-code:<session>` or `manual`. */
  source?: string;
  now: () => Date;
}

/** A write the lifecycle refuses; its message tells the agent what to do instead. */
export class ArtifactRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArtifactRefused';
  }
}

/** The policy tag of an artifact that reads as an instruction to an agent: stored, withheld from agents. */
export const HELD_TAG = 'held:instruction';

/** The outcome of a write. */
export interface RecordResult {
  artifact: TaskArtifact;
  /** Instruction-like kinds found: the artifact is kept but its text is withheld from agents. */
  held: InstructionFlagKind[];
}

/** A fresh artifact id. */
export function newArtifactId(): string {
  return `a-${randomBytes(6).toString('hex')}`;
}

/** A task id from a goal: its first words as a slug and 4 random hex digits. */
export function newTaskId(goal: string): string {
  const slug = goal
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .split('-')
    .filter(Boolean)
    .slice(0, 6)
    .join('-')
    .slice(0, 60);
  return `${slug || 'task'}-${randomBytes(2).toString('hex')}`;
}

function refuse(message: string): never {
  throw new ArtifactRefused(message);
}

const FINISH_STATUSES = new Set(['done', 'failed', 'abandoned']);

/** Checks the draft against the task's log and fills the lifecycle defaults. */
function checkLifecycle(input: ArtifactInput, existing: readonly TaskArtifact[]): ArtifactInput {
  const kind = input.artifact_kind;
  const started = existing.some((a) => a.artifact_kind === 'task_start');
  const out: ArtifactInput = { ...input };
  const statusIn = (allowed: readonly string[]) => {
    if (out.status && !allowed.includes(out.status)) refuse(`${kind} takes status ${allowed.join(' | ')}, not "${out.status}"`);
  };
  if (kind === 'task_start') {
    if (started) refuse(`task ${out.task_id} is already started; record a task_progress instead (task_get shows where it stands)`);
    if (!out.goal?.trim()) refuse('task_start needs a goal');
    statusIn(['active', 'blocked']);
    out.status ??= 'active';
    return out;
  }
  if (!started && !(kind === 'digest' && out.task_id === PROJECT_SCOPE_TASK))
    refuse(`no task ${out.task_id}: start it with task_start first (search first: task_search may find it under another id)`);
  switch (kind) {
    case 'task_progress':
      statusIn(TASK_STATUSES);
      if (!out.summary?.trim() && !out.blockers?.length) refuse('task_progress needs a summary of the checkpoint');
      break;
    case 'task_finish':
      statusIn([...FINISH_STATUSES]);
      out.status ??= 'done';
      break;
    case 'run_start':
      if (!out.tool_name && !out.command) refuse('run_start needs a tool_name or a command');
      statusIn(['running']);
      out.status = 'running';
      break;
    case 'run_finish': {
      const runId = out.reply_to_artifact_id ?? refuse('run_finish needs the run id (reply_to_artifact_id) that task_run_start returned');
      const start = existing.find((a) => a.artifact_id === runId);
      if (!start || start.artifact_kind !== 'run_start') refuse(`${runId} is not a run of task ${out.task_id}`);
      if (existing.some((a) => a.artifact_kind === 'run_finish' && a.reply_to_artifact_id === runId))
        refuse(`run ${runId} is already finished`);
      statusIn(RUN_STATUSES.filter((s) => s !== 'running'));
      out.status ??= 'succeeded';
      out.tool_name ??= start.tool_name;
      break;
    }
    case 'evidence':
      if (!out.summary?.trim()) refuse('evidence needs a summary of the concrete result');
      break;
    case 'verification': {
      const claimId = out.reply_to_artifact_id ?? refuse('a verification names the claim it checks (reply_to_artifact_id)');
      if (!existing.some((a) => a.artifact_id === claimId)) refuse(`${claimId} is not an artifact of task ${out.task_id}`);
      out.verification_status ??= 'verified';
      out.relation_kind ??= out.verification_status === 'refuted' ? 'refutes' : 'verifies';
      break;
    }
    case 'review':
    case 'revision':
      if (out.reply_to_artifact_id && !existing.some((a) => a.artifact_id === out.reply_to_artifact_id))
        refuse(`${out.reply_to_artifact_id} is not an artifact of task ${out.task_id}`);
      out.relation_kind ??= kind === 'review' ? 'reviews' : 'revises';
      break;
    case 'digest':
      if (!out.artifact_role || !(DIGEST_ROLES as readonly string[]).includes(out.artifact_role))
        refuse(`a digest has an artifact_role: ${DIGEST_ROLES.join(' | ')}`);
      if (!out.digest_key) refuse('a digest has a digest_key (role:scope)');
      break;
    default:
      break;
  }
  return out;
}

/**
 * Builds the artifact a draft becomes against the task's current log (no I/O): well-formed
 * (see wellFormedText), redacted, checked, flagged. Exposed for the batch writers (digests) that hold the lock themselves.
 */
export function buildArtifact(input: ArtifactInput, existing: readonly TaskArtifact[], context: RecordContext): RecordResult {
  const checked = checkLifecycle(redactDeep(wellFormedDeep(input)), existing);
  const held = flagKinds(artifactTexts(checked as TaskArtifact).flatMap((t) => flagInstruction(t)));
  const policy = [...new Set([...(checked.policy_tags ?? []), ...(held.length ? [HELD_TAG] : [])])];
  const candidate = {
    ...checked,
    artifact_id: newArtifactId(),
    agent_id: context.agentId,
    ...(context.sessionId && !checked.session_id ? { session_id: context.sessionId } : {}),
    ...(policy.length ? { policy_tags: policy } : {}),
    provenance: { ...(context.source ? { source: context.source } : {}), ...(checked.provenance ?? {}) },
    timestamp_created: context.now().toISOString(),
  };
  if (Object.keys(candidate.provenance).length === 0) delete (candidate as Partial<typeof candidate>).provenance;
  const parsed = artifactSchema.safeParse(candidate);
  if (!parsed.success) refuse(`invalid artifact: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  return { artifact: parsed.data, held };
}

/** Regenerates a task's markdown page from its log (the caller holds the lock). */
export function writeTaskPage(paths: StorePaths, taskId: string): void {
  const log = readTaskLog(paths, taskId);
  writeFileAtomic(taskPageFile(paths, taskId), renderTaskPage(foldTask(taskId, log.artifacts), log.malformed));
}

/** Records one artifact: checked, appended durably under the store lock, page regenerated. */
export async function recordArtifact(paths: StorePaths, input: ArtifactInput, context: RecordContext): Promise<RecordResult> {
  const draft = { ...input };
  if (draft.artifact_kind === 'task_start' && !draft.task_id) draft.task_id = newTaskId(draft.goal ?? '');
  if (!draft.task_id) refuse(`${draft.artifact_kind} needs a task_id`);
  if (draft.task_id !== PROJECT_SCOPE_TASK && !TASK_ID_PATTERN.test(draft.task_id))
    refuse(`not a task id: "${draft.task_id.slice(0, 80)}" (lowercase letters, digits, '.', '_', '-')`);
  const lock = await acquireStoreLock(paths.root);
  try {
    const log = readTaskLog(paths, draft.task_id);
    const result = buildArtifact(draft, log.artifacts, context);
    appendArtifacts(paths, draft.task_id, [result.artifact]);
    writeTaskPage(paths, draft.task_id);
    return result;
  } finally {
    lock.release();
  }
}
