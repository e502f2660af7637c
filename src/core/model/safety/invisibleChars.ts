/**
 * Characters an agent reads but a person does not see: bidirectional overrides and isolates
 * (U+202A–202E, U+2066–2069) that make a line show other than it reads, zero-width characters
 * (U+200B–200F, U+2060–2064, U+FEFF) that split a word so no rule recognises it, tag characters
 * (U+E0000–E007F) that spell a whole hidden sentence, and every other control or format
 * character except tab and line breaks (LF, CR). A planted instruction can hide in them, so every text
 * Lore hands an agent (digest.md, the instruction-file block, hook contexts, `lore context`,
 * MCP replies) goes through stripInvisible, and the instruction rules read text without them.
 * The files a person edits keep them: what a person wrote is never changed behind their back.
 */

/** Cc and Cf characters other than tab, LF and CR, plus the whole tag block (most of it unassigned, so not Cf). */
const INVISIBLE = /(?![\t\n\r])[\p{Cc}\p{Cf}\u{E0000}-\u{E007F}]/gu;
const HAS_INVISIBLE = /(?![\t\n\r])[\p{Cc}\p{Cf}\u{E0000}-\u{E007F}]/u;

/** `text` without invisible characters; the same string when there are none. */
export function stripInvisible(text: string): string {
  return HAS_INVISIBLE.test(text) ? text.replace(INVISIBLE, '') : text;
}
