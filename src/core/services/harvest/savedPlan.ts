/**
 * A previewed harvest saved to a file (`lore harvest --preview --save-plan F`) and read back to
 * be applied later (`--apply-plan F`) without a second model call. The file is data from disk:
 * it is parsed with a schema into an error that names the file and the field, and applying it
 * still goes through the preview's checks (applyPreviewed.ts).
 */
import { z } from 'zod';
import { redactSecrets } from '../../model/safety/redact';
import { LEDGER_STATUSES } from '../../model/ledgerFormat';
import { validateLedger } from '../../model/ledgerSchema';
import { ITEM_CATEGORIES } from '../../model/categories';
import { INSTRUCTION_FLAG_KINDS } from '../../model/safety/instructionFlags';
import { describeSchemaIssue } from '../../base/schemaIssue';
import { dryRunTotals } from './classify';
import { CONVERSATION_CLASSES, type HarvestPlan } from '../../store/harvestPlan';
import type { HarvestReport } from './runHarvest';

const FORMAT = 'lore-harvest-plan';
const VERSION = 1;

const itemCounts = z.object(
  Object.fromEntries(ITEM_CATEGORIES.map((c) => [c, z.number().int().nonnegative()])) as Record<
    (typeof ITEM_CATEGORIES)[number],
    z.ZodNumber
  >,
);
const ledgerEntry = z.object({
  path: z.string(),
  status: z.enum(LEDGER_STATUSES),
  at: z.string(),
  deleted: z.boolean(),
  items: itemCounts.optional(),
  error: z.string().optional(),
  archived: z.string().optional(),
  id: z.string().optional(),
  title: z.string().optional(),
  transcript: z.string().optional(),
});
const reviewTarget = z.object({ file: z.string(), section: z.enum(['open', 'done']).optional(), notedPath: z.string().optional() });
const lines = z.array(z.string());
const provenance = z.object({ source: z.string(), date: z.string() });
const itemOp = z.discriminatedUnion('op', [
  z.object({ op: z.literal('merge'), keep: z.string(), sources: z.array(provenance), drop: z.array(z.string()) }),
  z.object({ op: z.literal('supersede'), old: z.string(), by: z.string(), date: z.string() }),
]);
const singleEdit = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('append'), title: z.string(), lines }),
  z.object({ kind: z.literal('tasks'), open: lines, done: lines }),
  z.object({
    kind: z.literal('notes'),
    meta: z.object({ path: z.string(), id: z.string().default(''), size: z.number(), fingerprint: z.string() }),
    lines,
  }),
  z.object({ kind: z.literal('review'), items: z.array(z.object({ target: reviewTarget, line: z.string(), kinds: z.array(z.string()) })) }),
  z.object({ kind: z.literal('items'), ops: z.array(itemOp) }),
]);
// A chain holds single edits only (a plan never nests chains), so the schema needs no recursion.
const planEdit = z.union([singleEdit, z.object({ kind: z.literal('chain'), edits: z.array(singleEdit) })]);
const outcome = z.object({
  path: z.string(),
  inInbox: z.boolean(),
  assembled: z.literal(true).optional(),
  sha256: z.string(),
  bytes: z.number().nonnegative(),
  mtimeMs: z.number(),
  class: z.enum(CONVERSATION_CLASSES),
  // What the model reads, so an applied plan reports the same budgets as its preview.
  turns: z.number().int().nonnegative().optional(),
  renderedBytes: z.number().nonnegative().optional(),
  started: z.string().optional(),
  title: z.string().optional(),
  ledger: ledgerEntry.optional(),
  sameAs: z.string().optional(),
  reason: z.string().optional(),
  id: z.string().optional(),
  status: z.enum(LEDGER_STATUSES).optional(),
  items: itemCounts.optional(),
  error: z.string().optional(),
  calls: z.number().optional(),
  summarized: z.boolean().optional(),
  reclaim: z.enum(['delete', 'archive']).optional(),
  archiveTo: z.string().optional(),
});
const plan = z.object({
  changes: z.array(
    z.object({
      file: z.string(),
      before: z.string().optional(),
      after: z.string().optional(),
      added: z.number().int().nonnegative(),
      edit: planEdit.optional(),
    }),
  ),
  // Checked by the ledger's own schema below (and its nesting limit).
  ledger: z.unknown(),
  outcomes: z.array(outcome),
  items: itemCounts,
  orphanNotes: z.number().int().nonnegative(),
  digestEnabled: z.boolean(),
  held: z.array(z.object({ target: reviewTarget, line: z.string(), kinds: z.array(z.enum(INSTRUCTION_FLAG_KINDS)) })),
  ledgerSha256: z.string(),
  // Absent in plans saved before Lore kept transcripts, and when it keeps none.
  transcripts: z.array(z.object({ file: z.string(), sha256: z.string(), text: z.string() })).optional(),
  duplicates: z.object({ folded: z.number().int().nonnegative(), merged: z.number().int().nonnegative() }).optional(),
  relations: z
    .object({
      merged: z.array(
        z.object({ id: z.string(), file: z.string(), line: z.string(), source: z.string(), same: z.literal('statement').optional() }),
      ),
      superseded: z.array(z.object({ id: z.string(), file: z.string(), by: z.string(), line: z.string() })),
    })
    .optional(),
});
const savedPlan = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  store: z.string(),
  provider: z.string(),
  sources: z.array(z.string()),
  createdAt: z.string(),
  plan,
});

