/**
 * Memo of distilled items in the store's derived part (`.cache/replies/`, git-ignored), so
 * an `--apply` after a `--preview` does not pay the model twice. Keyed by conversation sha256,
 * provider, model, the prompt's hash and the redaction rules (a reply memoized under older rules
 * is a miss, never reused); what is written is redacted. A memo file that is not JSON, does not
 * fit the schema (replySchema.ts) or holds more items than a reply may (MAX_REPLY_ITEMS: one an
 * older Lore memoized whole) is a miss, never an error. A reply that cannot be written is dropped
 * (runHarvest.ts: the reply of a conversation whose items cannot be planned, and every reply of a run
 * whose plan or apply fails on what it writes), so it never fails every later run the same way; after
 * a failure of the disk (a full one) the replies are kept.
 */
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { countItems, type HarvestItems } from '../../model/categories';
import type { PrivateMarkers } from '../../model/safety/privateSpans';
import { redactDeep, redactionRulesId } from '../../model/safety/redact';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { StorePaths } from '../../store/storePaths';
import { sha256Hash } from '../../base/lazyCrypto';
import { MAX_REPLY_ITEMS } from './parseReply';
import { lazy } from '../../base/lazy';
import { readStoreFile } from '../../base/readText';

const replySchemaModule = lazy(() => require('./replySchema') as typeof import('./replySchema'));

export interface MemoReply {
  items: HarvestItems;
  summarized: boolean;
  id: string;
  at: string;
}

/**
 * The key of a reply. The private-span markers are part of it: a reply distilled before a marker
 * pair was configured may hold what that pair now keeps private.
 */
export function replyMemoKey(
  sha256: string,
  provider: string,
  model: string | undefined,
  prompt: string,
  privateMarkers: readonly PrivateMarkers[] = [],
): string {
  const markers = privateMarkers.map((m) => `${m.open}\u0000${m.close}`).join('\u0000');
  return sha256Hash()
    .update(`${sha256}\n${provider}\n${model ?? ''}\n${prompt}\n${redactionRulesId()}${markers ? `\n${markers}` : ''}`)
    .digest('hex');
}

function memoFile(paths: StorePaths, key: string): string {
  return path.join(paths.cache, 'replies', `${key}.json`);
}

export function readReplyMemo(paths: StorePaths, key: string): MemoReply | undefined {
  try {
    const value: unknown = JSON.parse(readStoreFile(memoFile(paths, key), 'utf8'));
    const { memoReplySchema } = replySchemaModule();
    const checked = memoReplySchema.safeParse(value);
    if (!checked.success) return undefined;
    const items = Object.values(countItems(checked.data.items)).reduce((a, b) => a + b, 0);
    return items > MAX_REPLY_ITEMS ? undefined : (checked.data satisfies MemoReply);
  } catch {
    return undefined;
  }
}

export function writeReplyMemo(paths: StorePaths, key: string, value: MemoReply): void {
  try {
    writeFileAtomic(memoFile(paths, key), JSON.stringify(redactDeep(value)), { durable: false });
  } catch {
    // A memo that cannot be written (read-only store, full disk) only costs a second model call.
  }
}

/** Removes memoized replies (those a failed plan was made from); what cannot be removed stays a memo. */
export function dropReplyMemos(paths: StorePaths, keys: readonly string[]): void {
  for (const key of keys) {
    try {
      removeNoFollow(memoFile(paths, key), { force: true });
    } catch {
      // The plan's own error is what the user needs to hear about.
    }
  }
}
