/**
 * Text shown inside markdown that Lore renders (hovers, the "why this context" report): note
 * text, topic names, reasons and knowledge items are data, so none of it may become markup.
 */

/**
 * Escapes text for markdown: ASCII punctuation (but `/`) gets a backslash (CommonMark allows it for every
 * punctuation character, and it defeats links, emphasis, code spans and `www.`/`https:`
 * autolinks), `&`, `<` and `>` become entities (no HTML tag or entity survives), and line breaks
 * become spaces (no new block can start).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/[!"#$%'()*+,\-.:;=?@[\\\]^_`{|}~]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A code fence that no backtick run of `text` can close: one backtick longer than its longest run, at least three. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}
