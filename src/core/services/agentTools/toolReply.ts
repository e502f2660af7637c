/**
 * The one shape of Lore's MCP tool replies. Clients such as Claude Code and Codex hand the model
 * a result's structuredContent when it has one, and its text otherwise, so both say the same
 * thing: the same items (id, category, short text, source, date, file:line), the same count of
 * what was left out and how to get it, the same warnings. Each of the two stays within the
 * reply's token budget (bytes / 4, as everywhere in Lore), and every string in either is
 * redacted here: this is the agent-reply boundary, whatever the text was read from.
 */
import type { ToolResult } from './agentTool';
import { z } from 'zod';
import { BYTES_PER_TOKEN } from '../../model/constants';
import { agentItemLine } from '../../model/agentItemLine';
import { KNOWLEDGE_FRAMING, frameAsData, quotedConversation } from '../../model/safety/dataFraming';
import { redactDeep, redactSecrets } from '../../model/safety/redact';
import { cutToLine } from '../../model/format';
import { DEFAULT_MARKERS, searchHitId, type SearchHit } from '../search/searchTypes';

/** The default size of a reply, in tokens: a few dozen items, far below any client's limit. */
export const DEFAULT_REPLY_TOKENS = 2000;
/** The most a caller may ask for (Claude Code warns at 10,000 tokens and cuts at 25,000). */
export const MAX_REPLY_TOKENS = 20_000;
const MIN_REPLY_TOKENS = 200;

/** Characters of an item's text in a reply (the whole line is in its file), and of a conversation excerpt. */
const ITEM_TEXT_CHARS = 300;
const EXCERPT_CHARS = 240;

/** The `max_tokens` argument every read tool takes. */
export const maxTokensArg = z
  .number()
  .int()
  .min(MIN_REPLY_TOKENS)
  .max(MAX_REPLY_TOKENS)
  .optional()
  .describe(`Reply size in tokens (default ${DEFAULT_REPLY_TOKENS}); what does not fit is counted and left out`);

/** What an item is when a search asked for more than the current ones. */
export const ITEM_STATUSES = ['current', 'superseded', 'archived'] as const;

/**
 * One knowledge item (or conversation excerpt) in a reply: the fields its text line shows
 * (agentItemLine), no more. The output schemas carry no descriptions: the model reads the input
 * schemas and descriptions, and every token of the tool list is paid on every request.
 */
export const replyItemSchema = z.object({
  id: z.string().optional(),
  category: z.string(),
  text: z.string(),
  source: z.string().optional(),
  date: z.string().optional(),
  file: z.string(),
  line: z.number().int().optional(),
  path: z.string().optional(),
  status: z.enum(ITEM_STATUSES).optional(),
  supersededBy: z.string().optional(),
});
export type ReplyItem = z.infer<typeof replyItemSchema>;

/**
 * What every list reply's structured content holds: the framing the text opens with (clients
 * such as Claude Code and Codex hand the model this object, not the text), the items, and, when
 * there are any, what was left out and how to get it and the warnings.
 */
export const listReplyShape = {
  framing: z.string().optional(),
  items: z.array(replyItemSchema),
  omitted: z.number().int().optional(),
  more: z.string().optional(),
  warnings: z.array(z.string()).optional(),
};

/**
 * A search hit as a reply item. A knowledge item is its own text from its start, cut at a word
 * (the search's snippet is a window that may start mid-sentence, losing a decision's verb, and
 * carries highlight marks); a conversation excerpt is the snippet's window (cut at words) without
 * the marks, quoted as unreviewed conversation.
 */
export function itemFromHit(hit: SearchHit): ReplyItem {
  const excerpt = hit.category === 'transcripts';
  return {
    // The id the index keeps (hashing it again was a tenth of a search call's time).
    id: searchHitId(hit),
    category: hit.category,
    // A conversation excerpt was never reviewed: quoted as such in the text and the structured content, or withheld.
    text: excerpt ? quotedConversation(cutToLine(withoutHighlights(hit.snippet), EXCERPT_CHARS)) : cutToLine(hit.text, ITEM_TEXT_CHARS),
    source: hit.source,
    date: hit.date,
    file: hit.file,
    line: hit.line,
    path: hit.notedPath === undefined ? undefined : withoutHighlights(hit.notedPath),
  };
}

/** A text without the search's highlight markers. */
function withoutHighlights(text: string): string {
  return text.split(DEFAULT_MARKERS.open).join('').split(DEFAULT_MARKERS.close).join('');
}