/** Thrown for a plan file that is not one Lore wrote (or was edited into something else). */
class SavedPlanError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file} is not a Lore harvest plan (${problem})`);
    this.name = 'SavedPlanError';
  }
}

/** The preview report as the text of a plan file. */
export function serializePlan(report: HarvestReport, now = new Date()): string {
  if (!report.plan) throw new Error('this harvest report has no plan to save');
  const saved = {
    format: FORMAT,
    version: VERSION,
    store: report.store,
    provider: report.provider,
    sources: report.sources,
    createdAt: now.toISOString(),
    plan: report.plan,
  };
  return JSON.stringify(saved, null, 1) + '\n';
}

/** The preview report saved in `text` (read from `file`, named in errors). */
export function parsePlan(text: string, file: string): HarvestReport {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SavedPlanError(file, (error as Error).message);
  }
  return restorePlan(raw, file);
}

/**
 * A preview report handed over as data (the extension's pending plan, sent back to the language
 * server to apply), checked as a plan file is; `origin` names it in errors.
 */
export function previewFromData(report: unknown, origin: string): HarvestReport {
  const r = (report ?? {}) as Partial<HarvestReport>;
  return restorePlan(
    { format: FORMAT, version: VERSION, store: r.store, provider: r.provider, sources: r.sources, createdAt: '', plan: r.plan },
    origin,
  );
}

function restorePlan(raw: unknown, file: string): HarvestReport {
  const result = savedPlan.safeParse(raw);
  if (!result.success) throw new SavedPlanError(file, describeSchemaIssue(result.error));
  const ledger = validateLedger(result.data.plan.ledger);
  if ('problem' in ledger) throw new SavedPlanError(file, `plan.ledger: ${ledger.problem}`);
  const saved = result.data;
  const restored: HarvestPlan = { ...saved.plan, ledger: ledger.ledger };
  // Texts from disk go into the store as they are: secrets out of them, as of everything a harvest writes.
  if (restored.transcripts) restored.transcripts = restored.transcripts.map((t) => ({ ...t, text: redactSecrets(t.text) }));
  return {
    mode: 'preview',
    store: saved.store,
    provider: saved.provider,
    sources: saved.sources,
    conversations: restored.outcomes,
    totals: dryRunTotals(restored.outcomes),
    plan: restored,
    problems: [],
    warnings: [],
    failed: restored.outcomes.filter((o) => o.status === 'harvest-failed').length,
    modelCalls: 0,
    cancelled: false,
  };
}
