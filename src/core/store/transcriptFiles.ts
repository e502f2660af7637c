/**
 * The store's transcripts/: one rendered, redacted §2.1 transcript per harvested conversation,
 * kept after its raw file is reclaimed so that every `[from: …]` still leads to the words it came
 * from. The files are immutable: named from the conversation's start (UTC), id and title, written
 * once, atomically (a complete temporary file, fsynced, renamed), and never replaced; the `raw_sha256` in the frontmatter says which
 * raw file a transcript was rendered from, so a re-run after a crash recognises its own file.
 */
import * as fs from 'node:fs';
import { removeNoFollow, renameNoFollow } from '../base/storeLinks';
import * as path from 'node:path';
import { clockBase } from '../model/transcriptSyntax';
import { crashPoint } from '../base/crashPoints';
import { redactName } from '../model/safety/redact';
import { fsyncDirectory, writeTempBeside } from '../base/atomicWrite';
import { listNames, walkTree } from '../base/walkTree';
import { isInside, resolveInStore, type StorePaths } from './storePaths';
import { openStoreFile } from '../base/readText';

/** The folder under the store root (see StorePaths.transcripts). */
export const TRANSCRIPTS_DIR = 'transcripts';

/** Longest id and slug kept in a file name (a path should stay readable and short on Windows). */
const MAX_NAME_ID = 60;
const MAX_SLUG = 40;

/** What names a transcript file. */
export interface TranscriptNaming {
  id: string;
  title?: string;
  /** ISO timestamp of the conversation's start (or, when it has none, of its file). */
  started: string;
}

/** ASCII letters, digits, `.`, `_`, `-` only: valid on every file system, no `:` for Windows. */
function fileNamePart(text: string, max: number): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const cut = ascii
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/[-.]{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, max);
  return cut.replace(/[-.]+$/, '');
}

/** A short lowercase slug of a title, cut at a word boundary; '' when the title has no ASCII word. */
export function titleSlug(title: string): string {
  const words = fileNamePart(title.toLowerCase().replace(/[._]+/g, ' '), 200).split('-').filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG) break;
    slug = next;
  }
  return slug || (words[0] ?? '').slice(0, MAX_SLUG);
}

/**
 * The store-relative path of a conversation's transcript:
 * `transcripts/YYYY/MM/DD/HHMM-<id>-<slug>.md`, the date and time being the start in UTC (a
 * timestamp without a zone is taken as written, as the transcript's own headings are).
 */
export function transcriptRelativePath(naming: TranscriptNaming): string {
  const base = clockBase(naming.started) ?? clockBase(new Date(0).toISOString())!;
  const day = new Date(base.dayMs).toISOString().slice(0, 10).split('-');
  const hhmm = `${String(Math.floor(base.minutes / 60)).padStart(2, '0')}${String(base.minutes % 60).padStart(2, '0')}`;
  // Redacted before the slug lower-cases and cuts them (a lower-cased key is one no rule knows).
  const id = fileNamePart(redactName(naming.id), MAX_NAME_ID) || 'conversation';
  // A title that is only the id (the renderer's fallback) adds nothing to the name.
  const slug = naming.title && naming.title !== naming.id ? titleSlug(redactName(naming.title)) : '';
  const name = slug ? `${hhmm}-${id}-${slug}.md` : `${hhmm}-${id}.md`;
  return [TRANSCRIPTS_DIR, ...day, name].join('/');
}

/**
 * The same path for a different raw file that would take an existing transcript's name (a live
 * session harvested again once it grew keeps its id, start and title).
 */
export function alternateTranscriptPath(relative: string, rawSha256: string): string {
  return relative.replace(/\.md$/, `-${rawSha256.slice(0, 12)}.md`);
}

