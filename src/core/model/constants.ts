/** Thresholds of the harvest pattern (they match nagent, see design.md). */

/** Conversations whose rendered transcript is larger than this are summarized first. */
export const SUMMARIZE_THRESHOLD_BYTES = 64 * 1024;
/** Conversations whose rendered transcript is larger than this are kept as `too-large` and never sent to a model. */
export const MAX_HARVEST_SOURCE_BYTES = 1024 * 1024;
/**
 * Raw files larger than this are `too-large` without being read into memory (hashed in chunks).
 * Agent logs render 10-20× smaller than their JSONL (tool output and snapshots are dropped), so
 * 64 MB raw leaves room for any session whose transcript could stay under the 1 MB budget.
 */
export const MAX_RAW_SOURCE_BYTES = 64 * 1024 * 1024;
/** The digest's cap, in UTF-8 bytes, header included. */
export const DIGEST_MAX_BYTES = 4 * 1024;
/** Parse attempts per harvest reply (the first plus one retry). */
export const HARVEST_MAX_ATTEMPTS = 2;
/** Appended to the prompt on the retry after an invalid reply. */
export const RETRY_SUFFIX = '\nYour previous reply was not valid JSON. Return only the JSON object.\n';
/** Characters the block of the store's existing items shown to the model with a conversation may take. */
export const EXISTING_ITEMS_MAX_CHARS = 6_000;
/** Dry-run token estimate: bytes / 4. */
export const BYTES_PER_TOKEN = 4;
/** Size of the chunks a large transcript is cut into for summarizing. */
export const SUMMARY_CHUNK_BYTES = 48 * 1024;
/** Default per-call model timeout. */
export const DEFAULT_TIMEOUT_MS = 120_000;
