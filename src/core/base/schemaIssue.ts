/**
 * One way to say what is wrong with data a zod schema refused: the field's path and zod's
 * message, so an error names the file (the caller's part) and the field (this part).
 */
import type { ZodError } from 'zod';

/** `entries.ab12.status: Invalid option: expected one of "done"|"failed"` (the first issue only). */
export function describeSchemaIssue(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length ? issue.path.map(String).join('.') : 'the top level';
  return `${where}: ${issue.message}`;
}

/** The top-level keys the issues are about (to drop just those and keep the rest). */
export function topLevelKeysOf(error: ZodError): Set<string> {
  return new Set(error.issues.filter((i) => i.path.length > 0).map((i) => String(i.path[0])));
}
