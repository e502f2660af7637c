/**
 * Staleness of a file's notes: has the file moved on since the notes were recorded, and how far?
 *
 * A note file records only the size and sha256 of the file at the time (core's format, which we
 * do not change), so "how far" needs the old content's shape. Whenever the server sees a noted
 * file whose content still matches the recorded fingerprint (a note file was just written, a
 * file was opened, notes were marked valid), it keeps a *baseline*: the set of 32-bit hashes of
 * the file's distinct non-blank lines, in `.index/note-baselines/<sha256>.bin` (derived,
 * git-ignored, deletable). Later the distance is the Jaccard distance between that set and the
 * current one: the fraction of distinct lines added or removed. Without a baseline we can only
 * say "changed".
 *
 * Hashing happens only when the size matches the recorded one (a different size proves a change)
 * and once per file version: results are memoized by device, inode, size and mtime.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/base/atomicWrite';
import { fingerprintFile } from '../core/base/fileIdentity';
import type { NoteFileMeta } from '../core/model/noteFile';
import type { NoteStaleness } from '../shared/protocol';
import { readStoreFile } from '../core/base/readText';

/** From this distance on, the file "changed a lot since". */
export const STALE_DISTANCE = 0.5;
/** Files larger than this get no baseline (line sets of huge files cost memory and time). */
const MAX_BASELINE_BYTES = 8 * 1024 * 1024;
const MEMO_LIMIT = 512;

/** Stat fields that change whenever the content may have changed. */
function versionKey(stat: fs.BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

/** FNV-1a over the UTF-16 code units of a line: cheap, and collisions only blur a ratio. */
function hashLine(line: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) {
    h ^= line.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Sorted distinct hashes of the non-blank lines (trailing whitespace ignored). */
export function lineHashSet(text: string): Uint32Array {
  const set = new Set<number>();
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed.trim() !== '') set.add(hashLine(trimmed));
  }
  return Uint32Array.from(set).sort();
}

/** Jaccard distance of two sorted sets: 0 identical, 1 nothing in common. */
export function setDistance(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return 1 - common / (a.length + b.length - common);
}

