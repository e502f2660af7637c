/**
 * The dry-run classification: for each conversation file, its sha256 (its identity), size and
 * what a harvest would do with it. It reads and hashes but never parses, never calls a model
 * and never writes, so it runs close to the speed of hashing.
 */
import * as fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { MAX_HARVEST_SOURCE_BYTES, SUMMARIZE_THRESHOLD_BYTES } from '../constants';
import type { Ledger, LedgerEntry } from '../store/ledger';
import type { SourceFile } from './scanSources';
import { sha256Hash } from '../util/sha256';

export type ConversationClass =
  /**
   * New content, or content an earlier run could not read (ledger `unrecognized`): will be read
   * and, when an importer reads turns from it, distilled.
   */
  | 'harvest'
  /** A previous harvest failed: will be distilled again. */
  | 'retry'
  /** The ledger already holds this content (harvested or reclaimed unharvested). */
  | 'harvested'
  /** The same content as another file of this run. */
  | 'duplicate'
  /** Over 1 MB: kept and never sent to a model. */
  | 'too-large'
  /** Binary or not UTF-8: skipped and kept. */
  | 'binary'
  /** Empty or whitespace only: skipped. */
  | 'empty'
  /** Outside the inbox and modified moments ago: probably still being written by its agent. */
  | 'live'
  /** Over the --max-harvest-bytes budget: left for the next run. */
  | 'deferred'
  /** Could not be read (permissions, vanished). */
  | 'unreadable';

export const CONVERSATION_CLASSES: readonly ConversationClass[] = [
  'harvest', 'retry', 'harvested', 'duplicate', 'too-large', 'binary', 'empty', 'live', 'deferred', 'unreadable',
];

export interface ClassifiedConversation {
  path: string;
  inInbox: boolean;
  sha256: string;
  bytes: number;
  mtimeMs: number;
  class: ConversationClass;
  /** The ledger entry for this content, if any. */
  ledger?: LedgerEntry;
  /** For duplicates: the path of the first file with the same content. */
  sameAs?: string;
  /** Why, for unreadable/binary. */
  reason?: string;
}

export interface ClassifyOptions {
  /** Harvest at most this many bytes this run; the rest is deferred. */
  maxHarvestBytes?: number;
  /** Agent session logs outside the inbox modified within this many ms are `live`. */
  liveWindowMs?: number;
  now?: number;
}

function looksBinary(buffer: Buffer): boolean {
  const head = buffer.subarray(0, 8192);
  return head.includes(0) || !isUtf8(buffer);
}

/** Session logs that their agent keeps appending to while it runs (Claude Code, Codex, Aider). */
function isAgentLog(file: string): boolean {
  return file.endsWith('.jsonl') || file.endsWith('.aider.chat.history.md');
}

function isBlank(buffer: Buffer): boolean {
  for (const byte of buffer) if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return false;
  return true;
}

export function classifyConversations(files: SourceFile[], ledger: Ledger, options: ClassifyOptions = {}): ClassifiedConversation[] {
  const now = options.now ?? Date.now();
  const liveWindow = options.liveWindowMs ?? 0;
  const budget = options.maxHarvestBytes ?? Number.POSITIVE_INFINITY;
  const firstBySha = new Map<string, string>();
  let planned = 0;
  const out: ClassifiedConversation[] = [];
  for (const file of files) {
    let buffer: Buffer;
    let mtimeMs = 0;
    try {
      mtimeMs = fs.statSync(file.path).mtimeMs;
      buffer = fs.readFileSync(file.path);
    } catch (error) {
      out.push({ path: file.path, inInbox: file.inInbox, sha256: '', bytes: 0, mtimeMs, class: 'unreadable', reason: (error as Error).message });
      continue;
    }
    const sha256 = sha256Hash().update(buffer).digest('hex');
    const entry = ledger.entries[sha256];
    const base = { path: file.path, inInbox: file.inInbox, sha256, bytes: buffer.length, mtimeMs, ledger: entry };
    const first = firstBySha.get(sha256);
    if (first !== undefined) {
      out.push({ ...base, class: 'duplicate', sameAs: first });
      continue;
    }
    firstBySha.set(sha256, file.path);
    let cls: ConversationClass;
    let reason: string | undefined;
    if (entry?.status === 'harvested' || entry?.status === 'deleted-unharvested') cls = 'harvested';
    else if (buffer.length > MAX_HARVEST_SOURCE_BYTES) cls = 'too-large';
    else if (isBlank(buffer)) cls = 'empty';
    else if (looksBinary(buffer)) {
      cls = 'binary';
      reason = buffer.subarray(0, 8192).includes(0) ? 'contains NUL bytes' : 'not valid UTF-8';
    } else if (!file.inInbox && liveWindow > 0 && now - mtimeMs < liveWindow && isAgentLog(file.path)) cls = 'live';
    else if (planned + buffer.length > budget) cls = 'deferred';
    else {
      cls = entry?.status === 'harvest-failed' ? 'retry' : 'harvest';
      planned += buffer.length;
    }
    out.push({ ...base, class: cls, reason });
  }
  return out;
}

export interface DryRunTotals {
  counts: Record<ConversationClass, number>;
  /** Bytes that would be sent to distillation (harvest + retry). */
  harvestBytes: number;
  /** bytes / 4. */
  estimatedTokens: number;
  /** Candidates over 64 KB on disk, which may be summarized first. */
  overSummarizeThreshold: number;
  /** Inbox files whose content the ledger already proves, reclaimable without a model. */
  reclaimable: number;
  reclaimableBytes: number;
}

export function dryRunTotals(items: ClassifiedConversation[]): DryRunTotals {
  const counts = Object.fromEntries(CONVERSATION_CLASSES.map((c) => [c, 0])) as Record<ConversationClass, number>;
  let harvestBytes = 0;
  let over = 0;
  let reclaimable = 0;
  let reclaimableBytes = 0;
  for (const item of items) {
    counts[item.class]++;
    if (item.class === 'harvest' || item.class === 'retry') {
      harvestBytes += item.bytes;
      if (item.bytes > SUMMARIZE_THRESHOLD_BYTES) over++;
    }
    if (item.inInbox && (item.class === 'harvested' || item.class === 'duplicate')) {
      reclaimable++;
      reclaimableBytes += item.bytes;
    }
  }
  return { counts, harvestBytes, estimatedTokens: Math.ceil(harvestBytes / 4), overSummarizeThreshold: over, reclaimable, reclaimableBytes };
}
