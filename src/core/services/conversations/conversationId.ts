/**
 * Conversation ids: the identity written into provenance markers `[from: ID, date]`, so they must
 * never contain the marker's own syntax. Kept apart from detect.ts so importers can use it without
 * an import cycle (detect.ts imports every importer).
 */
import * as path from 'node:path';
import { redactName } from '../../model/safety/redact';

/** Longest id kept; longer ones are cut (a provenance marker should stay readable). */
const MAX_CONVERSATION_ID_LENGTH = 120;
/** Used when nothing usable is left of the raw id. */
const FALLBACK_CONVERSATION_ID = 'conversation';

const AIDER_HISTORY_SUFFIX = '.aider.chat.history.md';
/** Extensions dropped from a file name to get its stem (longest first). */
const KNOWN_EXTENSIONS = ['.jsonl', '.json', '.markdown', '.md', '.txt'];

/**
 * Makes any raw value a safe conversation id: a secret in it redacted (an id is written into
 * provenance, the index and replies), shown as `REDACTED-kind`; no `,` `[` `]` (they would break
 * the provenance marker), no line breaks or control characters, whitespace collapsed, trimmed,
 * at most 120 characters, never empty. Redaction comes before the cut, so a cut never leaves
 * part of a secret. Idempotent.
 */
export function sanitizeConversationId(raw: unknown): string {
  let id = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : String(raw);
  id = redactName(id)
    .replace(/[,[\]]/g, '-')
    // Control characters (newlines included) and any whitespace run become one space.
    .replace(/[\u0000-\u001f\u007f\s]+/g, ' ')
    .trim();
  if (id.length > MAX_CONVERSATION_ID_LENGTH) {
    id = id.slice(0, MAX_CONVERSATION_ID_LENGTH);
    // Do not leave half of a surrogate pair at the cut.
    if (/[\ud800-\udbff]$/.test(id)) id = id.slice(0, -1);
    id = id.trim();
  }
  return id === '' ? FALLBACK_CONVERSATION_ID : id;
}

/**
 * The id of a conversation that carries none of its own: the file stem. Aider always names its
 * log `.aider.chat.history.md`, whose stem says nothing, so the folder that holds it (the project)
 * is used instead, with `-aider` appended: `/src/shop/.aider.chat.history.md` → `shop-aider`, and a
 * renamed copy `shop.aider.chat.history.md` → `shop-aider`.
 */
export function conversationIdFromPath(filePath: string): string {
  const base = path.basename(filePath);
  const lower = base.toLowerCase();
  if (lower.endsWith(AIDER_HISTORY_SUFFIX)) {
    let prefix = base.slice(0, base.length - AIDER_HISTORY_SUFFIX.length);
    if (prefix === '') prefix = path.basename(path.dirname(path.resolve(filePath)));
    return sanitizeConversationId(prefix === '' || prefix === path.sep ? 'aider' : `${prefix}-aider`);
  }
  const ext = KNOWN_EXTENSIONS.find((e) => lower.endsWith(e) && lower.length > e.length);
  return sanitizeConversationId(ext ? base.slice(0, base.length - ext.length) : base);
}