/** Bounded map that forgets the least recently set entries. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.delete(key);
  map.set(key, value);
  if (map.size > MEMO_LIMIT) map.delete(map.keys().next().value!);
  return value;
}

export class StalenessTracker {
  private readonly fingerprints = new Map<string, string>();
  private readonly assessments = new Map<string, NoteStaleness>();
  private readonly baselines = new Map<string, Uint32Array | null>();

  /** @param baselineDir where baselines persist (`<store>/.index/note-baselines`); undefined keeps them in memory only. */
  constructor(private readonly baselineDir: string | undefined) {}

  /** sha256 of the file as on disk (core's streamed fingerprint), memoized per file version. */
  fingerprint(absolute: string, stat: fs.BigIntStats): string | undefined {
    const key = `${absolute}\0${versionKey(stat)}`;
    const cached = this.fingerprints.get(key);
    if (cached !== undefined) return cached;
    try {
      return remember(this.fingerprints, key, fingerprintFile(absolute));
    } catch {
      return undefined;
    }
  }

  /** What is known without hashing: a memoized assessment, or a size that proves a change. */
  quick(absolute: string, stat: fs.BigIntStats, meta: NoteFileMeta): NoteStaleness | undefined {
    const cached = this.assessments.get(assessmentKey(absolute, stat, meta));
    if (cached) return cached;
    if (!meta.fingerprint) return { state: 'unknown', stale: false };
    return undefined;
  }

  /** Full assessment (may hash the file once per version and read a baseline). */
  assess(absolute: string, stat: fs.BigIntStats, meta: NoteFileMeta): NoteStaleness {
    const key = assessmentKey(absolute, stat, meta);
    const cached = this.assessments.get(key);
    if (cached) return cached;
    let result: NoteStaleness;
    if (!meta.fingerprint) result = { state: 'unknown', stale: false };
    else if (meta.size >= 0 && BigInt(meta.size) !== stat.size) result = this.changed(absolute, meta);
    else {
      const current = this.fingerprint(absolute, stat);
      if (current === meta.fingerprint) {
        this.captureBaseline(absolute, meta.fingerprint);
        result = { state: 'unchanged', stale: false };
      } else result = this.changed(absolute, meta);
    }
    return remember(this.assessments, key, result);
  }

  /**
   * Records the baseline of a file whose current content has this fingerprint, unless one exists.
   * Callers make sure the content matches (or pass a fingerprint they just computed).
   */
  captureBaseline(absolute: string, fingerprint: string, text?: string): void {
    if (this.baselineOf(fingerprint)) return;
    try {
      if (text === undefined) {
        if (fs.statSync(absolute).size > MAX_BASELINE_BYTES) return;
        text = readStoreFile(absolute, 'utf8');
      }
    } catch {
      return;
    }
    const set = lineHashSet(text);
    remember(this.baselines, fingerprint, set);
    const file = this.baselineFile(fingerprint);
    // Never create the store just to hold a cache: without `.lore/` the baseline stays in memory.
    if (!file || !fs.existsSync(path.resolve(this.baselineDir!, '..', '..'))) return;
    try {
      writeFileAtomic(file, Buffer.from(set.buffer, set.byteOffset, set.byteLength), { durable: false });
    } catch {
      // The baseline is derived; failing to persist it only costs precision later.
    }
  }

  /** Captures a baseline when the file still matches what a (just written) note file records. */
  captureIfCurrent(absolute: string, meta: NoteFileMeta): void {
    if (!meta.fingerprint || this.baselineOf(meta.fingerprint)) return;
    let stat: fs.BigIntStats | undefined;
    try {
      stat = fs.statSync(absolute, { bigint: true });
    } catch {
      return;
    }
    if (!stat.isFile() || BigInt(meta.size) !== stat.size || stat.size > BigInt(MAX_BASELINE_BYTES)) return;
    if (this.fingerprint(absolute, stat) === meta.fingerprint) this.captureBaseline(absolute, meta.fingerprint);
  }

  private changed(absolute: string, meta: NoteFileMeta): NoteStaleness {
    const baseline = this.baselineOf(meta.fingerprint);
    if (!baseline) return { state: 'changed', stale: true };
    let text: string;
    try {
      if (fs.statSync(absolute).size > MAX_BASELINE_BYTES) return { state: 'changed', stale: true };
      text = readStoreFile(absolute, 'utf8');
    } catch {
      return { state: 'changed', stale: true };
    }
    const distance = Math.round(setDistance(baseline, lineHashSet(text)) * 1000) / 1000;
    return { state: 'changed', distance, stale: distance >= STALE_DISTANCE };
  }

  private baselineOf(fingerprint: string): Uint32Array | undefined {
    const cached = this.baselines.get(fingerprint);
    if (cached !== undefined) return cached ?? undefined;
    const file = this.baselineFile(fingerprint);
    let set: Uint32Array | null = null;
    if (file) {
      try {
        const bytes = readStoreFile(file);
        set = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength - (bytes.byteLength % 4)));
      } catch {
        set = null;
      }
    }
    remember(this.baselines, fingerprint, set);
    return set ?? undefined;
  }

  private baselineFile(fingerprint: string): string | undefined {
    const hex = /^sha256:([0-9a-f]{64})$/.exec(fingerprint)?.[1];
    return this.baselineDir && hex ? path.join(this.baselineDir, `${hex}.bin`) : undefined;
  }
}

function assessmentKey(absolute: string, stat: fs.BigIntStats, meta: NoteFileMeta): string {
  return `${absolute}\0${versionKey(stat)}\0${meta.size}\0${meta.fingerprint}`;
}
