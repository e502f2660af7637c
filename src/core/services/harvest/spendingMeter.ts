/**
 * Counting what a harvest's model calls cost as they happen: the run's provider is wrapped so
 * every reply's usage (what the provider reported, cacheUsage.ts) is added up per model, and
 * priced at the model's list price (modelPrices.json, or config.json's `budget.prices`). A
 * provider that reports no usage (VS Code's language models) is counted from the text it was sent
 * and sent back, bytes / 4, and the record says so. Every call counts, failed parses and
 * summaries included: they were paid for.
 */
import { estimateTokens } from '../../model/tokens';
import type { ModelPriceOverride } from '../../model/storeConfigFormat';
import { callCost, modelPrices, priceFor, type ModelPrice } from '../promptCache/modelPrices';
import type { ModelReply, ModelRequest, Provider } from '../providers/provider';
import type { SpendingRecord, SpendingVia } from './spendingLog';

/** Providers that run on the person's machine: their tokens count, their money is nil. */
const LOCAL_PROVIDERS = new Set(['ollama']);

/** The price table with config.json's prices first (an override of an id wins over the built-in row). */
export function pricesWith(overrides: Readonly<Record<string, ModelPriceOverride>> | undefined): ModelPrice[] {
  const own = Object.entries(overrides ?? {}).map(([id, p]): ModelPrice => ({
    ids: [id.trim().toLowerCase()],
    label: id,
    input: p.input,
    cacheRead: p.cacheRead ?? p.input,
    output: p.output,
    source: 'config.json',
    checked: '',
  }));
  return [...own, ...modelPrices()];
}

/** USD per million tokens for a call of `provider`'s `model`: zero for a local model, undefined when unknown. */
export function priceOf(provider: string, model: string | undefined, prices: readonly ModelPrice[]): ModelPrice | undefined {
  if (LOCAL_PROVIDERS.has(provider))
    return { ids: [], label: 'local', input: 0, cacheRead: 0, output: 0, source: 'runs on this machine', checked: '' };
  return priceFor(model, prices);
}

interface ModelTally {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  estimated: boolean;
}

/** The calls of one harvest run, per model. */
export class SpendingMeter {
  private readonly tallies = new Map<string, ModelTally>();
  /** Conversations whose reply came from the reply cache. */
  reused = 0;

  constructor(
    private readonly providerName: string,
    private readonly prices: readonly ModelPrice[],
  ) {}

  /** `provider` with every reply counted here. */
  wrap(provider: Provider): Provider {
    return {
      name: provider.name,
      label: provider.label,
      offline: provider.offline,
      ...(provider.defaultModel ? { defaultModel: provider.defaultModel } : {}),
      generate: async (request: ModelRequest): Promise<ModelReply> => {
        const reply = await provider.generate(request);
        this.count(request, reply, provider.defaultModel);
        return reply;
      },
    };
  }

  /** Adds one call: the usage the provider reported, else the text's estimate. */
  count(request: ModelRequest, reply: ModelReply, fallbackModel?: string): void {
    const model = reply.model || request.model || fallbackModel || '';
    const tally = this.tallies.get(model) ?? {
      model,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      estimated: false,
    };
    const usage = reply.usage;
    const reported = usage && ((usage.inputTokens ?? 0) > 0 || (usage.outputTokens ?? 0) > 0);
    tally.calls++;
    if (reported) {
      tally.inputTokens += usage.inputTokens ?? 0;
      tally.outputTokens += usage.outputTokens ?? 0;
      tally.cacheReadTokens += usage.cacheReadTokens ?? 0;
      tally.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
    } else {
      tally.inputTokens += estimateTokens(request.instructions + request.content + (request.suffix ?? ''));
      tally.outputTokens += estimateTokens(reply.text);
      tally.estimated = true;
    }
    this.tallies.set(model, tally);
  }

  /** What the run spent so far: tokens (input + output) and dollars of the priced models. */
  spent(): { tokens: number; usd: number } {
    let tokens = 0;
    let usd = 0;
    for (const t of this.tallies.values()) {
      tokens += t.inputTokens + t.outputTokens;
      usd += this.usdOf(t) ?? 0;
    }
    return { tokens, usd };
  }

  /** Models called without a known price (their money is not in `spent().usd`). */
  unpricedModels(): string[] {
    return [...this.tallies.values()].filter((t) => this.usdOf(t) === undefined).map((t) => t.model || 'an unnamed model');
  }

  /** The log lines of the run: one per model, or one naming the reused replies when no model was called. */
  records(run: string, at: Date, via: SpendingVia | undefined): SpendingRecord[] {
    const records: SpendingRecord[] = [...this.tallies.values()].map((t) => {
      const usd = this.usdOf(t);
      return {
        at: at.toISOString(),
        run,
        provider: this.providerName,
        model: t.model,
        calls: t.calls,
        inputTokens: t.inputTokens,
        outputTokens: t.outputTokens,
        cacheReadTokens: t.cacheReadTokens,
        cacheWriteTokens: t.cacheWriteTokens,
        ...(usd !== undefined ? { usd } : {}),
        ...(t.estimated ? { estimated: true } : {}),
        ...(via ? { via } : {}),
      };
    });
    if (this.reused > 0) {
      if (records.length) records[0].reused = this.reused;
      else
        records.push({
          at: at.toISOString(),
          run,
          provider: this.providerName,
          model: '',
          calls: 0,
          inputTokens: 0,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          usd: 0,
          reused: this.reused,
          ...(via ? { via } : {}),
        });
    }
    return records;
  }

  private usdOf(t: ModelTally): number | undefined {
    const price = priceOf(this.providerName, t.model, this.prices);
    return price ? callCost(t, price) : undefined;
  }
}
