/**
 * The kinds of item an agent (or a person) names when remembering one, and where each lives:
 * the category files, tasks.md's two sections, or a file's note file.
 */
import { CATEGORY_FILES, TASKS_DONE_HEADING, type CategoryFileKey } from './categories';
import type { ReviewTarget } from './reviewFile';

/** The kinds, as the MCP `remember` tool and search by ids name them. */
export const ITEM_KINDS = ['fact', 'decision', 'question', 'playbook', 'task', 'done_task', 'note'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

const FILE_OF: Record<Exclude<ItemKind, 'note'>, CategoryFileKey> = {
  fact: 'facts',
  decision: 'decisions',
  question: 'questions',
  playbook: 'playbooks',
  task: 'tasks',
  done_task: 'tasks',
};

/** The review target (file, tasks section) of a kind that lives in a category file. */
export function categoryTarget(kind: Exclude<ItemKind, 'note'>): ReviewTarget {
  const file = CATEGORY_FILES[FILE_OF[kind]].file;
  if (kind === 'task') return { file, section: 'open' };
  if (kind === 'done_task') return { file, section: 'done' };
  return { file };
}

/** The kind of an item in a category file (tasks by the `## Done` section they sit in). */
export function kindOfCategoryItem(key: CategoryFileKey, section: string | undefined): Exclude<ItemKind, 'note'> {
  if (key === 'tasks') return isDoneSection(section) ? 'done_task' : 'task';
  return (Object.keys(FILE_OF) as Array<Exclude<ItemKind, 'note'>>).find((k) => FILE_OF[k] === key)!;
}

/** Whether a tasks.md section heading (without `## `) is the Done one. */
export function isDoneSection(section: string | undefined): boolean {
  return section?.trim().toLowerCase() === TASKS_DONE_HEADING.slice(3).toLowerCase();
}

/** The kind of an item bound for a review target. */
export function kindOfTarget(target: ReviewTarget): ItemKind {
  if (target.notedPath !== undefined || target.file.startsWith('files/')) return 'note';
  const key = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).find((k) => CATEGORY_FILES[k].file === target.file) ?? 'facts';
  return key === 'tasks' ? (target.section === 'done' ? 'done_task' : 'task') : kindOfCategoryItem(key, undefined);
}

/** The search category of items of a kind (a note's is `notes`), as replies name it. */
export function categoryOfKind(kind: ItemKind): CategoryFileKey | 'notes' {
  return kind === 'note' ? 'notes' : FILE_OF[kind];
}
