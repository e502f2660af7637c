/**
 * The checks the server makes on what its client sends: a request's params against the schema
 * its declaration gives (src/shared/declareMessage.ts; handleMessage.ts calls this before any
 * handler), and the initialization options. A request that does not fit is answered with
 * InvalidParams naming the method and the field, and nothing is read or written.
 */
import { z } from 'zod';
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import type { LoreInitializationOptions } from '../shared/protocol';
import { describeSchemaIssue } from '../core/base/schemaIssue';

// A path is at most PATH_MAX-ish.
const filePath = z.string().min(1).max(4096);

const initializationOptionsSchema = z
  .looseObject({
    storeRoot: filePath,
    workspaceRoot: filePath,
    // An unknown value (an older Lore's `sqlite` or `minisearch`) means the default, not a failed start.
    searchBackend: z.enum(['auto', 'memory']).optional().catch(undefined),
    gitCommit: z.enum(['off', 'apply', 'interval']).optional(),
    workspaceTrusted: z.boolean().optional(),
  })
  .partial() satisfies z.ZodType<Partial<LoreInitializationOptions>>;

/** The params as the schema reads them, or a ResponseError (InvalidParams) saying which field is wrong. */
export function checkParams<T>(method: string, schema: z.ZodType<T>, params: unknown): T {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  throw new ResponseError(ErrorCodes.InvalidParams, `${method}: ${describeSchemaIssue(result.error)}`);
}

/** The initialization options, or none with a log line when the client sent something else. */
export function checkInitializationOptions(raw: unknown, log: (message: string) => void): Partial<LoreInitializationOptions> {
  if (raw === undefined || raw === null) return {};
  const result = initializationOptionsSchema.safeParse(raw);
  if (result.success) return result.data;
  log(`initializationOptions ignored: ${describeSchemaIssue(result.error)}`);
  return {};
}
