/**
 * @lore's answer when there is no model to ask (no VS Code language model, no key for the direct
 * provider, or the offline `rules` provider): what Lore itself knows, found without a model (the
 * notes of the files in scope and the best matches for the question, from the language server's
 * index; the digest when nothing matches), clearly labelled as such. Nothing is sent anywhere.
 */
import { loadContextInputs } from '../../core/services/context/loadContextInputs';
import { frameAsData } from '../../core/model/safety/dataFraming';
import { redactSecrets } from '../../core/model/safety/redact';
import { logger } from '../log';
import type { SearchClient } from '../search/searchClient';
import { NO_STORE_MESSAGE } from '../noStore';
import type { StoreService } from '../storeService';

const log = logger('chat');

/** What a local answer may cost the reader: about a screen of chat. */
const LOCAL_ANSWER_BUDGET = 1500;

/** The label every local answer starts with, so no one mistakes it for a model's reply. */
export const LOCAL_ANSWER_LABEL = '**No model answered this.** Lore has no language model to ask';

/** The markdown of a local answer to `prompt`, with `reason` saying why no model answered. */
export async function localAnswer(
  store: StoreService,
  search: SearchClient,
  prompt: string,
  files: readonly string[],
  reason: string,
): Promise<string> {
  const head = `${LOCAL_ANSWER_LABEL} (${reason}), so this is what Lore's own knowledge holds on it (search and notes, no model):`;
  if (!store.available) return `${head}\n\n${NO_STORE_MESSAGE}`;
  if (!store.exists)
    return `${head}\n\nThis workspace has no Lore knowledge store yet: run **Lore: Initialize Store**, then harvest your conversations.`;
  let body = '';
  try {
    const recalled = await search.recall({ query: prompt, files: [...files], tokenBudget: LOCAL_ANSWER_BUDGET });
    body = recalled.text;
    if (recalled.omitted > 0)
      body += `\n(${recalled.omitted} more match${recalled.omitted === 1 ? '' : 'es'}: use **Lore: Search Knowledge**)`;
  } catch (error) {
    // Without the language server there is no index: the digest and notes are still on disk.
    log.warn(`local answer without search: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!body.trim()) {
    // Read only: the language server is the one that writes the store (and its index).
    const inputs = loadContextInputs(store.paths, { files, persistIndex: false });
    const notes = (inputs.fileNotes ?? []).map((f) => [`## Notes on ${f.path}`, ...f.notes.map((n) => `- ${n}`)].join('\n'));
    const digest = inputs.digest?.trim();
    body = [...notes, ...(digest ? [`Nothing matches the question itself; the knowledge digest:\n\n${digest}`] : [])].join('\n\n');
  }
  if (!body.trim()) return `${head}\n\nLore knows nothing about this yet.`;
  return `${head}\n\n${redactSecrets(frameAsData(body.trimEnd()))}`;
}
