/**
 * The model calls an agent session file records, each with its prompt-cache usage: what Claude
 * Code, Codex and Copilot Chat write about every API response, folded into one shape. Read from
 * the records the tools themselves write (formats in test/fixtures/cache/README.md):
 * - Claude Code: an assistant record's `message.usage` (`input_tokens`, `cache_read_input_tokens`,
 *   `cache_creation_input_tokens` split into `cache_creation.ephemeral_5m_input_tokens` /
 *   `ephemeral_1h_input_tokens`). One response is split over several records that repeat the same
 *   usage under the same `message.id`: it counts once (its largest `output_tokens`, the final one).
 *   Subagent records (`isSidechain`) keep their own cached prefix.
 * - Codex: `event_msg` `token_count` events; `info.total_token_usage` is cumulative and repeated
 *   unchanged by rate-limit updates, so a call is a change of the total, its usage
 *   `info.last_token_usage`; the model comes from the latest `turn_context`.
 * - Copilot Chat: a request's `result.metadata.promptTokens` / `outputTokens`; it records no
 *   cached part, so its calls say the cache is unknown.
 * Malformed lines are counted, never thrown.
 */
import type { CacheUsage } from './cacheUsage';
import { isObject, obj, str, type JsonObject } from '../conversations/importSupport';

/** The tools whose session files record cache usage. */
export type CacheTool = 'claude-code' | 'codex' | 'copilot-chat';
export const CACHE_TOOLS: readonly CacheTool[] = ['claude-code', 'codex', 'copilot-chat'];

/**
 * The lifetime class of what a call cached: Anthropic's `5m` (the default) or `1h`; `implicit`
 * for OpenAI's automatic caching (lifetime provider-managed); `unknown` where the tool records
 * nothing about the cache.
 */
export type CacheTtlClass = '5m' | '1h' | 'implicit' | 'unknown';

/** One model call of a session. */
export interface CacheCall {
  /** When the response was recorded, epoch ms. */
  at: number;
  model?: string;
  usage: CacheUsage;
  /** Of usage.cacheWriteTokens: written to Anthropic's 1-hour cache (the rest went to the 5-minute one). */
  cacheWrite1hTokens: number;
  ttl: CacheTtlClass;
  /** False when the tool records the prompt size but not its cached part (Copilot Chat). */
  cacheKnown: boolean;
  /** A Claude Code subagent's call: its prefix is cached apart from the session's. */
  sidechain: boolean;
}

/** Folds a session file's records, in order, into calls; fed again with records appended later. */
export interface CallCollector {
  add(record: JsonObject): void;
  calls(): CacheCall[];
  /** The tool's own cumulative total, when it writes one (Codex): right even when only the tail was read. */
  reportedTotal?(): CacheUsage | undefined;
}

