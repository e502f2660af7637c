/** The shape of `.logs/history.json` (storeHistory.ts): changes waiting for a commit, and the last commit. */
import { z } from 'zod';

export const historyStateSchema = z.object({
  pending: z.array(
    z.object({
      type: z.enum(['memory', 'conversation', 'maintenance', 'extract']),
      subject: z.string(),
      body: z.array(z.string()).optional(),
      paths: z.array(z.string()).optional(),
      at: z.string(),
    }),
  ),
  lastCommit: z.object({ commit: z.string(), at: z.string() }).optional(),
});

export type HistoryState = z.infer<typeof historyStateSchema>;
