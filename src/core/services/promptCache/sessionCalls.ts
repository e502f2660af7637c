/**
 * Reading a session file's calls (cacheCalls.ts) without reading hundreds of MB each time: a
 * JSONL log is read from its last {@link DEFAULT_TAIL_BYTES} (its recent calls; the state of the
 * prompt cache depends only on those) and then, while it grows, only the bytes appended since the last
 * read, through a {@link SessionCallsMemo} kept by the caller (the language server keeps one for
 * the Cache view). A Copilot Chat session is one JSON document (or a log replayed from its first
 * line) and is read whole, up to {@link MAX_DOCUMENT_BYTES}.
 */
import * as fs from 'node:fs';
import type { CacheUsage } from './cacheUsage';
import { replayChatSessionLog } from '../conversations/copilotChatLog';
import { forEachJsonLine, isObject, parseJsonDocument } from '../conversations/importSupport';
import { readLines } from '../discovery/fileHead';
import { claudeCodeCollector, codexCollector, copilotChatCalls, type CacheCall, type CacheTool, type CallCollector } from './cacheCalls';
import { readStoreFile } from '../../base/readText';

/** How much of a JSONL session's end is read the first time (its recent calls). */
export const DEFAULT_TAIL_BYTES = 16 * 1024 * 1024;
/** The largest Copilot Chat session read (a JSON document cannot be read from its tail). */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** The calls of one session file as read so far. */
export interface SessionCalls {
  tool: CacheTool;
  path: string;
  calls: CacheCall[];
  /** The file's modification time, epoch ms (the last activity when no call has a time). */
  modifiedAt?: number;
  /** Bytes at the start of the file that were not read: the totals cover the rest only. */
  skippedBytes: number;
  /** Lines that were not JSON objects. */
  malformed: number;
  /** The tool's own cumulative total (Codex), covering the whole session even when its start was skipped. */
  reportedTotal?: CacheUsage;
  /** Why the file was not read (too large, unreadable). */
  unreadable?: string;
}

interface Entry {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Where the next read of appended lines starts. */
  offset: number;
  collector: CallCollector;
  result: SessionCalls;
}

/** What was read of each session file, so a grown file is read from where the last read stopped. */
export class SessionCallsMemo {
  readonly entries = new Map<string, Entry>();
}

function collectorFor(tool: CacheTool): CallCollector | undefined {
  return tool === 'claude-code' ? claudeCodeCollector() : tool === 'codex' ? codexCollector() : undefined;
}

function readDocument(file: string, stat: fs.Stats): SessionCalls {
  const base: SessionCalls = { tool: 'copilot-chat', path: file, calls: [], modifiedAt: stat.mtimeMs, skippedBytes: 0, malformed: 0 };
  if (stat.size > MAX_DOCUMENT_BYTES)
    return { ...base, skippedBytes: stat.size, unreadable: `larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB` };
  let text: string;
  try {
    text = readStoreFile(file, 'utf8');
  } catch (error) {
    return { ...base, unreadable: (error as Error).message };
  }
  const skipped: Record<string, number> = {};
  const data = file.toLowerCase().endsWith('.jsonl') ? replayChatSessionLog(text, skipped) : parseJsonDocument(text, skipped, isObject);
  return { ...base, calls: data ? copilotChatCalls(data) : [], malformed: skipped.malformed ?? 0 };
}

/**
 * The calls of a session file. With a memo, a file that only grew since the last call is read
 * from where that read stopped; a file replaced or truncated is read afresh.
 */
export function readSessionCalls(
  tool: CacheTool,
  file: string,
  options: { memo?: SessionCallsMemo; tailBytes?: number } = {},
): SessionCalls {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    options.memo?.entries.delete(file);
    return { tool, path: file, calls: [], skippedBytes: 0, malformed: 0, unreadable: (error as Error).message };
  }
  const collector = collectorFor(tool);
  if (!collector) return readDocument(file, stat);
  const cached = options.memo?.entries.get(file);
  if (cached && cached.ino === stat.ino && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) return cached.result;
  const grown = cached !== undefined && cached.ino === stat.ino && stat.size >= cached.offset;
  const entry: Entry = grown
    ? cached
    : { size: 0, mtimeMs: 0, ino: stat.ino, offset: 0, collector, result: { tool, path: file, calls: [], skippedBytes: 0, malformed: 0 } };
  const tailBytes = options.tailBytes ?? DEFAULT_TAIL_BYTES;
  const lines = readLines(file, grown ? { from: entry.offset, maxBytes: tailBytes } : { maxBytes: tailBytes });
  if (!lines) return { tool, path: file, calls: [], skippedBytes: 0, malformed: 0, unreadable: 'cannot be read' };
  const skipped: Record<string, number> = {};
  forEachJsonLine(lines.text, skipped, (record) => entry.collector.add(record));
  entry.offset = lines.end;
  entry.size = stat.size;
  entry.mtimeMs = stat.mtimeMs;
  entry.result = {
    tool,
    path: file,
    // A copy: a result handed out earlier must not change when the file grows.
    calls: [...entry.collector.calls()],
    modifiedAt: stat.mtimeMs,
    skippedBytes: entry.result.skippedBytes + lines.skipped,
    malformed: entry.result.malformed + (skipped.malformed ?? 0),
    reportedTotal: entry.collector.reportedTotal?.(),
  };
  options.memo?.entries.set(file, entry);
  return entry.result;
}
