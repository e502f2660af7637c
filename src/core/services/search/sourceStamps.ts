/**
 * Whether the store's sources can have changed since the last full update, told by a few stats
 * instead of a stat of every source (10,000 of them were a sixth of a one-shot `lore search`).
 *
 * A full update that found every source as indexed records, as they were before it listed them,
 * the modification times of the folders sources live in (sourceFolders) and the modification time
 * and size of the category files. While they all still hold, no source was added, removed or
 * replaced: a file saved by renaming a new version over it (Lore's rewrites, most editors'
 * atomic saves, a harvest's inbox copies) changes its folder's time. Lore's own in-place appends
 * touch their folder (appendInPlace). The category files, the ones people edit most, are stat'ed
 * each time.
 *
 * The trade-off: a note file or conversation changed in place by another program (an editor
 * writing in place, `echo >>`) changes no folder. The language server and `lore mcp` see such a
 * save from their watchers; a one-shot search sees it at the next full check, which a stamp older
 * than TRUSTED_MS forces.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import type { LexicalBackend } from './lexicalBackend';
import type { UpdateReport } from './searchTypes';
import { categorySources, sourceFolders } from './sourceFiles';

/** How long stamps spare the full stat scan: the bound on missing an in-place save by another program. */
export const TRUSTED_MS = 5 * 60_000;

/**
 * A time within this of the moment it was read may still change within the same tick of the
 * file system's clock (git's "racily clean" rule, as indexSync applies it to sources).
 */
const RACY_MS = 1000;

/** An entry: absolute path, modification time (-1: not trusted; null: absent), size (files only). */
type Stamp = [file: string, mtimeMs: number | null, size: number];

/** What a full update recorded. */
export interface SourceStamps {
  /** When the stamps were read (ms since the epoch). */
  at: number;
  transcripts: boolean;
  stamps: Stamp[];
  /** Documents in the index then: still its count while the stamps hold (see forgetStamps). */
  docs?: number;
  /** Set on stamps read back from the index that still hold. */
  held?: true;
}

/** The meta key the stamps are kept under in the index. */
export const STAMPS_KEY = 'source-stamps';

function stampOf(file: string, now: number, folder: boolean): Stamp {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  if (!stat || stat.isDirectory() !== folder) return [file, null, 0];
  return [file, now - stat.mtimeMs < RACY_MS ? -1 : stat.mtimeMs, folder ? 0 : stat.size];
}

/** Reads the stamps of a store now; to be called before a full update lists its sources. */
export function readStamps(paths: StorePaths, options: { transcripts?: boolean }): SourceStamps {
  const now = Date.now();
  const stamps = sourceFolders(paths, options).map((dir) => stampOf(dir, now, true));
  for (const [rel] of categorySources()) stamps.push(stampOf(path.join(paths.root, rel), now, false));
  return { at: now, transcripts: options.transcripts ?? true, stamps };
}

/** True when recorded stamps (JSON, from the index) still hold: no source can have changed since. */
export function stampsHold(recorded: string | undefined, options: { transcripts?: boolean }, now = Date.now()): boolean {
  return heldStamps(recorded, options, now) !== undefined;
}

/** The recorded stamps (JSON, from the index) when they still hold. */
function heldStamps(recorded: string | undefined, options: { transcripts?: boolean }, now = Date.now()): SourceStamps | undefined {
  if (!recorded) return undefined;
  let stamps: SourceStamps;
  try {
    stamps = JSON.parse(recorded) as SourceStamps;
  } catch {
    return undefined;
  }
  return stampsStillHold(stamps, options, now) ? { ...stamps, held: true } : undefined;
}

function stampsStillHold(stamps: SourceStamps, options: { transcripts?: boolean }, now: number): boolean {
  if (!Array.isArray(stamps?.stamps) || typeof stamps.at !== 'number') return false;
  if (now - stamps.at >= TRUSTED_MS || now < stamps.at || stamps.transcripts !== (options.transcripts ?? true)) return false;
  try {
    return stamps.stamps.every(([file, mtimeMs, size]) => {
      if (mtimeMs === -1) return false;
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat) return mtimeMs === null;
      return stat.mtimeMs === mtimeMs && (stat.isDirectory() || stat.size === size);
    });
  } catch {
    return false; // Unreadable now: the full update says what is wrong.
  }
}

/**
 * Before a full update: the stamps the last clean full update recorded in the index when they
 * still hold (`held`: no source can have changed), else the stamps of now, to record if this
 * update finds every source as indexed.
 */
export function sourcesUnchanged(backend: LexicalBackend, paths: StorePaths, options: { transcripts?: boolean }): SourceStamps {
  try {
    const held = heldStamps(backend.meta?.(STAMPS_KEY), options);
    if (held) return held;
  } catch {
    // An index that cannot be read says so in the update that follows.
  }
  return readStamps(paths, options);
}

/**
 * After a full update: records the stamps read before it when it found nothing to change (after
 * any change, the next update lists the sources again, and records them if they held still).
 */
export function recordStamps(backend: LexicalBackend, stamps: SourceStamps, report: Omit<UpdateReport, 'embedded'>): void {
  const clean = report.indexed.length === 0 && report.removed.length === 0 && report.rehashed === 0 && report.errors.length === 0;
  if (!clean) return;
  try {
    backend.setMeta?.(STAMPS_KEY, JSON.stringify({ ...stamps, docs: report.docs }));
  } catch {
    // Locked or read-only: the next update lists the sources again, as before stamps.
  }
}

/**
 * After an update of some files (a watcher's): when it changed the index, the recorded stamps no
 * longer tell its document count, and are dropped (the next full update lists the sources).
 */
export function forgetStamps(backend: LexicalBackend, report: Omit<UpdateReport, 'embedded'>): void {
  if (report.indexed.length === 0 && report.removed.length === 0) return;
  try {
    backend.setMeta?.(STAMPS_KEY, undefined);
  } catch {
    // Not written: the count a later check reports may be a few documents off, nothing else.
  }
}
