/**
 * The one step every derived text an agent reads goes through (digest.md, the instruction-file
 * block): secrets redacted (a person may have typed a key into a category file by hand, or an
 * older Lore wrote the file) and invisible characters stripped (a planted instruction can hide in
 * them). The person's own files keep what they wrote.
 */
import { stripInvisible } from './invisibleChars';
import { redactSecrets } from './redact';

/** `text` as an agent may read it: no secret, no invisible character. */
export function agentText(text: string): string {
  return stripInvisible(redactSecrets(text));
}
