/** The language model tool names (package.json `languageModelTools`) and the task tool each one is. */
export const TASK_TOOL_NAMES_VSCODE = {
  lore_task_search: 'task_search',
  lore_task_get: 'task_get',
  lore_task_start: 'task_start',
  lore_task_progress: 'task_progress',
  lore_task_run_start: 'task_run_start',
  lore_task_run_finish: 'task_run_finish',
  lore_task_add_evidence: 'task_add_evidence',
  lore_task_finish: 'task_finish',
  lore_artifact_create: 'artifact_create',
} as const;
