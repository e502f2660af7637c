/**
 * The spending caps of a harvest: tokens and dollars per harvest, per day and per month, set in
 * config.json (`budget`) and in VS Code's `lore.budget.*` settings. A cap set in either place
 * holds (the lower one wins), so a committed config.json can lower what a person allowed but never
 * raise it. Before each conversation goes to a model, what it would cost (estimated as the dry
 * run does, bytes / 4, plus the prompt and a reply) is checked against what is left; one that
 * does not fit is left for a later harvest, untouched in the ledger, and the harvest says which
 * cap stopped it and what to do. A journal summary or a tidy with a model is held to the daily
 * and monthly caps the same way, request by request. Cached replies cost nothing and are never
 * refused; neither is the offline extractor, which calls no model.
 */
import { BYTES_PER_TOKEN, EXISTING_ITEMS_MAX_CHARS, SUMMARIZE_THRESHOLD_BYTES, SUMMARY_CHUNK_BYTES } from '../../model/constants';
import { formatTokens } from '../../model/format';
import { BUDGET_CAP_KEYS, type BudgetCaps } from '../../model/storeConfigFormat';
import { formatUsd, type ModelPrice } from '../promptCache/modelPrices';
import type { SpendingTotals } from './spendingLog';

export type BudgetCapKey = keyof BudgetCaps;

/** Caps from one place, and how to name that place to the person. */
export interface CapSource {
  caps: BudgetCaps | undefined;
  /** Where a cap of this source is raised, given its key: `lore.budget.dailyUsd in settings`. */
  where: (key: BudgetCapKey) => string;
}

/** Where VS Code's settings set a cap. */
export const SETTINGS_WHERE = (key: BudgetCapKey): string => `lore.budget.${key} in settings`;
/** Where config.json sets a cap. */
export const CONFIG_WHERE = (key: BudgetCapKey): string => `"budget": {"${key}"} in the store's config.json`;

/** The caps that hold, each with where it was set. */
export type ResolvedCaps = Partial<Record<BudgetCapKey, { limit: number; where: string }>>;

/** Each cap at its lowest over the sources. */
export function resolveCaps(sources: readonly CapSource[]): ResolvedCaps {
  const resolved: ResolvedCaps = {};
  for (const source of sources) {
    for (const key of BUDGET_CAP_KEYS) {
      const limit = source.caps?.[key];
      if (limit === undefined || !Number.isFinite(limit) || limit < 0) continue;
      const held = resolved[key];
      if (!held || limit < held.limit) resolved[key] = { limit, where: source.where(key) };
    }
  }
  return resolved;
}

export function hasCaps(caps: ResolvedCaps): boolean {
  return Object.keys(caps).length > 0;
}

/** A reply's tokens, allowed for in an estimate (a harvest reply is a few hundred items' words at most). */
const REPLY_TOKENS = 1_000;
/** A journal summary's or tidy batch's reply, allowed for before the call. */
export const TASK_REPLY_TOKENS = 1_000;
/** A summary part's reply. */
const SUMMARY_TOKENS = 500;
/** The store's items shown to the model with a conversation, at most. */
const EXISTING_ITEMS_TOKENS = Math.ceil(EXISTING_ITEMS_MAX_CHARS / BYTES_PER_TOKEN);

/** What one conversation is likely to cost. */
export interface CallEstimate {
  inputTokens: number;
  outputTokens: number;
  tokens: number;
  /** Undefined when the model's price is unknown. */
  usd?: number;
}

/**
 * The estimate for distilling a conversation whose rendered transcript is `renderedBytes`: the
 * transcript and prompt (bytes / 4, as the dry run counts), and a large one's summaries first.
 */
export function estimateConversation(
  renderedBytes: number,
  prompts: { harvest: number; summarize: number },
  price: ModelPrice | undefined,
): CallEstimate {
  const tokens = (bytes: number) => Math.ceil(bytes / BYTES_PER_TOKEN);
  let inputTokens = tokens(renderedBytes) + tokens(prompts.harvest) + EXISTING_ITEMS_TOKENS;
  let outputTokens = REPLY_TOKENS;
  if (renderedBytes > SUMMARIZE_THRESHOLD_BYTES) {
    const parts = Math.ceil(renderedBytes / SUMMARY_CHUNK_BYTES);
    // Each part with the summarize prompt, then the harvest reads the summaries instead of the transcript.
    inputTokens += parts * (tokens(prompts.summarize) + SUMMARY_TOKENS);
    outputTokens += parts * SUMMARY_TOKENS;
  }
  const usd = price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : undefined;
  return { inputTokens, outputTokens, tokens: inputTokens + outputTokens, ...(usd !== undefined ? { usd } : {}) };
}

/** Why conversations were left out: the first cap a conversation did not fit. */
export interface BudgetStop {
  cap: BudgetCapKey;
  limit: number;
  /** Spent in the cap's period before the conversation or call (this run's calls included). */
  spent: number;
  /** The estimate of the conversation that did not fit. */
  needed: number;
  /** Where the cap is raised. */
  where: string;
  /** Conversations left for a later harvest. */
  left: number;
}

