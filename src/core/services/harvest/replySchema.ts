/**
 * The harvest reply, defined once with zod: the shape the prompt asks for (sent as JSON Schema to
 * providers with structured output) and the tolerant reading parseReply applies to what comes
 * back (a bare string for a statement, read before the schema applies; `steps` as a list, a
 * missing `detail`, extra fields), as nagent reads it. Required on first use, like the store's
 * schemas: zod is a large share of start-up.
 */
import { z } from 'zod';
import { ITEM_CATEGORIES } from '../../model/categories';
import type { ReplySchema } from '../providers/provider';

/** How an item relates to the existing items the prompt lists: "" and [] when it does not. */
const relations = {
  same_as: z.string().describe('the id of an existing item that says the same, or ""'),
  supersedes: z.array(z.string()).describe('ids of existing items this one updates or contradicts'),
};
/** A statement as asked for: `detail` always present, "" when not needed (strict structured output wants every field). */
const statementItem = z.object({ statement: z.string(), detail: z.string(), ...relations });
const playbookItem = z.object({ name: z.string(), steps: z.string().describe('the steps, joined with " -> "'), ...relations });
const fileNoteItem = z.object({ path: z.string().describe('the file, as written in the conversation'), note: z.string(), ...relations });
/** Relations as the reply cache keeps them (read, validated ids only). */
const cachedRelations = { sameAs: z.string().optional(), supersedes: z.array(z.string()).optional() };
const cachedStatement = z.object({ statement: z.string(), detail: z.string().optional(), ...cachedRelations });

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
export const memoReplySchema = z.object({
  items: z.object({
    facts: z.array(cachedStatement),
    decisions: z.array(cachedStatement),
    tasks_done: z.array(cachedStatement),
    tasks_open: z.array(cachedStatement),
    questions: z.array(cachedStatement),
    playbooks: z.array(z.object({ name: z.string(), steps: z.string(), ...cachedRelations })),
    files: z.array(z.object({ path: z.string(), note: z.string(), ...cachedRelations })),
  }),
  summarized: z.boolean(),
  id: z.string(),
  at: z.string(),
});

/** How an item is read back: what was asked for, or the near misses models produce and nagent accepts. */
const looseRelations = { same_as: z.unknown().optional(), supersedes: z.unknown().optional() };
export const itemReaders = {
  statement: statementItem.extend({ detail: z.unknown().optional(), ...looseRelations }).loose(),
  playbook: playbookItem.extend({ steps: z.union([z.string(), z.array(z.unknown())]), ...looseRelations }).loose(),
  file: fileNoteItem.extend(looseRelations).loose(),
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
