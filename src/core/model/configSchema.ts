/**
 * The shape of `<store>/config.json`. Loaded on first use (zod is a large share of the CLI's
 * start-up). Unknown keys are allowed: a newer Lore may add some, and a person may keep notes.
 */
import { z } from 'zod';
import { describeSchemaIssue, topLevelKeysOf } from '../base/schemaIssue';
import {
  AGENT_WRITES_MODES,
  BUDGET_CAP_KEYS,
  DEFAULT_GIT_HISTORY,
  DEFAULT_SOURCE_SWITCHES,
  DEFAULT_STORE_CONFIG,
  GIT_COMMIT_MODES,
  RECLAIM_MODES,
  type BudgetConfig,
  type StoreConfig,
} from './storeConfigFormat';

const reclaim = z.enum(RECLAIM_MODES);

/** A list price: USD per million tokens. */
const usdPerMillion = z.number().finite().nonnegative().max(10_000);

const configSchema = z.looseObject({
  reclaim: reclaim.optional(),
  harvest: z.looseObject({ reclaim: reclaim.optional() }).optional(),
  digestEnabled: z.boolean().optional(),
  digest: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  transcripts: z.boolean().optional(),
  agentWrites: z.enum(AGENT_WRITES_MODES).optional(),
  privateMarkers: z.object({ open: z.string().trim().min(1).max(100), close: z.string().trim().min(1).max(100) }).optional(),
  context: z.looseObject({ budgetTokens: z.number().int().min(256).max(2_000_000).optional() }).optional(),
  git: z
    .looseObject({
      commit: z.enum(GIT_COMMIT_MODES).optional(),
      intervalMinutes: z
        .number()
        .min(1)
        .max(7 * 24 * 60)
        .optional(),
      dailyTags: z.boolean().optional(),
    })
    .optional(),
  budget: z
    .looseObject({
      ...Object.fromEntries(BUDGET_CAP_KEYS.map((key) => [key, z.number().finite().nonnegative().optional()])),
      prices: z
        .record(
          z.string().trim().min(1).max(200),
          z.object({ input: usdPerMillion, output: usdPerMillion, cacheRead: usdPerMillion.optional() }),
        )
        .optional(),
    })
    .optional(),
  sources: z
    .looseObject({
      inbox: z.boolean().optional(),
      claudeCode: z.boolean().optional(),
      codex: z.boolean().optional(),
      aider: z.boolean().optional(),
    })
    .optional(),
});

/**
 * The config from parsed JSON. A field that is wrong is named in `problem` (the first one) and
 * `dropped` (every top-level key left out) and left at its default; the other fields still
 * apply (one typo does not undo every setting).
 */
export function checkStoreConfig(raw: unknown): { config: StoreConfig; problem?: string; dropped?: string[] } {
  let result = configSchema.safeParse(raw);
  let problem: string | undefined;
  let dropped: string[] | undefined;
  if (!result.success) {
    problem = describeSchemaIssue(result.error);
    const bad = topLevelKeysOf(result.error);
    dropped = [...bad];
    const kept =
      raw && typeof raw === 'object' && !Array.isArray(raw) ? Object.fromEntries(Object.entries(raw).filter(([key]) => !bad.has(key))) : {};
    result = configSchema.safeParse(kept);
    if (!result.success) return { config: { ...DEFAULT_STORE_CONFIG }, problem, dropped };
  }
  const data = result.data;
  return {
    config: {
      reclaim: data.reclaim ?? data.harvest?.reclaim ?? DEFAULT_STORE_CONFIG.reclaim,
      digestEnabled: data.digestEnabled ?? data.digest?.enabled ?? DEFAULT_STORE_CONFIG.digestEnabled,
      transcripts: data.transcripts ?? DEFAULT_STORE_CONFIG.transcripts,
      agentWrites: data.agentWrites ?? DEFAULT_STORE_CONFIG.agentWrites,
      ...(data.privateMarkers ? { privateMarkers: data.privateMarkers } : {}),
      ...(data.context?.budgetTokens !== undefined ? { contextBudgetTokens: data.context.budgetTokens } : {}),
      git: {
        ...(data.git?.commit ? { commit: data.git.commit } : {}),
        intervalMinutes: data.git?.intervalMinutes ?? DEFAULT_GIT_HISTORY.intervalMinutes,
        dailyTags: data.git?.dailyTags ?? DEFAULT_GIT_HISTORY.dailyTags,
      },
      sources: {
        inbox: data.sources?.inbox ?? DEFAULT_SOURCE_SWITCHES.inbox,
        claudeCode: data.sources?.claudeCode ?? DEFAULT_SOURCE_SWITCHES.claudeCode,
        codex: data.sources?.codex ?? DEFAULT_SOURCE_SWITCHES.codex,
        aider: data.sources?.aider ?? DEFAULT_SOURCE_SWITCHES.aider,
      },
      ...(data.budget ? { budget: budgetOf(data.budget) } : {}),
    },
    problem,
    ...(dropped ? { dropped } : {}),
  };
}

/** The caps and prices of a checked `budget` section, without the keys it does not know. */
function budgetOf(raw: Record<string, unknown>): BudgetConfig {
  const budget: BudgetConfig = {};
  for (const key of BUDGET_CAP_KEYS) if (typeof raw[key] === 'number') budget[key] = raw[key];
  if (raw.prices) budget.prices = raw.prices as BudgetConfig['prices'];
  return budget;
}
