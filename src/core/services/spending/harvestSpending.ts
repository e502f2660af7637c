/**
 * A harvest's spending, start to end: the caps that hold (config.json's and the caller's, the
 * lower winning), the provider wrapped so every call is counted and logged as it ends
 * (spendingMeter.ts, spendingLog.ts), the check before each conversation against the log as it
 * is then (budget.ts), and at the end the report's `spending`: this run, today, this month, the
 * caps and why a cap stopped the run. The offline extractor spends nothing and is neither counted
 * nor capped.
 */
import type { BudgetCaps, BudgetConfig } from '../../model/storeConfigFormat';
import type { Provider } from '../providers/provider';
import { randomUUID } from 'node:crypto';
import {
  BudgetGuard,
  budgetStopText,
  CONFIG_WHERE,
  SETTINGS_WHERE,
  estimateConversation,
  hasCaps,
  priceWarning,
  resolveCaps,
  type BudgetStop,
  type CallEstimate,
  type CapSource,
  type ResolvedCaps,
} from './budget';
import { appendSpending, spentSoFar, type SpendingRecord, type SpendingTotals, type SpendingVia } from './spendingLog';
import { priceOf, pricesWith, SpendingMeter } from './spendingMeter';
import type { StorePaths } from '../../store/storePaths';
import type { ModelPrice } from '../promptCache/modelPrices';

/** What a harvest report says about money. */
export interface HarvestSpending {
  /** This run's model calls (dollars of the priced models only). */
  run: { tokens: number; usd: number };
  /** Conversations whose cached reply was reused: no tokens spent on them. */
  reused: number;
  /** Today and this month, this run included. */
  today: Pick<SpendingTotals, 'tokens' | 'usd' | 'unpricedTokens'>;
  month: Pick<SpendingTotals, 'tokens' | 'usd' | 'unpricedTokens'>;
  caps: ResolvedCaps;
  /** A dry run's estimate of what distilling its conversations would cost (cached replies not counted out). */
  estimate?: CallEstimate;
  /** The cap that left conversations for later, and the sentence saying so. */
  stop?: BudgetStop & { text: string };
  /** Money caps that could not apply, or a record that could not be written. */
  warnings: string[];
}

/** What a harvest passes in. */
export interface SpendingOptions {
  /** Caps of the caller's own settings (VS Code's lore.budget.*), besides config.json's. */
  caps?: BudgetCaps;
  /** How the caller's caps are named to the person (default: VS Code's settings). */
  capsWhere?: (key: keyof BudgetCaps) => string;
  via?: SpendingVia;
}

/** The bytes of the prompts, which every conversation's estimate adds. */
export interface PromptSizes {
  harvest: number;
  summarize: number;
}

export class HarvestBudget {
  readonly provider: Provider;
  private readonly meter: SpendingMeter | undefined;
  private readonly guard: BudgetGuard;
  private readonly price: ModelPrice | undefined;
  private readonly warnings: string[] = [];
  private readonly clock: () => Date;

  constructor(
    private readonly paths: StorePaths,
    provider: Provider,
    config: BudgetConfig | undefined,
    private readonly options: SpendingOptions & { model?: string; now: Date; clock?: () => Date; prompts: PromptSizes },
  ) {
    const caps = resolveCaps([
      { caps: config, where: CONFIG_WHERE },
      { caps: options.caps, where: options.capsWhere ?? SETTINGS_WHERE },
    ] satisfies CapSource[]);
    const clock = (this.clock = options.clock ?? (() => options.now));
    // Read again before each conversation: calls recorded since, by this run or another process, count.
    this.guard = new BudgetGuard(caps, () => spentSoFar(paths, clock()));
    const prices = pricesWith(config?.prices);
    const model = options.model ?? provider.defaultModel;
    this.price = priceOf(provider.name, model, prices);
    if (!provider.offline && !this.price && (caps.perHarvestUsd || caps.dailyUsd || caps.monthlyUsd))
      this.warnings.push(priceWarning(model));
    this.meter = provider.offline
      ? undefined
      : new SpendingMeter(provider.name, prices, {
          run: randomUUID(),
          task: 'harvest',
          ...(options.via ? { via: options.via } : {}),
          clock,
          write: (record) => this.record([record]),
        });
    this.provider = this.meter ? this.meter.wrap(provider) : provider;
  }

  /** Appends to the log; a failure is said once in the report, and the harvest goes on. */
  private record(records: SpendingRecord[]): void {
    try {
      appendSpending(this.paths, records);
    } catch (error) {
      const warning = `What this harvest spent could not be recorded: ${(error as Error).message}`;
      if (!this.warnings.includes(warning)) this.warnings.push(warning);
    }
  }

  /** Whether the conversation may go to the model: true for the offline extractor, else when it fits every cap. */
  admit(renderedBytes: number): boolean {
    if (!this.meter || !hasCaps(this.guard.caps)) return true;
    return !this.guard.check(this.meter.spent(), estimateConversation(renderedBytes, this.options.prompts, this.price));
  }

  /** A conversation answered from the reply cache. */
  reused(): void {
    if (this.meter) this.meter.reused++;
  }

  /** The estimate of distilling conversations of these sizes (the dry run's). */
  estimate(renderedBytes: readonly number[]): CallEstimate | undefined {
    if (!this.meter) return undefined;
    const total: CallEstimate = { inputTokens: 0, outputTokens: 0, tokens: 0, ...(this.price ? { usd: 0 } : {}) };
    for (const bytes of renderedBytes) {
      const e = estimateConversation(bytes, this.options.prompts, this.price);
      total.inputTokens += e.inputTokens;
      total.outputTokens += e.outputTokens;
      total.tokens += e.tokens;
      if (total.usd !== undefined && e.usd !== undefined) total.usd += e.usd;
    }
    return total;
  }

  /**
   * Records the replies reused from the cache (each call was recorded as it ended) and returns
   * what the report says. `estimate`: the dry run's.
   */
  finish(estimate?: CallEstimate): HarvestSpending {
    const reused = this.meter?.reusedRecord(this.clock());
    if (reused) this.record([reused]);
    for (const model of this.meter?.unpricedModels() ?? []) {
      if (!this.warnings.some((w) => w.includes(model))) this.warnings.push(`No price is known for ${model}: counted in tokens only.`);
    }
    const spent = spentSoFar(this.paths, this.clock());
    const run = this.meter?.spent() ?? { tokens: 0, usd: 0 };
    const stop = this.guard.stop;
    return {
      run,
      reused: this.meter?.reused ?? 0,
      today: pick(spent.today),
      month: pick(spent.month),
      caps: this.guard.caps,
      ...(estimate ? { estimate } : {}),
      ...(stop ? { stop: { ...stop, text: budgetStopText(stop) } } : {}),
      warnings: this.warnings,
    };
  }
}

function pick(t: SpendingTotals): HarvestSpending['today'] {
  return { tokens: t.tokens, usd: t.usd, unpricedTokens: t.unpricedTokens };
}