/** Spent so far in each period, tokens and dollars. */
export interface PeriodSpending {
  today: Pick<SpendingTotals, 'tokens' | 'usd'>;
  month: Pick<SpendingTotals, 'tokens' | 'usd'>;
}

/**
 * Checks each call or conversation of a run against the caps. The periods' spending is read
 * (from the log) right before each check and holds every call already recorded, this run's and
 * other processes' alike; `run` is this run's own, which only the per-harvest caps count.
 */
export class BudgetGuard {
  stop: BudgetStop | undefined;

  constructor(
    readonly caps: ResolvedCaps,
    private readonly periods: () => PeriodSpending,
    /** `harvest`: every cap; `task` (a journal summary, a tidy): the daily and monthly caps only. */
    private readonly scope: 'harvest' | 'task' = 'harvest',
  ) {}

  /** Undefined when `next` fits beside what was spent (`run`: this harvest's calls so far); else the cap it passes, recorded. */
  check(run: { tokens: number; usd: number }, next: CallEstimate): BudgetStop | undefined {
    let spentBefore: PeriodSpending | undefined;
    for (const key of BUDGET_CAP_KEYS) {
      const cap = this.caps[key];
      if (!cap) continue;
      const perRun = key.startsWith('perHarvest');
      if (perRun && this.scope !== 'harvest') continue;
      const money = key.endsWith('Usd');
      // A money cap cannot judge a model without a price; the token caps still do (see priceWarning).
      if (money && next.usd === undefined) continue;
      const period = perRun
        ? run
        : key.startsWith('daily')
          ? (spentBefore ??= this.periods()).today
          : (spentBefore ??= this.periods()).month;
      const spent = money ? period.usd : period.tokens;
      const needed = money ? next.usd! : next.tokens;
      if (spent + needed <= cap.limit) continue;
      if (this.stop) this.stop.left++;
      else this.stop = { cap: key, limit: cap.limit, spent, needed, where: cap.where, left: 1 };
      return this.stop;
    }
    return undefined;
  }
}

/** An amount of a cap's unit. */
export function capAmount(key: BudgetCapKey, amount: number): string {
  return key.endsWith('Usd') ? formatUsd(amount) : `${formatTokens(Math.round(amount))} tokens`;
}

const CAP_NAMES: Record<BudgetCapKey, string> = {
  perHarvestTokens: 'the token cap per harvest',
  dailyTokens: 'the daily token cap',
  monthlyTokens: 'the monthly token cap',
  perHarvestUsd: 'the spending cap per harvest',
  dailyUsd: 'the daily spending cap',
  monthlyUsd: 'the monthly spending cap',
};

/** A cap in words: `the daily spending cap`. */
export function capName(key: BudgetCapKey): string {
  return CAP_NAMES[key];
}

/** What the person reads when a cap stopped a harvest: which cap, what was spent, what to do. */
export function budgetStopText(stop: BudgetStop): string {
  const period = stop.cap.startsWith('daily') ? ' today' : stop.cap.startsWith('monthly') ? ' this month' : ' by this harvest';
  const wait = stop.cap.startsWith('daily')
    ? ', or wait until tomorrow'
    : stop.cap.startsWith('monthly')
      ? ', or wait until next month'
      : ', or harvest again to send the rest (each harvest has its own cap)';
  const left = stop.left === 1 ? '1 conversation was' : `${stop.left} conversations were`;
  return (
    `Stopped at ${CAP_NAMES[stop.cap]} of ${capAmount(stop.cap, stop.limit)}: ${capAmount(stop.cap, stop.spent)} spent${period}, ` +
    `and the next conversation needs about ${capAmount(stop.cap, stop.needed)}. ${left} left for a later harvest, with nothing spent on ${stop.left === 1 ? 'it' : 'them'}. ` +
    `Raise ${stop.where}${wait}.`
  );
}

/**
 * What the person reads when a cap stopped a journal summary or a tidy before a call (`what`:
 * `the journal summary`): the same cap, spending and remedy as a harvest's, nothing sent.
 */
export function taskStopText(stop: BudgetStop, what: string): string {
  const period = stop.cap.startsWith('daily') ? ' today' : ' this month';
  const wait = stop.cap.startsWith('daily') ? ', or wait until tomorrow' : ', or wait until next month';
  return (
    `Stopped at ${CAP_NAMES[stop.cap]} of ${capAmount(stop.cap, stop.limit)}: ${capAmount(stop.cap, stop.spent)} spent${period}, ` +
    `and ${what} needs about ${capAmount(stop.cap, stop.needed)}, so it was not sent. Raise ${stop.where}${wait}.`
  );
}

/** The warning for money caps that cannot apply: the model has no known price. */
export function priceWarning(model: string | undefined): string {
  return (
    `The spending caps in dollars do not apply to ${model ? `the model ${model}` : 'this model'}: its price is unknown ` +
    '(add it under "budget": {"prices"} in config.json). The token caps still do.'
  );
}
