/**
 * `lore tidy --provider …`: a model's judgment on top of the lexical rules. Items of one file are
 * shown to the model numbered, oldest first, in batches; it answers which say the same thing and
 * which newer item supersedes an older one (prompts/tidy-items.md, the store's copy wins). The
 * answer is read strictly (zod): numbers outside the batch, an "old" item newer than its "new"
 * one, and anything else malformed are dropped, so a reply can only narrow what it names.
 * Item text is redacted and its local paths hidden (localPaths.ts) before it is sent, like a
 * conversation.
 */
import { z } from 'zod';
import { loadPrompt } from '../harvest/prompts';
import type { Provider } from '../providers/provider';
import { redactSecrets } from '../../model/safety/redact';
import { maskLocalPaths, type LocalPaths } from '../../model/safety/localPaths';
import type { StorePaths } from '../../store/storePaths';
import { cutToLine } from '../../model/format';
import type { TidyItem, Judged } from './tidyProposals';

export const TIDY_PROMPT = 'tidy-items.md';

/** Items per request: enough for the model to see related items together, few enough to read closely. */
const BATCH = 120;
/** Characters of an item's text sent. */
const ITEM_CHARS = 300;

const replySchema = z.object({
  same: z.array(z.array(z.number().int())).default([]),
  supersedes: z.array(z.object({ old: z.number().int(), new: z.number().int() })).default([]),
});

/** The JSON Schema a provider with structured output is held to. */
const REPLY_SCHEMA = {
  name: 'tidy_reply',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['same', 'supersedes'],
    properties: {
      same: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
      supersedes: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['old', 'new'],
          properties: { old: { type: 'integer' }, new: { type: 'integer' } },
        },
      },
    },
  },
};

/** The reply's JSON (a ```json fence tolerated), or undefined. */
function replyJson(text: string): unknown {
  const body = text.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/i, '$1');
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Reads one batch's reply into judged pairs (ids), dropping what does not fit. */
export function readJudgment(text: string, batch: readonly TidyItem[]): Judged {
  const parsed = replySchema.safeParse(replyJson(text));
  const judged: Judged = { same: [], supersedes: [] };
  if (!parsed.success) return judged;
  const at = (n: number) => (n >= 1 && n <= batch.length ? batch[n - 1] : undefined);
  for (const group of parsed.data.same) {
    const items = [...new Set(group)].map(at).filter((i): i is TidyItem => i !== undefined && i.group === at(group[0])?.group);
    for (let k = 1; k < items.length; k++) judged.same.push([items[0].id, items[k].id]);
  }
  for (const { old, new: by } of parsed.data.supersedes) {
    const [o, n] = [at(old), at(by)];
    if (!o || !n || o === n || n.date < o.date) continue;
    judged.supersedes.push({ old: o.id, by: n.id });
  }
  return judged;
}

/** Asks the model about the items of one file, batch by batch. */
export async function judgeItems(
  paths: StorePaths,
  provider: Provider,
  items: readonly TidyItem[],
  options: { model?: string; timeoutMs?: number; signal?: AbortSignal; localPaths?: LocalPaths } = {},
): Promise<Judged> {
  const instructions = loadPrompt(paths, TIDY_PROMPT).text;
  const sorted = [...items].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.line - b.line));
  const judged: Judged = { same: [], supersedes: [] };
  for (let start = 0; start < sorted.length; start += BATCH) {
    const batch = sorted.slice(start, start + BATCH);
    if (batch.length < 2) break;
    const content = batch
      .map((item, i) => `${i + 1}. [${item.date}] ${cutToLine(maskLocalPaths(redactSecrets(item.text), options.localPaths), ITEM_CHARS)}`)
      .join('\n');
    const reply = await provider.generate({
      task: 'tidy',
      instructions,
      content: `Items (data):\n${content}\n`,
      model: options.model,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      replySchema: REPLY_SCHEMA,
    });
    const part = readJudgment(reply.text, batch);
    judged.same.push(...part.same);
    judged.supersedes.push(...part.supersedes);
  }
  return judged;
}
