/**
 * Counting what a run's model calls cost as they happen: the run's provider is wrapped so every
 * reply's usage (what the provider reported, cacheUsage.ts) is priced at the model's list price
 * (modelPrices.json, or config.json's `budget.prices`), written to the log as soon as the call
 * ends (spendingLog.ts), and added up per model for the run's own report and per-harvest caps. A
 * provider that reports no usage (VS Code's language models) is counted from the text it was sent
 * and sent back, bytes / 4, and the record says so. Every call counts, failed parses and
 * summaries included: they were paid for.
 */
import { estimateTokens } from '../../model/tokens';
import type { ModelPriceOverride } from '../../model/storeConfigFormat';
import { callCost, modelPrices, priceFor, type ModelPrice } from '../promptCache/modelPrices';
import type { ModelReply, ModelRequest, Provider } from '../providers/provider';
import type { SpendingRecord, SpendingTask, SpendingVia } from './spendingLog';

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

/** Where a meter writes each call, and what its lines say about the run. */
export interface MeterRun {
  run: string;
  task: SpendingTask;
  via?: SpendingVia;
  /** When a call ends (a caller with a fixed report date passes it, so a test's day is the log's). */
  clock: () => Date;
  /** Appends one call's record; what it throws is the owner's to report, the call's reply is kept. */
  write: (record: SpendingRecord) => void;
}

/** Checked before each call; throws to refuse it (a cap it would pass). */
export type BeforeCall = (request: ModelRequest) => void;

/** The calls of one run, per model. */
export class SpendingMeter {
  private readonly tallies = new Map<string, SpendingRecord>();
  /** Conversations whose reply came from the reply cache. */
  reused = 0;

  constructor(
    private readonly providerName: string,
    private readonly prices: readonly ModelPrice[],
    private readonly run?: MeterRun,
  ) {}

  /** `provider` with each call checked first (`before`), then counted here and written to the run's log. */
  wrap(provider: Provider, before?: BeforeCall): Provider {
    return {
      name: provider.name,
      label: provider.label,
      offline: provider.offline,
      ...(provider.defaultModel ? { defaultModel: provider.defaultModel } : {}),
      generate: async (request: ModelRequest): Promise<ModelReply> => {
        before?.(request);
        const reply = await provider.generate(request);
        this.charge(callOf(request, reply, provider.defaultModel));
        return reply;
      },
    };
  }

  /** Adds one call (the usage the provider reported, else the text's estimate) and returns it alone. */
  count(request: ModelRequest, reply: ModelReply, fallbackModel?: string): SpendingRecord {
    return this.add(callOf(request, reply, fallbackModel));
  }

  /**
   * Adds one call made elsewhere (@lore chat's, whose usage the editor sends) and writes it to
   * the run's log, priced; returns the line written.
   */
  charge(call: SpendingRecord): SpendingRecord {
    this.add(call);
    const line = this.record(call, this.run?.clock() ?? new Date());
    this.run?.write(line);
    return line;
  }

  private add(call: SpendingRecord): SpendingRecord {
    call.calls = 1;
    const model = call.model;
    const tally = this.tallies.get(model) ?? emptyCall(model);
    tally.calls++;
    tally.inputTokens += call.inputTokens;
    tally.outputTokens += call.outputTokens;
    tally.cacheReadTokens += call.cacheReadTokens;
    tally.cacheWriteTokens += call.cacheWriteTokens;
    if (call.estimated) tally.estimated = true;
    this.tallies.set(model, tally);
    return call;
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

  /** The run's calls per model, as log lines (what `count` added up). */
  totals(at: Date): SpendingRecord[] {
    return [...this.tallies.values()].map((t) => this.record(t, at));
  }

  /** The line naming the replies reused from the cache (no call, nothing spent), when there were any. */
  reusedRecord(at: Date): SpendingRecord | undefined {
    if (this.reused === 0) return undefined;
    const { via, ...line } = this.record(emptyCall(''), at);
    return { ...line, usd: 0, reused: this.reused, ...(via ? { via } : {}) };
  }

  /** A tally or call as a log line of this run, priced. */
  private record(t: SpendingRecord, at: Date): SpendingRecord {
    const usd = this.usdOf(t);
    const { task, via, run } = this.run ?? {};
    return {
      at: at.toISOString(),
      run: run ?? '',
      ...(task ? { task } : {}),
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
  }

  private usdOf(
    t: Pick<SpendingRecord, 'model' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>,
  ): number | undefined {
    const price = priceOf(this.providerName, t.model, this.prices);
    return price ? callCost(t, price) : undefined;
  }
}

/** One call's usage: what the provider reported, else the text's estimate. */
function callOf(request: ModelRequest, reply: ModelReply, fallbackModel?: string): SpendingRecord {
  const model = reply.model || request.model || fallbackModel || '';
  const usage = reply.usage;
  const reported = usage && ((usage.inputTokens ?? 0) > 0 || (usage.outputTokens ?? 0) > 0);
  if (!reported) return estimatedCall(model, request.instructions + request.content + (request.suffix ?? ''), reply.text);
  return {
    ...emptyCall(model),
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    cacheReadTokens: usage.cacheReadTokens ?? 0,
    cacheWriteTokens: usage.cacheWriteTokens ?? 0,
  };
}

/**
 * A call whose provider reported no usage (VS Code's language models), counted from the text
 * sent and the text received (bytes / 4) and marked as estimated.
 */
export function estimatedCall(model: string, sent: string, received: string): SpendingRecord {
  return { ...emptyCall(model), inputTokens: estimateTokens(sent), outputTokens: estimateTokens(received), estimated: true };
}

function emptyCall(model: string): SpendingRecord {
  return { at: '', run: '', provider: '', model, calls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}
