/**
 * Strict parsing of a harvest reply (as nagent): the reply must be one JSON object, optionally
 * inside a ```json fence; a category whose value is not a list counts as empty. Items inside
 * the lists are validated one by one against the reply schema (replySchema.ts): a malformed item
 * is dropped, not the whole reply, and the problem names its field. Every string is redacted for
 * secrets here, before anything is cached or written.
 */
import type { z } from 'zod';
import {
  ITEM_CATEGORIES,
  emptyItems,
  type FileNoteItem,
  type HarvestItems,
  type ItemOrigin,
  type ItemRelations,
  type PlaybookItem,
  type StatementItem,
} from '../../model/categories';
import { ITEM_ID_PATTERN } from '../../model/itemId';
import { cutRedacted, redactSecrets } from '../../model/safety/redact';
import { describeSchemaIssue } from '../../base/schemaIssue';
import { wellFormedStrings } from '../../base/wellFormedText';
import { lazy } from '../../base/lazy';

const replySchemaModule = lazy(() => require('./replySchema') as typeof import('./replySchema'));

/** The reply schema's item readers, loaded with the first reply (zod is a large share of start-up). */
function readers(): typeof import('./replySchema').itemReaders {
  return replySchemaModule().itemReaders;
}

export class HarvestReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarvestReplyError';
  }
}

const FENCE = /^```[ \t]*(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;
const MAX_FIELD = 2000;
/**
 * Items kept from one reply at most, all categories together: a conversation teaches a few dozen;
 * a runaway reply (100,000 items) is cut here, before it is cached or planned, and the rest is
 * reported as dropped.
 */
export const MAX_REPLY_ITEMS = 2000;
/** How a problem list starts when the reply was cut at MAX_REPLY_ITEMS. */
export const TOO_MANY_ITEMS = `the reply holds more than ${MAX_REPLY_ITEMS} items`;

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  // Redact first: a cut through a secret would leave a part no rule recognises.
  return trimmed ? cutRedacted(redactSecrets(trimmed), MAX_FIELD) || undefined : undefined;
}

/** Where an item was found, for problems: `facts[2]`. */
type Place = string;

/** The reader's result, or undefined with the schema's first issue, placed, added to `problems`. */
function read<T>(reader: z.ZodType<T>, raw: unknown, place: Place, problems: string[]): T | undefined {
  const parsed = reader.safeParse(raw);
  if (parsed.success) return parsed.data;
  const inside = (parsed.error.issues[0]?.path.length ?? 0) > 0;
  problems.push(inside ? `${place}.${describeSchemaIssue(parsed.error)}` : `${place}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return undefined;
}

/** A required text field after redaction and trimming; an empty one is a problem too. */
function required(value: string, field: string, problems: string[]): string | undefined {
  const result = text(value);
  if (!result) problems.push(`${field}: empty`);
  return result;
}

/** An item id as a reply may write it (any case, spaces around); undefined when it is none. */
function replyId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = value.trim().toLowerCase();
  return ITEM_ID_PATTERN.test(id) ? id : undefined;
}

/**
 * `same_as` and `supersedes` as far as they name ids; anything else ("", "none", prose) means no
 * relation. Whether the ids exist in the store is for the plan to check.
 */
function relationsOf(record: { same_as?: unknown; supersedes?: unknown }): ItemRelations {
  const sameAs = replyId(record.same_as);
  const list = Array.isArray(record.supersedes) ? record.supersedes : [record.supersedes];
  const supersedes = [...new Set(list.map(replyId).filter((id): id is string => id !== undefined && id !== sameAs))];
  return { ...(sameAs ? { sameAs } : {}), ...(supersedes.length ? { supersedes } : {}) };
}

/** Whether the offline extractor inferred the item (ItemOrigin); only `true` counts. */
function originOf(record: Record<string, unknown>): ItemOrigin {
  return record.inferred === true ? { inferred: true } : {};
}

function statementItem(raw: unknown, place: Place, problems: string[]): StatementItem | undefined {
  if (typeof raw === 'string') return required(raw, place, problems) ? { statement: text(raw)! } : undefined;
  const record = read(readers().statement, raw, place, problems);
  if (!record) return undefined;
  const statement = required(record.statement, `${place}.statement`, problems);
  if (!statement) return undefined;
  const detail = text(record.detail);
  return { statement, ...(detail ? { detail } : {}), ...relationsOf(record), ...originOf(record) };
}

function playbookItem(raw: unknown, place: Place, problems: string[]): PlaybookItem | undefined {
  const record = read(readers().playbook, raw, place, problems);
  if (!record) return undefined;
  const name = required(record.name, `${place}.name`, problems);
  const steps = required(
    Array.isArray(record.steps) ? record.steps.filter((s) => typeof s === 'string').join(' -> ') : record.steps,
    `${place}.steps`,
    problems,
  );
  return name && steps ? { name, steps, ...relationsOf(record), ...originOf(record) } : undefined;
}

function fileNoteItem(raw: unknown, place: Place, problems: string[]): FileNoteItem | undefined {
  const record = read(readers().file, raw, place, problems);
  if (!record) return undefined;
  const path = required(record.path, `${place}.path`, problems);
  const note = required(record.note, `${place}.note`, problems);
  return path && note ? { path, note, ...relationsOf(record), ...originOf(record) } : undefined;
}

export interface ParsedReply {
  items: HarvestItems;
  /** Items dropped because they were malformed. */
  dropped: number;
  /** Why, one line per dropped item naming the field, e.g. `facts[2].statement: Invalid input: expected string, received number`. */
  problems: string[];
}

/** Parses a reply or throws HarvestReplyError saying what is wrong with it. */
export function parseHarvestReply(reply: string): ParsedReply {
  let body = reply.trim();
  const fence = FENCE.exec(body);
  if (fence) body = fence[1].trim();
  let payload: unknown;
  try {
    // A model's reply is untrusted text: a lone surrogate in it (\ud83d) is U+FFFD from here on.
    payload = JSON.parse(body, wellFormedStrings);
  } catch (error) {
    throw new HarvestReplyError(`reply is not valid JSON: ${(error as Error).message}`);
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new HarvestReplyError('reply is not a JSON object');
  }
  const record = payload as Record<string, unknown>;
  const items = emptyItems();
  const problems: string[] = [];
  let dropped = 0;
  let kept = 0;
  let overflow = 0;
  for (const category of ITEM_CATEGORIES) {
    const rows = record[category];
    if (rows === undefined) continue;
    if (!Array.isArray(rows)) {
      problems.push(`${category}: expected array, received ${rows === null ? 'null' : typeof rows}; read as empty`);
      continue;
    }
    for (const [index, row] of rows.entries()) {
      const place = `${category}[${index}]`;
      if (kept >= MAX_REPLY_ITEMS) {
        overflow += rows.length - index;
        break;
      }
      const item =
        category === 'playbooks'
          ? playbookItem(row, place, problems)
          : category === 'files'
            ? fileNoteItem(row, place, problems)
            : statementItem(row, place, problems);
      if (!item) {
        dropped++;
        continue;
      }
      (items[category] as unknown[]).push(item);
      kept++;
    }
  }
  if (overflow > 0) problems.unshift(`${TOO_MANY_ITEMS}: ${overflow} past the first ${MAX_REPLY_ITEMS} were left out`);
  return { items, dropped: dropped + overflow, problems };
}
