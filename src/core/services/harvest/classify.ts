/**
 * The dry-run classification: for each conversation file, its sha256 (its identity), size and
 * what a harvest would do with it. A candidate is imported and rendered, because the budgets
 * apply to what the model reads (a 1.5 MB Claude Code log renders to ~80 KB); files the ledger
 * already knows, and binary, blank, live or absurdly large ones, are only hashed. It never calls
 * a model and never writes.
 */
import * as fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { MAX_HARVEST_SOURCE_BYTES, MAX_RAW_SOURCE_BYTES, SUMMARIZE_THRESHOLD_BYTES } from '../../model/constants';
import { permitsReclaim, type Ledger } from '../../model/ledgerFormat';
import { forgottenConversationLookup } from '../../model/tombstones';
import type { SourceFile } from '../discovery/scanSources';
import { formatBytes } from '../../model/format';
import { sha256Hash } from '../../base/lazyCrypto';
import type { Conversation } from '../../model/conversation';
import type { PrivateMarkers } from '../../model/safety/privateSpans';
import { readAssembledSource } from '../conversations/assembledSources';
import type { KnownFiles } from './knownFiles';
import type { Measurement, MeasuredFiles } from './measuredFiles';
import { liveReason } from './liveWindow';
import { importMeasured } from './renderedSize';
import { CONVERSATION_CLASSES, type RenderedSize, type ConversationClass, type ClassifiedConversation } from '../../store/harvestPlan';
import { readStoreFile, openStoreFile } from '../../base/readText';

export interface ClassifyOptions {
  /** Harvest at most this many bytes this run; the rest is deferred. */
  maxHarvestBytes?: number;
  /** Agent session logs outside the inbox modified within this many ms are `live`. */
  liveWindowMs?: number;
  now?: number;
  /**
   * Filled with the imported conversation of each harvest/retry candidate, by path: the harvest
   * distills exactly the bytes that were hashed, without reading and importing the file again.
   */
  conversations?: Map<string, Conversation>;
  /** Raw files over this are `too-large` unread (default MAX_RAW_SOURCE_BYTES). */
  maxRawBytes?: number;
  /** Hashes of unchanged files outside the inbox: a file the ledger proves is not read again. */
  knownFiles?: KnownFiles;
  /**
   * What earlier dry runs learned about unchanged files, and where this one records what it
   * learns (the caller saves it). Not used when `conversations` is asked for: a run that
   * distills reads and imports its candidates.
   */
  measuredFiles?: MeasuredFiles;
  /** Private-span markers besides the default pair (privateSpans.ts), applied where each candidate is imported. */
  privateMarkers?: readonly PrivateMarkers[];
}

function looksBinary(buffer: Buffer): boolean {
  const head = buffer.subarray(0, 8192);
  return head.includes(0) || !isUtf8(buffer);
}

/** Session logs that their agent keeps appending to while it runs (Claude Code, Codex, Aider). */
function isAgentLog(file: string): boolean {
  return file.endsWith('.jsonl') || file.endsWith('.aider.chat.history.md');
}

