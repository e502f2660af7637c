/**
 * A model call made outside a harvest (`lore journal --summarize`, `lore tidy --provider`) costs
 * the same money and is held to the same budget: the provider is wrapped so each request is
 * checked against the daily and monthly caps (the log read right before it, so other runs'
 * calls count) and refused with the harvest's kind of message when it would pass one, and each
 * call is written to the spending log as it ends, named by its task. The per-harvest caps are a
 * harvest's own. The offline extractor calls no model and is never wrapped. @lore chat calls its
 * model in the editor, which writes nothing: the editor checks the same caps (taskBudget, reading
 * the log) before a call through a direct provider, and the language server writes each call the
 * editor reports (recordTaskCall).
 */
import { randomUUID } from 'node:crypto';
import { estimateTokens } from '../../model/tokens';
import type { BudgetCaps } from '../../model/storeConfigFormat';
import { loadStoreConfig } from '../../store/storeConfig';
import type { StorePaths } from '../../store/storePaths';
import type { ModelPrice } from '../promptCache/modelPrices';
import type { Provider } from '../providers/provider';
import { BudgetGuard, CONFIG_WHERE, resolveCaps, SETTINGS_WHERE, TASK_REPLY_TOKENS, taskStopText, type BudgetStop } from './budget';
import { appendSpending, spentSoFar, type SpendingRecord, type SpendingTask, type SpendingVia } from './spendingLog';
import { estimatedCall, priceOf, pricesWith, SpendingMeter } from './spendingMeter';

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

/** The daily and monthly caps of a task outside a harvest, and the prices its calls are counted at. */
export interface TaskBudget {
  prices: ModelPrice[];
  /** The refusal when a request of `inputTokens` to `provider`'s `model` would pass a cap (`what` names it); undefined when it fits. */
  check(provider: string, model: string | undefined, inputTokens: number, what: string): SpendingCapError | undefined;
}

/** The caps of config.json and the caller's settings, judged against the log read right before each check. */
export function taskBudget(paths: StorePaths, options: Pick<TaskSpendingOptions, 'caps' | 'clock'> = {}): TaskBudget {
  const clock = options.clock ?? (() => new Date());
  const budget = loadStoreConfig(paths.config).config.budget;
  const caps = resolveCaps([
    { caps: budget, where: CONFIG_WHERE },
    { caps: options.caps, where: SETTINGS_WHERE },
  ]);
  const prices = pricesWith(budget?.prices);
  const guard = new BudgetGuard(caps, () => spentSoFar(paths, clock()), 'task');
  return {
    prices,
    check(provider, model, inputTokens, what) {
      if (!Object.keys(caps).length) return undefined;
      const outputTokens = TASK_REPLY_TOKENS;
      const price = priceOf(provider, model, prices);
      const usd = price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : undefined;
      guard.stop = undefined; // each request is judged on its own
      const stop = guard.check(
        { tokens: 0, usd: 0 },
        { inputTokens, outputTokens, tokens: inputTokens + outputTokens, ...(usd !== undefined ? { usd } : {}) },
      );
      return stop ? new SpendingCapError(stop, taskStopText(stop, what)) : undefined;
    },
  };
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
  const budget = taskBudget(paths, options);
  const meter = new SpendingMeter(provider.name, budget.prices, {
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
    const inputTokens = estimateTokens(request.instructions + request.content + (request.suffix ?? ''));
    const refusal = budget.check(provider.name, request.model ?? provider.defaultModel, inputTokens, what);
    if (refusal) throw refusal;
  });
  return { provider: wrapped, warnings };
}

/** One call made outside Lore's own providers (@lore chat's, in the editor), as the editor counted it. */
export interface TaskCall {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** The provider reported no usage: the tokens were counted from the text. */
  estimated?: boolean;
}

/**
 * The call as the editor counts it: the usage the provider reported (a direct provider's reply
 * carries it), else, with none or an empty one (VS Code's language models report nothing), the
 * tokens of the text `sent` and `received`, marked estimated.
 */
export function taskCallOf(
  provider: string,
  model: string,
  sent: string,
  received: string,
  usage?: Pick<TaskCall, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>,
): TaskCall {
  if (usage && (usage.inputTokens > 0 || usage.outputTokens > 0))
    return {
      provider,
      model,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens ?? 0,
      cacheWriteTokens: usage.cacheWriteTokens ?? 0,
    };
  const { inputTokens, outputTokens } = estimatedCall(model, sent, received);
  return { provider, model, inputTokens, outputTokens, estimated: true };
}

/** Writes one such call to the spending log, priced at config.json's and the built-in prices; returns the line. Throws what fs throws. */
export function recordTaskCall(
  paths: StorePaths,
  task: Exclude<SpendingTask, 'harvest'>,
  call: TaskCall,
  options: { run: string; via?: SpendingVia; clock?: () => Date },
): SpendingRecord {
  const prices = pricesWith(loadStoreConfig(paths.config).config.budget?.prices);
  const meter = new SpendingMeter(call.provider, prices, {
    run: options.run,
    task,
    ...(options.via ? { via: options.via } : {}),
    clock: options.clock ?? (() => new Date()),
    write: (record) => appendSpending(paths, [record]),
  });
  return meter.charge({
    at: '',
    run: '',
    provider: call.provider,
    model: call.model,
    calls: 1,
    inputTokens: call.inputTokens,
    outputTokens: call.outputTokens,
    cacheReadTokens: call.cacheReadTokens ?? 0,
    cacheWriteTokens: call.cacheWriteTokens ?? 0,
    ...(call.estimated ? { estimated: true } : {}),
  });
}
