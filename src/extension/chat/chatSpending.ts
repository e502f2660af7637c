/**
 * @lore's model calls cost money like a harvest's, so they are held to the same daily and monthly
 * caps and written to the same spending log (task `chat`). The editor writes nothing: it checks
 * the caps by reading the log and config.json (core's taskBudget), and sends each call's usage to
 * the language server, which writes it. Only a direct provider is checked before a call: a VS Code
 * language model is paid by the person's own subscription, and its calls are only recorded.
 */
import { estimateTokens } from '../../core/model/tokens';
import type { BudgetCaps } from '../../core/model/storeConfigFormat';
import { taskBudget, type TaskCall } from '../../core/services/spending/meteredTask';
import { ChatSpendingRequest } from '../../shared/protocol';
import { logger } from '../log';
import type { StoreService } from '../storeService';

const log = logger('chat');

/** How a refusal names the call it refused. */
const WHAT = "@lore's answer";

/**
 * The cap message when sending `prompt` to the direct `provider`'s `model` would pass a daily or
 * monthly cap (config.json's or the `lore.budget.*` settings'), else undefined.
 */
export function chatCapRefusal(
  store: StoreService,
  caps: BudgetCaps,
  provider: string,
  model: string | undefined,
  prompt: string,
): string | undefined {
  return taskBudget(store.paths, { caps }).check(provider, model, estimateTokens(prompt), WHAT)?.message;
}

/** Has the language server write one call of a discussion to the spending log; says so in the log when it cannot. */
export async function recordChatCall(store: StoreService, discussionId: string, call: TaskCall): Promise<void> {
  // The log is the store's: without one there is nowhere to keep it.
  if (!store.exists) return;
  try {
    await store.request(ChatSpendingRequest, { discussionId: discussionId.slice(0, 200), ...call });
  } catch (error) {
    log.warn(`what @lore's answer spent was not recorded: ${error instanceof Error ? error.message : String(error)}`);
  }
}
