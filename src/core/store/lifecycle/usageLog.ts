/**
 * The record of items being used, so decay (decay.ts) can tell a forgotten item from one agents
 * keep reading. Every place that hands items out appends one line naming their ids: search hits
 * returned, recall, an agent's read through MCP (search: matches, notes, items by id
 * and the digest) and the items a hook injects. The hook runs before every prompt, so a use costs
 * one appended line and nothing else: no SQLite, no zod, no parse of the store. The lines are
 * folded into a summary only when decay is asked for (usageSummary.ts).
 *
 *     2026-11-27 hook k3m9x2ab q8tz0c1m
 *
 * Bounded like the hook log: past USAGE_LOG_MAX_BYTES the log moves to usage.log.1 (replacing an
 * older one that was never folded), so at most twice the cap is ever kept. A day's resolution is
 * all decay needs, and keeps the lines short.
 */
import * as path from 'node:path';
import type { StorePaths } from '../storePaths';
import { appendCapped } from '../cappedLog';

export const USAGE_LOG_MAX_BYTES = 512 * 1024;

/** What counted as a use. `restore`: a person brought the item back from the archive. */
export const USE_KINDS = ['search', 'recall', 'agent', 'hook', 'restore'] as const;
export type UseKind = (typeof USE_KINDS)[number];

/** One line of the log. */
export interface UseRecord {
  date: string;
  kind: UseKind;
  ids: string[];
}

/** The folder of the store's logs (derived, git-ignored, deletable). */
export function logsDir(paths: StorePaths): string {
  return path.join(paths.root, '.logs');
}

/** The usage log of a store. */
export function usageLogFile(paths: StorePaths): string {
  return path.join(logsDir(paths), 'usage.log');
}

/** Ids the log takes: item ids only (8 characters of Crockford base32), nothing an agent could smuggle in. */
const ID = /^[0-9a-hjkmnp-tv-z]{8}$/;

/**
 * Appends one use of `ids` (undefined ones and repeats dropped). Never throws: a store that cannot
 * take the line (read-only, full) still answers the search or the hook that used the items.
 */
export function recordUses(paths: StorePaths, ids: ReadonlyArray<string | undefined>, kind: UseKind, now = new Date()): void {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string' && ID.test(id)))];
  if (wanted.length === 0) return;
  try {
    appendCapped(usageLogFile(paths), `${now.toISOString().slice(0, 10)} ${kind} ${wanted.join(' ')}\n`, USAGE_LOG_MAX_BYTES);
  } catch {
    // The use is lost; decay only grows more cautious about nothing.
  }
}

/** Parses log text; lines that are not well-formed (a torn last line, a hand edit) are skipped. */
export function parseUseLines(text: string): UseRecord[] {
  const out: UseRecord[] = [];
  for (const line of text.split('\n')) {
    const [date, kind, ...ids] = line.trim().split(/\s+/);
    if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !(USE_KINDS as readonly string[]).includes(kind)) continue;
    const good = ids.filter((id) => ID.test(id));
    if (good.length) out.push({ date, kind: kind as UseKind, ids: good });
  }
  return out;
}
