/**
 * Names in task memory that the protocol's schemas check (src/shared/taskProtocol.ts): pure
 * constants apart from the zod schemas of the tools (taskToolInputs.ts, artifactSchema.ts), so
 * declaring a message loads neither.
 */

/** Task ids name a file (`.lore/tasks/<id>.jsonl`): a slug, never a path. */
export const TASK_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,79}$/;

/** The lore_task_* tools (taskToolInputs.ts checks at compile time that it names the same ones). */
export const TASK_TOOL_NAMES = [
  'task_start',
  'task_progress',
  'task_run_start',
  'task_run_finish',
  'task_add_evidence',
  'task_finish',
  'task_search',
  'task_get',
  'artifact_create',
] as const;
