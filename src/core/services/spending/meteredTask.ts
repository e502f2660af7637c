/**
 * A model call made outside a harvest (`lore journal --summarize`, `lore tidy --provider`) costs
 * the same money and is held to the same budget: the provider is wrapped so each request is
 * checked against the daily and monthly caps (the log read right before it, so other runs'
 * calls count) and refused with the harvest's kind of message when it would pass one, and each
 * call is written to the spending log as it ends, named by its task. The per-harvest caps are a
 * harvest's own. The offline extractor calls no model and is never wrapped.
 */
import { randomUUID } from 'node:crypto';
import { estimateTokens } from '../../model/tokens';
import type { BudgetCaps } from '../../model/storeConfigFormat';
import { loadStoreConfig } from '../../store/storeConfig';
import type { StorePaths } from '../../store/storePaths';
import type { Provider } from '../providers/provider';
import { BudgetGuard, CONFIG_WHERE, resolveCaps, SETTINGS_WHERE, TASK_REPLY_TOKENS, taskStopText, type BudgetStop } from './budget';
import { appendSpending, spentSoFar, type SpendingTask, type SpendingVia } from './spendingLog';
import { priceOf, pricesWith, SpendingMeter } from './spendingMeter';

/** A request refused because it would pass a cap: nothing was sent. */
export class SpendingCapError extends Error {
  constructor(
    readonly stop: BudgetStop,
    message: string,
  ) {
    super(message);
    this.name = 'SpendingCapError';
  }
}

/** What a caller says about the task's spending. */
export interface TaskSpendingOptions {
  /** Caps of the caller's own settings (VS Code's lore.budget.*), besides config.json's. */
  caps?: BudgetCaps;
  via?: SpendingVia;
  /** When calls end (default: the clock). */
  clock?: () => Date;
}

/**
 * `provider` metered for `task`: each request checked, then recorded. `what` names the request
 * in a refusal: `the journal summary`, `the tidy's next request`. `warnings` collects a record
 * that could not be written (the reply is still used: it was paid for).
 */
export function meteredProvider(
  paths: StorePaths,
  provider: Provider,
  task: Exclude<SpendingTask, 'harvest'>,
  what: string,
  options: TaskSpendingOptions = {},
): { provider: Provider; warnings: string[] } {
  const warnings: string[] = [];
  if (provider.offline) return { provider, warnings };
  const clock = options.clock ?? (() => new Date());
  const budget = loadStoreConfig(paths.config).config.budget;
  const caps = resolveCaps([
    { caps: budget, where: CONFIG_WHERE },
    { caps: options.caps, where: SETTINGS_WHERE },
  ]);
  const prices = pricesWith(budget?.prices);
  const guard = new BudgetGuard(caps, () => spentSoFar(paths, clock()), 'task');
  const meter = new SpendingMeter(provider.name, prices, {
    run: randomUUID(),
    task,
    ...(options.via ? { via: options.via } : {}),
    clock,
    write: (record) => {
      try {
        appendSpending(paths, [record]);
      } catch (error) {
        const warning = `What ${what} spent could not be recorded: ${(error as Error).message}`;
        if (!warnings.includes(warning)) warnings.push(warning);
      }
    },
  });
  const wrapped = meter.wrap(provider, (request) => {
    if (!Object.keys(caps).length) return;
    const inputTokens = estimateTokens(request.instructions + request.content + (request.suffix ?? ''));
    const outputTokens = TASK_REPLY_TOKENS;
    const price = priceOf(provider.name, request.model ?? provider.defaultModel, prices);
    const usd = price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : undefined;
    guard.stop = undefined; // each request is judged on its own
    const stop = guard.check(
      { tokens: 0, usd: 0 },
      { inputTokens, outputTokens, tokens: inputTokens + outputTokens, ...(usd !== undefined ? { usd } : {}) },
    );
    if (stop) throw new SpendingCapError(stop, taskStopText(stop, what));
  });
  return { provider: wrapped, warnings };
}
