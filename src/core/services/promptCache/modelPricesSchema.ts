/**
 * The shape of modelPrices.json, checked when the table is first read (see modelPrices.ts, which
 * loads this module, and zod with it, only then). Imported the way every other schema imports
 * zod, so each bundle holds one copy of it.
 */
import { z } from 'zod';

const price = z.number().finite().nonnegative();

/** modelPrices.json: USD per million tokens, one dated row per model family. */
export const modelPricesSchema = z.object({
  currency: z.literal('USD'),
  models: z.array(
    z.object({
      ids: z.array(z.string().min(1)).min(1),
      label: z.string(),
      input: price,
      cacheWrite5m: price.optional(),
      cacheWrite1h: price.optional(),
      cacheRead: price,
      output: price,
      source: z.string().min(1),
      checked: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    }),
  ),
});
