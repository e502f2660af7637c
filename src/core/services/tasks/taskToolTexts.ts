/**
 * Titles and descriptions of the task tools, carrying the seed's agent guardrails: search first;
 * task_start before substantive work; task_progress only at meaningful checkpoints; runs
 * bracketed; evidence when a concrete result matters; task_finish with worked / failed /
 * validation / uncertainty / follow-ups; artifact_create for critique, revision, verification
 * and decisions; compact search first, then get selected records. MCP and VS Code share them.
 */
import type { TaskToolName } from './taskToolInputs';

const WHERE = 'Artifacts are kept append-only in .lore/tasks/<task-id>.jsonl.';

export const TASK_TOOL_TEXTS: Record<TaskToolName, { title: string; description: string }> = {
  task_start: {
    title: 'Start a task',
    description: `Use before substantive work, after task_search found no task for it. Records the goal, motivation, hypothesis and question; the reply names the task id the other task tools take. ${WHERE}`,
  },
  task_progress: {
    title: 'Record a task checkpoint',
    description:
      'Only for meaningful checkpoints (a hypothesis changed, a blocker appeared or cleared, an approach was abandoned), not for every step.',
  },
  task_run_start: {
    title: 'Start a run',
    description:
      'Before a substantive run (a test suite, a benchmark, a training job, a migration): the tool, its version, the command, parameters and inputs, and why this tool. The reply names the run id task_run_finish takes.',
  },
  task_run_finish: {
    title: 'Finish a run',
    description: 'After the run task_run_start opened: its status, a summary of the result, metrics and outputs, what worked and failed.',
  },
  task_add_evidence: {
    title: 'Add evidence to a task',
    description:
      'When a concrete result matters: what was observed, how confident, the files and conversation it is in, the data it is about. Another agent may countersign it with artifact_create (verification).',
  },
  task_finish: {
    title: 'Finish a task',
    description:
      'Close the task with what worked, what failed, how it was validated, what stays uncertain and the follow-ups: what the next agent needs to not repeat your work.',
  },
  artifact_create: {
    title: 'Create a review, revision, verification or decision',
    description:
      "When the event is critique (review), a revision, a verification of another artifact, or a decision, rather than a lifecycle step. A verification counts only when another agent than the claim's makes it.",
  },
  task_search: {
    title: 'Search task memory',
    description:
      'Search first, before starting work: exact filters (task_id, artifact_kind, status, tool_name, agent_id, verification_status, dataset_name, file …) are applied first, then the words rank what is left. ' +
      'Modes: resume_task, find_failures, find_decisions, find_evidence, find_highlights, brief_project. Each hit says what it is: verified_record, canonical_record, compiled_digest_hint (re-ground it), semantic_candidate. ' +
      'Compact replies first; then task_get the records you need.',
  },
  task_get: {
    title: 'Read a task or an artifact',
    description:
      'The full record of a task (task_id: its state and timeline) or of one artifact (artifact_id: with the artifacts that reply to it and its verification).',
  },
};
