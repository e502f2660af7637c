/** The zod schema of `.cache/topic-gates.json`. Loaded on first use (zod is a large share of the CLI's start-up). */
import { z } from 'zod';

export const gateMemoSchema = z.object({ version: z.literal(1), answers: z.record(z.string(), z.boolean()) });
