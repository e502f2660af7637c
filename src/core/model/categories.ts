/**
 * The seven categories of a harvest reply and where each one lands in the store.
 */

/** The JSON keys of a harvest reply, in schema order. */
export const ITEM_CATEGORIES = ['facts', 'decisions', 'tasks_done', 'tasks_open', 'questions', 'playbooks', 'files'] as const;
export type ItemCategory = (typeof ITEM_CATEGORIES)[number];

/** The category files of a store, with their top heading. */
export const CATEGORY_FILES = {
  facts: { file: 'facts.md', title: 'Facts' },
  decisions: { file: 'decisions.md', title: 'Decisions' },
  questions: { file: 'questions.md', title: 'Questions' },
  playbooks: { file: 'playbooks.md', title: 'Playbooks' },
  tasks: { file: 'tasks.md', title: 'Tasks' },
} as const;
export type CategoryFileKey = keyof typeof CATEGORY_FILES;

/** The lists a harvest plan keeps its new lines in (open and done tasks apart). */
export type PlanListKey = 'facts' | 'decisions' | 'questions' | 'playbooks' | 'open' | 'done';

/** The category file each of a plan's lists goes to. */
export const PLAN_LIST_FILE: Readonly<Record<PlanListKey, CategoryFileKey>> = {
  facts: 'facts',
  decisions: 'decisions',
  questions: 'questions',
  playbooks: 'playbooks',
  open: 'tasks',
  done: 'tasks',
};

export const TASKS_OPEN_HEADING = '## Open';
export const TASKS_DONE_HEADING = '## Done';

/**
 * What the model may say about an item and the store's existing items (shown to it with their
 * ids): `sameAs`, the id of an existing item that says the same (the item becomes one more source
 * of that line); `supersedes`, ids of existing items it updates or contradicts (they are marked
 * superseded by it).
 */
export interface ItemRelations {
  sameAs?: string;
  supersedes?: string[];
}

/**
 * `inferred`: the offline extractor read the item into prose (no one marked it to be kept); the
 * harvest holds it in review.md for a person to confirm. A model's items never carry it.
 */
export interface ItemOrigin {
  inferred?: boolean;
}

/** A statement-shaped item (facts, decisions, tasks, questions). */
export interface StatementItem extends ItemRelations, ItemOrigin {
  statement: string;
  detail?: string;
}
export interface PlaybookItem extends ItemRelations, ItemOrigin {
  name: string;
  steps: string;
}
export interface FileNoteItem extends ItemRelations, ItemOrigin {
  path: string;
  note: string;
}

/** A validated harvest reply: every category present, every item well-formed. */
export interface HarvestItems {
  facts: StatementItem[];
  decisions: StatementItem[];
  tasks_done: StatementItem[];
  tasks_open: StatementItem[];
  questions: StatementItem[];
  playbooks: PlaybookItem[];
  files: FileNoteItem[];
}

export function emptyItems(): HarvestItems {
  return { facts: [], decisions: [], tasks_done: [], tasks_open: [], questions: [], playbooks: [], files: [] };
}

/** Item counts per category, as recorded in the ledger. */
export type ItemCounts = Record<ItemCategory, number>;

export function countItems(items: HarvestItems): ItemCounts {
  const counts = {} as ItemCounts;
  for (const category of ITEM_CATEGORIES) counts[category] = items[category].length;
  return counts;
}
