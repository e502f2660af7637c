/**
 * The context keys that say a view has something to show (viewPresence.ts sets them; package.json's
 * `views` read them, so a newcomer sees one view with one next step, and the others as they fill).
 * Apart from contextKeys.ts so that the manifest's tests can read the list without VS Code.
 */
// Asked in this order (viewPresence.ts): lore.hasCaches reuses the answer of lore.hasHarvested.
export const VIEW_KEYS = [
  'lore.hasKnowledge',
  'lore.hasHarvested',
  'lore.hasHeldItems',
  'lore.hasInbox',
  'lore.hasTopics',
  'lore.hasAgentTasks',
  'lore.hasCaches',
] as const;
export type ViewKey = (typeof VIEW_KEYS)[number];

/** The setting that shows every view whatever the keys say ("Show All Lore Views"). */
export const SHOW_ALL_VIEWS_SETTING = 'views.showAll';
