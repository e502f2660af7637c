/**
 * The zod schema of the queued entries `lore hook` leaves in the store. Loaded on first use (zod
 * is a large share of the CLI's start-up). The hook's stdin is checked by hand in hookInput.ts:
 * it is read before every prompt, where loading zod would cost more than the rest of the work.
 */
import { z } from 'zod';

/** Paths and ids longer than this are not what a tool sends. */
const MAX_FIELD_CHARS = 4096;
const field = z.string().min(1).max(MAX_FIELD_CHARS);

const queuedSessionSchema = z.object({
  sessionId: field,
  transcript: field,
  cwd: field,
  event: field,
  at: field,
});

/** A session queued for the next harvest: its transcript stays where the tool keeps it. */
export type QueuedSession = z.infer<typeof queuedSessionSchema>;

/** A queued entry from disk, or undefined when it is not one. */
export function parseQueuedSession(text: string): QueuedSession | undefined {
  try {
    const result = queuedSessionSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