/** A count from a usage record: finite and non-negative, else 0. */
function count(record: JsonObject | undefined, key: string): number {
  const value = record?.[key];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

function timeOf(value: unknown): number | undefined {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/** Claude Code: one call per API response (message.id, else requestId), counted once. */
export function claudeCodeCollector(): CallCollector {
  const byKey = new Map<string, CacheCall>();
  const order: CacheCall[] = [];
  return {
    add(record) {
      if (record.type !== 'assistant') return;
      const message = obj(record.message);
      const usage = obj(message?.usage);
      const at = timeOf(record.timestamp);
      if (!message || !usage || at === undefined) return;
      const model = str(message.model);
      // Claude Code's own notices ("<synthetic>") were never sent to a model.
      if (model === '<synthetic>') return;
      const key = str(message.id) ?? str(record.requestId) ?? str(record.uuid);
      const output = count(usage, 'output_tokens');
      const seen = key !== undefined ? byKey.get(key) : undefined;
      if (seen) {
        // A later record of the same response: the stream's final output count is the largest.
        seen.usage.outputTokens = Math.max(seen.usage.outputTokens, output);
        return;
      }
      const uncached = count(usage, 'input_tokens');
      const read = count(usage, 'cache_read_input_tokens');
      const write = count(usage, 'cache_creation_input_tokens');
      const creation = obj(usage.cache_creation);
      // Versions before the split wrote only the total: Claude Code's default is 5 minutes.
      const write1h = Math.min(write, count(creation, 'ephemeral_1h_input_tokens'));
      const call: CacheCall = {
        at,
        model,
        usage: {
          inputTokens: uncached + read + write,
          uncachedInputTokens: uncached,
          cacheReadTokens: read,
          cacheWriteTokens: write,
          outputTokens: output,
        },
        cacheWrite1hTokens: write1h,
        ttl: write > 0 && write1h === write ? '1h' : '5m',
        cacheKnown: true,
        sidechain: record.isSidechain === true,
      };
      if (key !== undefined) byKey.set(key, call);
      order.push(call);
    },
    calls: () => order,
  };
}

interface CodexTotals {
  input: number;
  cached: number;
  output: number;
}

function codexTotals(usage: JsonObject | undefined): CodexTotals | undefined {
  if (!usage) return undefined;
  return { input: count(usage, 'input_tokens'), cached: count(usage, 'cached_input_tokens'), output: count(usage, 'output_tokens') };
}

/** OpenAI counts cached tokens inside input_tokens (and reasoning inside output_tokens). */
function codexUsage(t: CodexTotals): CacheUsage {
  const read = Math.min(t.cached, t.input);
  return { inputTokens: t.input, uncachedInputTokens: t.input - read, cacheReadTokens: read, cacheWriteTokens: 0, outputTokens: t.output };
}

/** Codex: a call per change of the cumulative total; `info: null` events carry only rate limits. */
export function codexCollector(): CallCollector {
  const calls: CacheCall[] = [];
  let model: string | undefined;
  let total: CodexTotals | undefined;
  return {
    add(record) {
      const payload = obj(record.payload);
      if (!payload) return;
      if (record.type === 'turn_context') {
        model = str(payload.model) ?? model;
        return;
      }
      if (record.type !== 'event_msg' || payload.type !== 'token_count') return;
      const info = obj(payload.info);
      const next = codexTotals(obj(info?.total_token_usage));
      const at = timeOf(record.timestamp);
      if (!info || !next || at === undefined) return;
      if (total && next.input === total.input && next.cached === total.cached && next.output === total.output) return;
      const last =
        codexTotals(obj(info.last_token_usage)) ??
        (total ? { input: next.input - total.input, cached: next.cached - total.cached, output: next.output - total.output } : next);
      total = next;
      calls.push({ at, model, usage: codexUsage(last), cacheWrite1hTokens: 0, ttl: 'implicit', cacheKnown: true, sidechain: false });
    },
    calls: () => calls,
    reportedTotal: () => (total ? codexUsage(total) : undefined),
  };
}

/**
 * Copilot Chat: one call per request of the session data (a `.json` snapshot, or the state a
 * `.jsonl` log replays to); the prompt size is known where the request's result metadata has it.
 */
export function copilotChatCalls(data: JsonObject): CacheCall[] {
  const calls: CacheCall[] = [];
  for (const request of Array.isArray(data.requests) ? data.requests : []) {
    if (!isObject(request)) continue;
    const result = obj(request.result);
    const metadata = obj(result?.metadata);
    const started = timeOf(request.timestamp);
    if (started === undefined) continue;
    const elapsed = count(obj(result?.timings), 'totalElapsed');
    const input = count(metadata, 'promptTokens');
    calls.push({
      at: started + elapsed,
      model: (str(metadata?.resolvedModel) ?? str(request.modelId))?.replace(/^copilot\//, ''),
      usage: {
        inputTokens: input,
        uncachedInputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: count(metadata, 'outputTokens'),
      },
      cacheWrite1hTokens: 0,
      ttl: 'unknown',
      cacheKnown: false,
      sidechain: false,
    });
  }
  return calls;
}
