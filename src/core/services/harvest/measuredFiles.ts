/**
 * What a dry run learned about each conversation file it read (its sha256; whether it is blank,
 * binary or text; for a text it imported, the importer's measure of what the model would read
 * and the conversation's id), keyed by the file's stat (statStampedCache.ts), so that the next
 * dry run or `lore sources` does not read, hash and import every conversation again: the
 * importers cost tens of times a hash of the same bytes. Kept in the store's derived
 * `.cache/measured-files.json`, per machine, never committed; written by dry runs, which hold no
 * lock (see StatStampedCache for two at once).
 *
 * Only a dry run uses it: a harvest that distills reads and imports its candidates whatever
 * this says, and reclaims only on a hash it computed (or the known-files cache proves). A file
 * whose stat changed is read again, so a stale entry can only ever cost speed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256Hash } from '../../base/lazyCrypto';
import type { PrivateMarkers } from '../../model/safety/privateSpans';
import type { StorePaths } from '../../store/storePaths';
import type { RenderedSize } from '../../store/harvestPlan';
import { StatStampedCache, type FileStamp } from './statStampedCache';

/**
 * Bumped when what a measurement says changes for the same bytes (an importer reads a format it
 * did not, the rendering changes): older entries are then dropped, not trusted.
 */
const VERSION = 1;

/** What reading one file told the classification. */
export interface Measurement {
  sha256: string;
  /** Only spaces and line breaks. */
  empty?: true;
  /** Why it is not text (NUL bytes, not UTF-8). */
  binary?: string;
  /** What its import measured, when it was imported, and the conversation's id. */
  imported?: RenderedSize & { id: string };
}

export class MeasuredFiles {
  private constructor(
    private readonly cache: StatStampedCache<Measurement>,
    private readonly salt: string,
    private readonly storeRoot: string,
  ) {}

  /**
   * The store's cache, for imports with these private-span markers (they change what an import
   * measures: each set of markers has its own entries).
   */
  static open(paths: StorePaths, privateMarkers: readonly PrivateMarkers[] = []): MeasuredFiles {
    const salt = sha256Hash().update(JSON.stringify(privateMarkers)).digest('hex').slice(0, 8);
    return new MeasuredFiles(
      StatStampedCache.load(path.join(paths.cache, 'measured-files.json'), VERSION, isMeasurement),
      salt,
      paths.root,
    );
  }

  lookup(file: string, stat: FileStamp): Measurement | undefined {
    return this.cache.lookup(this.key(file), stat);
  }

  /** Remembers what reading `file` at `readAt` (ms since the epoch) told (see StatStampedCache.remember). */
  remember(file: string, measurement: Measurement, readAt: number): void {
    this.cache.remember(file, measurement, readAt, this.key(file));
  }

  /** Writes the cache; a warning when it could not (the next dry run then reads every file again). */
  save(): string | undefined {
    // A dry run over a folder with no store yet creates none.
    if (!fs.existsSync(this.storeRoot)) return undefined;
    const failed = this.cache.save((key) => key.slice(key.indexOf('|') + 1));
    return failed && `what this dry run learned was not saved (${failed}); the next one reads every conversation again`;
  }

  private key(file: string): string {
    return `${this.salt}|${file}`;
  }
}

function isMeasurement(value: unknown): value is Measurement {
  if (!value || typeof value !== 'object') return false;
  const m = value as Record<string, unknown>;
  if (typeof m.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(m.sha256)) return false;
  if (m.binary !== undefined && typeof m.binary !== 'string') return false;
  if (m.imported === undefined) return true;
  const i = m.imported as Record<string, unknown>;
  return (
    !!i &&
    typeof i.id === 'string' &&
    typeof i.format === 'string' &&
    typeof i.turns === 'number' &&
    typeof i.renderedBytes === 'number' &&
    ['started', 'title', 'unrecognized'].every((k) => i[k] === undefined || typeof i[k] === 'string')
  );
}
