/** Bounds the protocol's schemas share (src/shared/declareMessage.ts builds them with zod on first use). */
import type { z } from 'zod';

/** A path is at most PATH_MAX-ish. */
export function filePath(zod: typeof z): z.ZodString {
  return zod.string().min(1).max(4096);
}
