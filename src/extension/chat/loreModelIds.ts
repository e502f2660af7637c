/**
 * The chat models Lore offers VS Code (directModelProvider.ts), named apart so that the code that
 * picks a VS Code model for a harvest or for @lore can leave Lore's own out without importing it.
 */

/** The vendor id in package.json's `contributes.languageModelChatProviders`. */
export const LORE_MODEL_VENDOR = 'lore';

/** The model that answers from Lore's own knowledge when there is no language model at all. */
export const LOCAL_MODEL_ID = 'lore-local';

/** True for a model Lore itself offers (never a model to distill with or to send @lore's context to). */
export function isLoreModel(model: { vendor: string }): boolean {
  return model.vendor === LORE_MODEL_VENDOR;
}
