/**
 * What prompt caching saved, in money: the dated list prices of modelPrices.json (one data file,
 * easy to update; each row names its source and the day it was checked) applied to a session's
 * cache reads and writes. A model without a row gets no money figure rather than a guess.
 */
import rawPrices from './modelPrices.json';
import { lazy } from '../../base/lazy';

const modelPricesSchemaModule = lazy(() => require('./modelPricesSchema') as typeof import('./modelPricesSchema'));

/** One row of the price table, USD per million tokens. */
export interface ModelPrice {
  ids: string[];
  label: string;
  input: number;
  /** Anthropic: writing to the 5-minute cache (1.25× input). Absent where writes cost the input price (OpenAI). */
  cacheWrite5m?: number;
  /** Anthropic: writing to the 1-hour cache (2× input). */
  cacheWrite1h?: number;
  cacheRead: number;
  output: number;
  source: string;
  /** `YYYY-MM-DD`: when the price was last checked against its source. */
  checked: string;
}

let table: ModelPrice[] | undefined;

/** The price table, checked once (a hand edit that breaks it fails loudly, naming the field). */
export function modelPrices(): ModelPrice[] {
  // The schema module (and zod with it) loads with the first price asked for, not with this module.
  const { modelPricesSchema } = modelPricesSchemaModule();
  table ??= modelPricesSchema.parse(rawPrices).models;
  return table;
}

/**
 * The row for a model id: an exact id, or an id followed by `-` and a digit (a dated snapshot,
 * `claude-opus-4-5-20251101`); the longest id wins, so `claude-opus-4-5-…` is not priced as
 * `claude-opus-4`, and `gpt-5.3-codex-spark` (a research preview) matches no row.
 */
export function priceFor(model: string | undefined, prices: readonly ModelPrice[] = modelPrices()): ModelPrice | undefined {
  if (!model) return undefined;
  const id = model.trim().toLowerCase();
  let best: { price: ModelPrice; length: number } | undefined;
  for (const price of prices) {
    for (const candidate of price.ids) {
      const matches = id === candidate || (id.startsWith(`${candidate}-`) && /\d/.test(id.charAt(candidate.length + 1)));
      if (matches && (!best || candidate.length > best.length)) best = { price, length: candidate.length };
    }
  }
  return best?.price;
}

/** Token counts a money figure is computed from. */
export interface CacheTokenCounts {
  cacheReadTokens: number;
  /** Written to Anthropic's 5-minute cache. */
  cacheWrite5mTokens: number;
  /** Written to Anthropic's 1-hour cache. */
  cacheWrite1hTokens: number;
}

/** Money a cache made or cost, in USD. */
export interface CacheMoney {
  /** What the cache reads saved against sending the same tokens uncached. */
  saved: number;
  /** What cache writes cost above the plain input price (Anthropic's write premium; 0 for OpenAI). */
  writePremium: number;
  /** saved − writePremium. */
  net: number;
}

/** The money of one model's cache traffic at its list prices. */
export function cacheMoney(counts: CacheTokenCounts, price: ModelPrice): CacheMoney {
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  const saved = counts.cacheReadTokens * perToken(price.input - price.cacheRead);
  const writePremium =
    counts.cacheWrite5mTokens * perToken((price.cacheWrite5m ?? price.input) - price.input) +
    counts.cacheWrite1hTokens * perToken((price.cacheWrite1h ?? price.input) - price.input);
  return { saved, writePremium, net: saved - writePremium };
}

/** Token counts of calls, as every provider's usage reads once folded (cacheUsage.ts): inputTokens holds the cached parts. */
export interface CallTokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/**
 * What calls cost at a model's list prices, in USD: uncached input at the input price, cache reads
 * at theirs, cache writes at the 5-minute write price (the adapters' default; the input price
 * where writes cost no more), and output.
 */
export function callCost(counts: CallTokenCounts, price: Pick<ModelPrice, 'input' | 'output' | 'cacheRead' | 'cacheWrite5m'>): number {
  const read = Math.min(counts.cacheReadTokens, counts.inputTokens);
  const write = Math.min(counts.cacheWriteTokens, counts.inputTokens - read);
  const uncached = counts.inputTokens - read - write;
  return (
    (uncached * price.input + read * price.cacheRead + write * (price.cacheWrite5m ?? price.input) + counts.outputTokens * price.output) /
    1_000_000
  );
}

/** `$1.23`, `$0.004`, `<$0.001`: enough digits to tell small sums apart. */
export function formatUsd(amount: number): string {
  const sign = amount < 0 ? '−' : '';
  const abs = Math.abs(amount);
  if (abs === 0) return '$0.00';
  if (abs < 0.001) return `${sign}<$0.001`;
  return `${sign}$${abs < 1 ? abs.toFixed(3) : abs.toFixed(2)}`;
}
