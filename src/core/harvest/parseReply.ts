/**
 * Strict parsing of a harvest reply (as nagent): the reply must be one JSON object, optionally
 * inside a ```json fence; a category whose value is not a list counts as empty. Items inside
 * the lists are validated one by one: a malformed item is dropped, not the whole reply. Every
 * string is redacted for secrets here, before anything is cached or written.
 */
import { ITEM_CATEGORIES, emptyItems, type FileNoteItem, type HarvestItems, type PlaybookItem, type StatementItem } from '../knowledge/categories';
import { cutRedacted, redactSecrets } from '../safety/redact';

export class HarvestReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarvestReplyError';
  }
}

const FENCE = /^```[ \t]*(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;
const MAX_FIELD = 2000;

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  // Redact first: a cut through a secret would leave a part no rule recognises.
  return trimmed ? cutRedacted(redactSecrets(trimmed), MAX_FIELD) || undefined : undefined;
}

function statementItem(raw: unknown): StatementItem | undefined {
  if (typeof raw === 'string') {
    const statement = text(raw);
    return statement ? { statement } : undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const record = raw as Record<string, unknown>;
  const statement = text(record.statement);
  if (!statement) return undefined;
  const detail = text(record.detail);
  return detail ? { statement, detail } : { statement };
}

function playbookItem(raw: unknown): PlaybookItem | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const record = raw as Record<string, unknown>;
  const name = text(record.name);
  const steps = Array.isArray(record.steps) ? text(record.steps.filter((s) => typeof s === 'string').join(' -> ')) : text(record.steps);
  return name && steps ? { name, steps } : undefined;
}

function fileNoteItem(raw: unknown): FileNoteItem | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const record = raw as Record<string, unknown>;
  const path = text(record.path);
  const note = text(record.note);
  return path && note ? { path, note } : undefined;
}

export interface ParsedReply {
  items: HarvestItems;
  /** Items dropped because they were malformed. */
  dropped: number;
}

/** Parses a reply or throws HarvestReplyError saying what is wrong with it. */
export function parseHarvestReply(reply: string): ParsedReply {
  let body = reply.trim();
  const fence = FENCE.exec(body);
  if (fence) body = fence[1].trim();
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch (error) {
    throw new HarvestReplyError(`reply is not valid JSON: ${(error as Error).message}`);
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new HarvestReplyError('reply is not a JSON object');
  }
  const record = payload as Record<string, unknown>;
  const items = emptyItems();
  let dropped = 0;
  for (const category of ITEM_CATEGORIES) {
    const rows = record[category];
    if (!Array.isArray(rows)) continue;
    for (const row of rows) {
      const item = category === 'playbooks' ? playbookItem(row) : category === 'files' ? fileNoteItem(row) : statementItem(row);
      if (!item) {
        dropped++;
        continue;
      }
      (items[category] as unknown[]).push(item);
    }
  }
  return { items, dropped };
}
