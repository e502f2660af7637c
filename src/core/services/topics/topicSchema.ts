/**
 * The zod schema of a topic file's frontmatter (§2.2 of the Autopoiesis design). A trigger is one
 * of `pattern` (a regular expression), `keywords` (a list of words or phrases) or `glob` (file
 * paths the message or the agent's tool calls name), each with a `scope`. The design's long form
 * `{type: pattern, match: "…"}` is read too. Unknown top-level keys are allowed (`type: topic`,
 * notes of the author); unknown keys inside a trigger are not, so a typo does not silently
 * disable it.
 */
import { z } from 'zod';
import { MAX_PATTERN_CHARS } from './safeRegex';
import { DEFAULT_MAX_CONTEXT_KB, DEFAULT_SIMILARITY_THRESHOLD, TOPIC_ACTIVATIONS, TOPIC_PRIORITIES, TOPIC_SCOPES } from './topicTypes';

const scope = z.enum(TOPIC_SCOPES).default('input');

/** `{type: pattern, match: x}` → `{pattern: x}`; `{type: keywords, match: [..]}` → `{keywords: [..]}`. */
function longForm(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const { type, match, ...rest } = raw as Record<string, unknown>;
  if (type === 'pattern' || type === 'keywords' || type === 'glob')
    return { ...rest, [type]: match ?? (rest as Record<string, unknown>)[type] };
  return raw;
}

const trigger = z.preprocess(
  longForm,
  z.union(
    [
      z.strictObject({ pattern: z.string().min(1).max(MAX_PATTERN_CHARS), scope }),
      z.strictObject({ keywords: z.array(z.string().trim().min(1).max(100)).min(1).max(200), scope }),
      z.strictObject({ glob: z.string().min(1).max(300), scope }),
    ],
    { error: 'a trigger is {pattern: REGEX}, {keywords: [WORDS]} or {glob: PATHS}, each with an optional scope: input | output | both' },
  ),
);

export const topicFrontmatterSchema = z.looseObject({
  description: z.string().max(1000).optional(),
  triggers: z.array(trigger).max(50).default([]),
  similarity_threshold: z.number().min(0).max(1).default(DEFAULT_SIMILARITY_THRESHOLD),
  subscriptions: z.array(z.string().min(1).max(500)).max(20).default([]),
  activation: z.enum(TOPIC_ACTIVATIONS).default('auto'),
  priority: z.enum(TOPIC_PRIORITIES).default('medium'),
  max_context_kb: z.number().positive().max(64).default(DEFAULT_MAX_CONTEXT_KB),
});

export type TopicFrontmatter = z.infer<typeof topicFrontmatterSchema>;
