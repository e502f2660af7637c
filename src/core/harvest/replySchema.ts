/**
 * The harvest reply, defined once with zod: the shape the prompt asks for (sent as JSON Schema to
 * providers with structured output) and the tolerant reading parseReply applies to what comes
 * back (a bare string for a statement, read before the schema applies; `steps` as a list, a
 * missing `detail`, extra fields), as nagent reads it. Required on first use, like the store's
 * schemas: zod is a large share of start-up.
 */
import { z } from 'zod';
import { ITEM_CATEGORIES } from '../knowledge/categories';
import type { ReplySchema } from '../providers/provider';

/** A statement as asked for: `detail` always present, "" when not needed (strict structured output wants every field). */
const statementItem = z.object({ statement: z.string(), detail: z.string() });
const playbookItem = z.object({ name: z.string(), steps: z.string().describe('the steps, joined with " -> "') });
const fileNoteItem = z.object({ path: z.string().describe('the file, as written in the conversation'), note: z.string() });

/** The reply the prompt asks for: all seven categories, each a list. */
export const harvestReplySchema = z.object({
  facts: z.array(statementItem),
  decisions: z.array(statementItem),
  tasks_done: z.array(statementItem),
  tasks_open: z.array(statementItem),
  questions: z.array(statementItem),
  playbooks: z.array(playbookItem),
  files: z.array(fileNoteItem),
});
// A category added to categories.ts without one here fails type checking.
const _everyCategory: Record<(typeof ITEM_CATEGORIES)[number], unknown> = harvestReplySchema.shape;
void _everyCategory;

/** A reply as the reply cache keeps it (items already read, redacted, `detail` only when there is one). */
export const cachedReplySchema = z.object({
  items: z.object({
    facts: z.array(statementItem.partial({ detail: true })),
    decisions: z.array(statementItem.partial({ detail: true })),
    tasks_done: z.array(statementItem.partial({ detail: true })),
    tasks_open: z.array(statementItem.partial({ detail: true })),
    questions: z.array(statementItem.partial({ detail: true })),
    playbooks: z.array(playbookItem),
    files: z.array(fileNoteItem),
  }),
  summarized: z.boolean(),
  id: z.string(),
  at: z.string(),
});

/** How an item is read back: what was asked for, or the near misses models produce and nagent accepts. */
export const itemReaders = {
  statement: statementItem.extend({ detail: z.unknown().optional() }).loose(),
  playbook: playbookItem.extend({ steps: z.union([z.string(), z.array(z.unknown())]) }).loose(),
  file: fileNoteItem.loose(),
};

/** The reply schema as JSON Schema, for providers that constrain their output to one. */
export const HARVEST_REPLY_SCHEMA: ReplySchema = {
  name: 'harvest_reply',
  schema: jsonSchemaOf(harvestReplySchema),
};

/** JSON Schema of a zod schema, without the `$schema` marker some APIs refuse. */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  void _dialect;
  return rest;
}
