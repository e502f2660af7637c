/**
 * The `lifecycle` part of `<store>/config.json`: how fast unused items decay and how many items
 * each category should hold. Its own schema beside the store's (configSchema.ts), read only by the
 * lifecycle commands, so the hook and the harvest never load it.
 *
 *     "lifecycle": { "halfLifeDays": 30, "archiveBelow": 0.25, "keep": ["decisions", "playbooks"],
 *                    "budgets": { "facts": 300, "tasks": 200 } }
 */
import { z } from 'zod';
import { DIGEST_MAX_BYTES } from '../../model/constants';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import type { StorePaths } from '../storePaths';
import { describeSchemaIssue } from '../../base/schemaIssue';
import { readStoreFile } from '../../base/readText';

const CATEGORY_KEYS = Object.keys(CATEGORY_FILES) as CategoryFileKey[];

export interface LifecycleConfig {
  /** Days after which an unused, unedited item weighs half as much. */
  halfLifeDays: number;
  /** Items whose weight fell below this are proposed for the archive (0.25: two half-lives unused). */
  archiveBelow: number;
  /** Categories whose items never decay unless superseded. */
  keep: CategoryFileKey[];
  /** Items each category should hold at most; over it, the lightest items past one half-life go first. */
  budgets: Record<CategoryFileKey, number>;
  /** The digest's size in UTF-8 bytes (Lore's fixed 4 KB cap, shown beside the categories). */
  digestBytes: number;
}

export const DEFAULT_LIFECYCLE: LifecycleConfig = {
  halfLifeDays: 30,
  archiveBelow: 0.25,
  keep: ['decisions', 'playbooks'],
  budgets: { facts: 300, decisions: 200, questions: 100, playbooks: 100, tasks: 200 },
  digestBytes: DIGEST_MAX_BYTES,
};

const count = z.number().int().min(1).max(1_000_000);
const schema = z.looseObject({
  lifecycle: z
    .looseObject({
      halfLifeDays: z.number().min(1).max(3650).optional(),
      archiveBelow: z.number().gt(0).lt(1).optional(),
      keep: z.array(z.enum(CATEGORY_KEYS as [CategoryFileKey, ...CategoryFileKey[]])).optional(),
      budgets: z
        .looseObject(
          Object.fromEntries(CATEGORY_KEYS.map((k) => [k, count.optional()])) as Record<CategoryFileKey, z.ZodOptional<typeof count>>,
        )
        .optional(),
    })
    .optional(),
});

/** The lifecycle settings of a store: defaults for what config.json does not say, or says wrongly (then `problem` names it). */
export function loadLifecycleConfig(paths: StorePaths): { config: LifecycleConfig; problem?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readStoreFile(paths.config, 'utf8').replace(/^\ufeff/, ''));
  } catch {
    return { config: structuredClone(DEFAULT_LIFECYCLE) }; // No config, or one the store's own loader reports.
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    return {
      config: structuredClone(DEFAULT_LIFECYCLE),
      problem: `${paths.config}: ${describeSchemaIssue(parsed.error)}; the lifecycle defaults are used`,
    };
  const given = parsed.data.lifecycle ?? {};
  const budgets = { ...DEFAULT_LIFECYCLE.budgets };
  for (const key of CATEGORY_KEYS) budgets[key] = given.budgets?.[key] ?? budgets[key];
  return {
    config: {
      halfLifeDays: given.halfLifeDays ?? DEFAULT_LIFECYCLE.halfLifeDays,
      archiveBelow: given.archiveBelow ?? DEFAULT_LIFECYCLE.archiveBelow,
      keep: given.keep ?? [...DEFAULT_LIFECYCLE.keep],
      budgets,
      digestBytes: DIGEST_MAX_BYTES,
    },
  };
}
