/**
 * Distilling one conversation with a model: summarize first when the transcript is large,
 * then ask for the 7-category JSON, parse it strictly, and retry once with the retry suffix.
 * Provider errors (unreachable, timeout, rate limit) are not retried here; the SDKs retry the
 * transient ones and the ledger records the rest as `harvest-failed`.
 */
import { HARVEST_MAX_ATTEMPTS, RETRY_SUFFIX, SUMMARIZE_THRESHOLD_BYTES } from '../../model/constants';
import type { Conversation } from '../../model/conversation';
import { renderTranscript } from '../conversations/renderTranscript';
import { redactSecrets } from '../../model/safety/redact';
import { maskLocalPaths, type LocalPaths } from '../../model/safety/localPaths';
import type { HarvestItems } from '../../model/categories';
import type { ModelRequest, Provider, TokenUsage } from '../providers/provider';
import { HarvestReplyError, parseHarvestReply } from './parseReply';
import { chunkTranscript } from './transcriptChunks';
import { lazy } from '../../base/lazy';

const replySchemaModule = lazy(() => require('./replySchema') as typeof import('./replySchema'));

export interface DistillOptions {
  provider: Provider;
  harvestPrompt: string;
  summarizePrompt: string;
  model?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * The block of existing items shown to the model before the conversation (existingItems.ts),
   * chosen from what the model reads (the transcript, or its summary); none when undefined.
   */
  existingItems?: (input: string) => string;
  /**
   * The home folder and workspace, hidden from the provider in all it is sent (localPaths.ts):
   * the conversation's own folder is added. None for the offline extractor, which sends nothing.
   */
  localPaths?: Omit<LocalPaths, 'cwd'>;
}

export interface DistillResult {
  items: HarvestItems;
  /** Model calls made (summaries and harvest attempts). */
  calls: number;
  summarized: boolean;
  dropped: number;
  /** Why items were dropped, naming the field (see parseHarvestReply). */
  problems: string[];
  usage: TokenUsage;
}

class HarvestInvalidError extends Error {
  constructor(attempts: number, lastError: string) {
    super(`harvest output invalid after ${attempts} attempts: ${lastError}`);
    this.name = 'HarvestInvalidError';
  }
}

function addUsage(total: TokenUsage, usage: TokenUsage | undefined): void {
  if (!usage) return;
  for (const key of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const) {
    if (usage[key] !== undefined) total[key] = (total[key] ?? 0) + usage[key]!;
  }
}

/** `text` with the home folder, the workspace and the folder the conversation ran in hidden, when asked. */
function hideLocalPaths(text: string, conversation: Conversation, options: DistillOptions): string {
  return options.localPaths ? maskLocalPaths(text, { ...options.localPaths, cwd: conversation.cwd }) : text;
}

/** The text the harvest prompt is applied to: the transcript, or a summary of it when large. */
async function harvestInput(conversation: Conversation, options: DistillOptions, result: DistillResult): Promise<string> {
  // Secrets in a conversation never reach the model provider either, nor the person's folders.
  const transcript = hideLocalPaths(redactSecrets(renderTranscript(conversation)), conversation, options);
  if (Buffer.byteLength(transcript, 'utf8') <= SUMMARIZE_THRESHOLD_BYTES) return transcript;
  result.summarized = true;
  const parts: string[] = [];
  const chunks = chunkTranscript(transcript);
  for (let i = 0; i < chunks.length; i++) {
    const reply = await options.provider.generate({
      task: 'summarize',
      instructions: options.summarizePrompt,
      content: `Conversation: ${conversation.id} (part ${i + 1} of ${chunks.length})\n\n${chunks[i]}`,
      model: options.model,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    result.calls++;
    addUsage(result.usage, reply.usage);
    parts.push(reply.text.trim());
  }
  return `Summary of a long conversation (${chunks.length} parts)\n\n${parts.join('\n\n')}\n`;
}

/** Distills one conversation into validated harvest items, or throws. */
export async function distillConversation(conversation: Conversation, options: DistillOptions): Promise<DistillResult> {
  const result: DistillResult = {
    items: undefined as unknown as HarvestItems,
    calls: 0,
    summarized: false,
    dropped: 0,
    problems: [],
    usage: {},
  };
  const input = await harvestInput(conversation, options, result);
  const existing = hideLocalPaths(options.existingItems?.(input) ?? '', conversation, options);
  let lastError = '';
  for (let attempt = 0; attempt < HARVEST_MAX_ATTEMPTS; attempt++) {
    const request: ModelRequest = {
      task: 'harvest',
      instructions: options.harvestPrompt,
      content: `${existing}Conversation: ${conversation.id}\n\n${input}`,
      suffix: attempt > 0 ? RETRY_SUFFIX : undefined,
      model: options.model,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      // Providers with structured output are held to the shape the prompt asks for.
      replySchema: replySchemaModule().HARVEST_REPLY_SCHEMA,
    };
    const reply = await options.provider.generate(request);
    result.calls++;
    addUsage(result.usage, reply.usage);
    try {
      const parsed = parseHarvestReply(reply.text);
      result.items = parsed.items;
      result.dropped = parsed.dropped;
      result.problems = parsed.problems;
      return result;
    } catch (error) {
      if (!(error instanceof HarvestReplyError)) throw error;
      lastError = error.message;
    }
  }
  throw new HarvestInvalidError(HARVEST_MAX_ATTEMPTS, lastError);
}
