/**
 * The shape a ledger.json must have before Lore trusts it. Checked when the ledger is read, so a
 * hand-edited or hostile file stops a harvest before any knowledge is written, rather than
 * failing half-way (a wrong type deep in an entry, or nesting deep enough to overflow the stack
 * of the recursive key sort when the ledger is written back).
 */
import { z } from 'zod';
import { describeSchemaIssue } from '../base/schemaIssue';
import { LEDGER_STATUSES, type Ledger } from './ledgerFormat';

/** Deeper than this is not a ledger: a real one is four levels deep (root, entries, entry, items). */
export const LEDGER_MAX_DEPTH = 32;

// Loose objects: fields a newer Lore (or nagent) adds are kept when the ledger is written back.
const ledgerEntrySchema = z.looseObject({
  path: z.string(),
  status: z.enum(LEDGER_STATUSES),
  at: z.string(),
  deleted: z.boolean(),
  items: z.record(z.string(), z.number().int().nonnegative()).optional(),
  error: z.string().optional(),
  archived: z.string().optional(),
  id: z.string().optional(),
  title: z.string().optional(),
  transcript: z.string().optional(),
});

const tombstonesSchema = z.looseObject({
  conversations: z.record(z.string(), z.looseObject({ at: z.string(), sha256: z.array(z.string()) })),
  items: z.record(
    z.string(),
    z.looseObject({ at: z.string(), hash: z.string(), same: z.string().optional(), from: z.string().optional() }),
  ),
});

const ledgerSchema = z.looseObject({ entries: z.record(z.string(), ledgerEntrySchema), forgotten: tombstonesSchema.optional() });

/** The depth of nested objects and arrays in `value`, counted without recursion (stops past `limit`). */
function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (!item || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** The parsed JSON as a Ledger, or what is wrong with it (one short line). */
export function validateLedger(raw: unknown): { ledger: Ledger } | { problem: string } {
  if (nestingDepth(raw, LEDGER_MAX_DEPTH) > LEDGER_MAX_DEPTH) return { problem: `nested deeper than ${LEDGER_MAX_DEPTH} levels` };
  const result = ledgerSchema.safeParse(raw);
  if (result.success) return { ledger: result.data as Ledger };
  return { problem: `${describeSchemaIssue(result.error)}; expected {"entries": {sha256: {path, status, at, deleted, …}}}` };
}