/** The `raw_sha256` of a stored transcript, '' when it has none, undefined when there is no file. */
export function storedTranscriptSha(file: string): string | undefined {
  let head: string;
  try {
    const fd = openStoreFile(file);
    try {
      const buffer = Buffer.alloc(4096);
      head = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return /^raw_sha256: ([0-9a-f]{64})[ \t]*$/m.exec(head)?.[1] ?? '';
}

/** Thrown when a transcript's name is taken by the transcript of another raw file. */
export class TranscriptTakenError extends Error {
  constructor(readonly file: string) {
    super(
      `${file} already holds the transcript of another conversation; Lore never replaces a stored transcript (harvest again to plan a free name)`,
    );
    this.name = 'TranscriptTakenError';
  }
}

/** A transcript to write: store-relative path, text, sha256 of its raw file. */
export interface TranscriptWrite {
  file: string;
  text: string;
  sha256: string;
}

/**
 * Writes the transcripts that are not already there (the same raw file's, from a run that crashed
 * after writing it); returns the store-relative paths written. Runs under the store lock. Each
 * is complete and durable before this returns, as with writeFileAtomic, but in three passes
 * (write every temporary file, fsync each, rename each, then fsync each folder once): a harvest
 * keeps hundreds at a time, and an fsync right after each write waited for each alone.
 */
export function writeTranscriptsOnce(paths: StorePaths, transcripts: readonly TranscriptWrite[]): string[] {
  const pending: Array<{ file: string; tmp?: string; relative: string; data: Buffer }> = [];
  for (const t of transcripts) {
    const file = resolveInStore(paths, t.file);
    if (!isInside(paths.transcripts, file) || file === paths.transcripts)
      throw new Error(`refusing to write a transcript outside ${TRANSCRIPTS_DIR}/: ${t.file}`);
    const existing = storedTranscriptSha(file);
    if (existing === t.sha256 || pending.some((p) => p.file === file)) continue;
    if (existing !== undefined) throw new TranscriptTakenError(file);
    pending.push({ file, relative: t.file, data: Buffer.from(t.text, 'utf8') });
  }
  const dirs = new Set<string>();
  try {
    for (const p of pending) {
      const dir = path.dirname(p.file);
      if (!fs.existsSync(dir)) for (let d = dir; d !== paths.root && !fs.existsSync(d); d = path.dirname(d)) dirs.add(path.dirname(d));
      const stalePrefix = `.${path.basename(p.file)}.`;
      for (const name of listNames(dir))
        if (name.startsWith(stalePrefix) && name.endsWith('.tmp')) removeNoFollow(path.join(dir, name), { force: true });
      p.tmp = writeTempBeside(p.file, p.data, false);
    }
    for (const p of pending) {
      const fd = openStoreFile(p.tmp!);
      try {
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      crashPoint(`wrote ${path.basename(p.tmp!)}`);
    }
    for (const p of pending) {
      renameNoFollow(p.tmp!, p.file);
      p.tmp = undefined;
      dirs.add(path.dirname(p.file));
    }
  } finally {
    for (const p of pending) if (p.tmp) removeNoFollow(p.tmp, { force: true });
  }
  // Deepest first: a new day folder's entry in its month folder is made durable after its files.
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) fsyncDirectory(dir);
  if (pending.length) crashPoint('renamed transcripts');
  return pending.map((p) => p.relative);
}

/** One transcript (see writeTranscriptsOnce); whether it was written. */
export function writeTranscriptOnce(paths: StorePaths, relative: string, text: string, rawSha256: string): boolean {
  return writeTranscriptsOnce(paths, [{ file: relative, text, sha256: rawSha256 }]).length === 1;
}

/** How many transcripts the store keeps and their total size, for the Knowledge view. */
export function transcriptStats(paths: StorePaths): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  walkTree(paths.transcripts, {
    maxDepth: 4,
    enter: (entry) => !entry.name.startsWith('.'),
    file: (entry, full) => {
      if (!entry.isFile() || !entry.name.endsWith('.md') || entry.name.startsWith('.')) return;
      const size = fs.statSync(full, { throwIfNoEntry: false })?.size;
      if (size === undefined) return;
      count++;
      bytes += size;
    },
  });
  return { count, bytes };
}