/** A knowledge line read from a file (its id taken from the whole line by the caller), its text cut. */
export function itemFromLine(fields: ReplyItem): ReplyItem {
  return { ...fields, text: cutToLine(fields.text, ITEM_TEXT_CHARS) };
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** What a list reply is made of; `extra` goes into the structured content beside the items. */
export interface ListReply<E extends Record<string, unknown>> {
  /** Candidates in the order they are shown (best first). */
  items: ReplyItem[];
  /** Text lines before the items (inside the data framing). */
  heading?: string[];
  /** A section heading per item (e.g. "## Notes on src/app.ts"), printed when it changes. */
  section?: (item: ReplyItem) => string | undefined;
  /** An item's text, given the caller's own object (default: agentItemLine); the whole text is redacted after. */
  line?: (item: ReplyItem) => string;
  /** A closing line of the text (counts, engine). */
  footer?: string;
  /** The text when there are no items. */
  empty: string;
  /** Left out before the items got here (e.g. by recall's own budget). */
  omittedBefore?: number;
  /** How to get what was left out (said when something was), given how many items are shown. */
  more: string | ((shown: number) => string);
  warnings: string[];
  extra: E;
  maxTokens?: number;
}

/**
 * Renders a list reply within its budget: items are taken in order while both the text and the
 * structured content fit; the rest are counted as omitted. Each string is read for secrets once:
 * the items' strings in one pass, and the text's own parts (heading, sections, counts, what to
 * ask next); the text's item lines are made of the items' strings and fixed punctuation, so they
 * are read again only when a caller renders its own lines or the items held a secret.
 */
export function listReply<E extends Record<string, unknown>>(reply: ListReply<E>): ToolResult {
  const budget = (reply.maxTokens ?? DEFAULT_REPLY_TOKENS) * BYTES_PER_TOKEN;
  const items = redactItems(reply.items);
  // Lines made by agentItemLine from items that held no secret need no second reading.
  const linesClean = !reply.line && items === reply.items;
  const warnings = reply.warnings.map(redactSecrets);
  const more = (shown: number) => (typeof reply.more === 'string' ? reply.more : reply.more(shown));
  const omittedLine = (n: number, shown: number) => `(${n} more not shown: ${more(shown)})`;
  // The parts of each representation that do not depend on how many items fit (counts at their widest).
  const widest = reply.items.length + (reply.omittedBefore ?? 0);
  let textUsed =
    bytes(frameAsData([...(reply.heading ?? []), 'x'].join('\n'))) +
    bytes(reply.footer ?? '') +
    bytes(omittedLine(widest, widest)) +
    warnings.reduce((n, w) => n + bytes(`warning: ${w}\n`), 0) +
    8;
  let jsonUsed = bytes(
    JSON.stringify({ framing: KNOWLEDGE_FRAMING, ...reply.extra, items: [], omitted: widest, more: more(widest), warnings }),
  );
  const lines: string[] = [];
  const sections: string[] = [];
  const kept: ReplyItem[] = [];
  let current: string | undefined;
  for (const [i, item] of items.entries()) {
    // The caller's own objects: sections may be keyed by them.
    const section = reply.section?.(reply.items[i]);
    const line =
      (section !== undefined && section !== current ? `${section}\n` : '') +
      (reply.line ? reply.line(reply.items[i]) : agentItemLine(item));
    const lineBytes = bytes(line) + 1;
    const jsonBytes = bytes(JSON.stringify(item)) + 1;
    if (textUsed + lineBytes > budget || jsonUsed + jsonBytes > budget) break;
    textUsed += lineBytes;
    jsonUsed += jsonBytes;
    lines.push(line);
    kept.push(item);
    if (section !== undefined && section !== current) sections.push(section);
    current = section;
  }
  const omitted = (reply.omittedBefore ?? 0) + items.length - kept.length;
  const tail = [reply.footer, omitted > 0 ? omittedLine(omitted, kept.length) : undefined, ...warnings.map((w) => `warning: ${w}`)].filter(
    (l): l is string => !!l,
  );
  const body = kept.length > 0 ? frameAsData([...(reply.heading ?? []), ...lines].join('\n')) : reply.empty;
  const structured = {
    ...(kept.length > 0 ? { framing: KNOWLEDGE_FRAMING } : {}),
    ...redactDeep(reply.extra),
    items: kept,
    // What the text does not say is not here either: no count of nothing left out, no empty warnings.
    ...(omitted > 0 ? { omitted, more: redactSecrets(more(kept.length)) } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  const text = [body, ...tail].join('\n');
  const ownParts = [...(reply.heading ?? []), ...sections, reply.footer ?? '', reply.empty, omitted > 0 ? more(kept.length) : ''];
  return {
    content: [{ type: 'text', text: linesClean && isClean(ownParts) ? text : redactSecrets(text) }],
    structuredContent: structured,
  };
}

/**
 * A reply whose substance is one text (a transcript, a digest-like page): `structured` carries
 * the same text and what to ask next. The caller keeps the text within the budget.
 */
export function textReply(text: string, structured: Record<string, unknown>, framed: boolean): ToolResult {
  const clean = redactSecrets(text);
  return { content: [{ type: 'text', text: framed ? frameAsData(clean) : clean }], structuredContent: redactDeep(structured) };
}

/**
 * The items with every string redacted. One pass over all their strings joined by line breaks
 * finds whatever a pass per string would (no rule matches across a line break that it would not
 * match at a string's edge), so when it finds nothing, as almost always, the items are returned
 * as they are: a pass per string cost more than the search that found them.
 */
function redactItems(items: ReplyItem[]): ReplyItem[] {
  return isClean(items.flatMap((item) => Object.values(item).filter((v): v is string => typeof v === 'string')))
    ? items
    : items.map((item) => redactDeep(item));
}

/** Whether none of `strings` holds a secret, in one pass over them joined by line breaks (see redactItems). */
function isClean(strings: string[]): boolean {
  const joined = strings.join('\n');
  return redactSecrets(joined) === joined;
}

/** A failed call: the text says what went wrong and what to do (no structured content, as the protocol allows). */
export function errorReply(message: string): ToolResult {
  return { content: [{ type: 'text', text: redactSecrets(message) }], isError: true };
}

/** The budget of a reply in bytes, for tools that cut a text themselves. */
export function budgetBytes(maxTokens: number | undefined): number {
  return (maxTokens ?? DEFAULT_REPLY_TOKENS) * BYTES_PER_TOKEN;
}