/** sha256 of a file read in 1 MB chunks: identity for a file too large to hold in memory. */
function hashInChunks(file: string): string {
  const hash = sha256Hash();
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  const fd = openStoreFile(file);
  try {
    for (let n; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0;) hash.update(chunk.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function isBlank(buffer: Buffer): boolean {
  for (const byte of buffer) if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return false;
  return true;
}

export function classifyConversations(files: SourceFile[], ledger: Ledger, options: ClassifyOptions = {}): ClassifiedConversation[] {
  const now = options.now ?? Date.now();
  const liveWindow = options.liveWindowMs ?? 0;
  const budget = options.maxHarvestBytes ?? Number.POSITIVE_INFINITY;
  const maxRaw = options.maxRawBytes ?? MAX_RAW_SOURCE_BYTES;
  const firstBySha = new Map<string, string>();
  const forgottenAt = forgottenConversationLookup(ledger);
  let planned = 0;
  const out: ClassifiedConversation[] = [];
  const measuredFiles = options.conversations ? undefined : options.measuredFiles;
  const readAt = Date.now(); // The real clock: compared with the files' ctime (StatStampedCache).
  for (const file of files) {
    let buffer: Buffer | undefined;
    let sha256: string;
    let bytes: number;
    let mtimeMs = 0;
    /** What an earlier dry run learned about this file as it still is. */
    let known: Measurement | undefined;
    /** What this run learned by reading it, to remember. */
    let learned: Measurement | undefined;
    try {
      if (file.assembled) {
        // A session of a tool's store: its assembled bytes stand for it as a file's do (and the
        // known-files cache, which vouches for one file by its stat, does not apply).
        ({ buffer, mtimeMs } = readAssembledSource(file.assembled));
        bytes = buffer.length;
        sha256 = sha256Hash().update(buffer).digest('hex');
      } else {
        const stat = fs.statSync(file.path);
        mtimeMs = stat.mtimeMs;
        bytes = stat.size;
        const proven = file.inInbox ? undefined : options.knownFiles?.lookup(file.path, stat);
        known = measuredFiles?.lookup(file.path, stat);
        if (proven !== undefined && permitsReclaim(ledger.entries[proven])) sha256 = proven;
        else if (known) sha256 = known.sha256;
        else if (stat.size > maxRaw) learned = { sha256: (sha256 = hashInChunks(file.path)) };
        else {
          buffer = readStoreFile(file.path);
          bytes = buffer.length;
          learned = { sha256: (sha256 = sha256Hash().update(buffer).digest('hex')) };
        }
      }
    } catch (error) {
      out.push({
        path: file.path,
        inInbox: file.inInbox,
        sha256: '',
        bytes: 0,
        mtimeMs,
        class: 'unreadable',
        reason: (error as Error).message,
      });
      continue;
    }
    const entry = ledger.entries[sha256];
    const base = {
      path: file.path,
      inInbox: file.inInbox,
      ...(file.assembled ? { assembled: true as const } : {}),
      sha256,
      bytes,
      mtimeMs,
      ledger: entry,
    };
    const remember = () => {
      if (learned && measuredFiles && !file.assembled) measuredFiles.remember(file.path, learned, readAt);
    };
    const first = firstBySha.get(sha256);
    if (first !== undefined) {
      out.push({ ...base, class: 'duplicate', sameAs: first });
      remember();
      continue;
    }
    firstBySha.set(sha256, file.path);
    let cls: ConversationClass;
    let reason: string | undefined;
    let rendered: RenderedSize | undefined;
    const forgottenOn = forgottenAt(entry?.id, sha256);
    if (forgottenOn) {
      cls = 'forgotten';
      reason = forgottenReason(forgottenOn);
    } else if (permitsReclaim(entry)) cls = 'harvested';
    else if (buffer === undefined && bytes > maxRaw) {
      cls = 'too-large';
      reason = `raw file over ${formatBytes(maxRaw)}, not read`;
    } else if (buffer ? isBlank(buffer) : known?.empty) {
      cls = 'empty';
      if (learned) learned.empty = true;
    } else if (buffer ? looksBinary(buffer) : known?.binary !== undefined) {
      cls = 'binary';
      reason = buffer ? (buffer.subarray(0, 8192).includes(0) ? 'contains NUL bytes' : 'not valid UTF-8') : known!.binary;
      if (learned) learned.binary = reason;
    } else if (!file.inInbox && liveWindow > 0 && now - mtimeMs < liveWindow && (file.assembled !== undefined || isAgentLog(file.path))) {
      cls = 'live';
      reason = liveReason(mtimeMs, now, liveWindow);
    } else {
      let imported = buffer ? undefined : known?.imported;
      let conversation: Conversation | undefined;
      if (!imported) {
        // Known by an earlier dry run that did not import it (it was live, or harvested then): read now.
        if (!buffer) {
          try {
            buffer = readStoreFile(file.path);
          } catch (error) {
            out.push({ ...base, class: 'unreadable', reason: (error as Error).message });
            continue;
          }
          // Remembered only if these are still the bytes the known hash names.
          learned = sha256Hash().update(buffer).digest('hex') === sha256 ? { sha256 } : undefined;
        }
        const measured = importMeasured(file.path, buffer.toString('utf8'), { privateMarkers: options.privateMarkers });
        conversation = measured.conversation;
        imported = { ...measured.size, id: conversation.id };
        if (learned) learned.imported = imported;
      }
      const { id, ...size } = imported;
      rendered = size;
      const forgotten = forgottenAt(id);
      if (forgotten) {
        // The same conversation, grown or copied since it was forgotten: still forgotten.
        cls = 'forgotten';
        reason = forgottenReason(forgotten);
      } else if (rendered.turns === 0) {
        // The same answer a harvest gives it: never sent, recorded as not read, kept.
        cls = 'unrecognized';
        reason = rendered.unrecognized ?? NO_TURNS;
      } else if (rendered.renderedBytes > MAX_HARVEST_SOURCE_BYTES) {
        cls = 'too-large';
        reason = `rendered transcript over ${formatBytes(MAX_HARVEST_SOURCE_BYTES)}`;
      } else if (planned + rendered.renderedBytes > budget) cls = 'deferred';
      else {
        cls = entry?.status === 'harvest-failed' ? 'retry' : 'harvest';
        planned += rendered.renderedBytes;
        if (conversation) options.conversations?.set(file.path, conversation);
      }
    }
    out.push({ ...base, ...rendered, class: cls, reason });
    remember();
  }
  return out;
}

/** Why a file from which an importer read no turns is not harvested, when the importer says nothing more. */
export const NO_TURNS = 'no conversation turns';

function forgottenReason(at: string): string {
  return `forgotten on ${at.slice(0, 10)} (lore forget): not harvested again`;
}

export interface DryRunTotals {
  counts: Record<ConversationClass, number>;
  /** Rendered transcript bytes that would be sent to distillation (harvest + retry). */
  harvestBytes: number;
  /** Raw bytes of the same conversations, on disk. */
  harvestRawBytes: number;
  /** harvestBytes / 4. */
  estimatedTokens: number;
  /** Candidates whose rendered transcript is over 64 KB, which are summarized first. */
  overSummarizeThreshold: number;
  /** Inbox files --apply reclaims without distilling them: content the ledger proves, or copies of a candidate. */
  reclaimable: number;
  reclaimableBytes: number;
}

/** Classes whose content the ledger proves after --apply (already, or by this harvest). */
const PROVEN_BY_APPLY: ReadonlySet<ConversationClass> = new Set<ConversationClass>(['harvested', 'harvest', 'retry']);

/**
 * Inbox duplicates that --apply keeps: a copy of a file this harvest does not distill (no importer
 * reads it, too large, binary, live, deferred…) is proven by nothing, so it is not reclaimed either.
 * Each with the file it copies. The dry run counts these apart, saying what --apply will do.
 */
export function keptDuplicates(items: readonly ClassifiedConversation[]): ClassifiedConversation[] {
  const classOf = new Map(items.map((item) => [item.path, item.class]));
  return items.filter((item) => {
    if (!item.inInbox || item.class !== 'duplicate' || permitsReclaim(item.ledger)) return false;
    const original = item.sameAs === undefined ? undefined : classOf.get(item.sameAs);
    return original !== undefined && !PROVEN_BY_APPLY.has(original);
  });
}

export function dryRunTotals(items: ClassifiedConversation[]): DryRunTotals {
  const kept = new Set(keptDuplicates(items));
  const counts = Object.fromEntries(CONVERSATION_CLASSES.map((c) => [c, 0])) as Record<ConversationClass, number>;
  let harvestBytes = 0;
  let harvestRawBytes = 0;
  let over = 0;
  let reclaimable = 0;
  let reclaimableBytes = 0;
  for (const item of items) {
    counts[item.class]++;
    if (item.class === 'harvest' || item.class === 'retry') {
      const rendered = item.renderedBytes ?? 0;
      harvestBytes += rendered;
      harvestRawBytes += item.bytes;
      if (rendered > SUMMARIZE_THRESHOLD_BYTES) over++;
    }
    if (item.inInbox && (item.class === 'harvested' || (item.class === 'duplicate' && !kept.has(item)))) {
      reclaimable++;
      reclaimableBytes += item.bytes;
    }
  }
  return {
    counts,
    harvestBytes,
    harvestRawBytes,
    estimatedTokens: Math.ceil(harvestBytes / 4),
    overSummarizeThreshold: over,
    reclaimable,
    reclaimableBytes,
  };
}
