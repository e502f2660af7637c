/**
 * Incremental index update, the same for both engines: a source whose mtime and size match what
 * the index recorded is skipped without reading it; otherwise it is read and hashed, and only a
 * changed hash re-extracts its documents. Vanished sources are dropped. Nothing is written when
 * nothing changed, so a refresh before every query is a stat scan and no lock.
 */
import * as fs from 'node:fs';
import type { StorePaths } from '../store/storePaths';
import { contentHash, extractDocs } from './extractDocs';
import type { LexicalBackend, SourceState } from './lexicalBackend';
import type { UpdateReport } from './searchTypes';
import { classifySource, statSource, visitSourceFiles, type SourceFileInfo } from './sourceFiles';
import { clearFrontmatterCache } from '../util/yamlFrontmatter';

/** Conversation files larger than this are not indexed (they are recorded so they are not re-read). */
const DEFAULT_MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024;

/**
 * A file modified this recently may be modified again within the same mtime tick without its
 * size changing; its mtime is not trusted (recorded as -1) so the next update compares content.
 * This is git's "racily clean" rule.
 */
const RACY_MS = 1000;

export interface SyncOptions {
  /** Update only these files (store-relative or absolute), e.g. from a file watcher. */
  only?: string[];
  /** Index conversations of inbox/ and archive/ (default true). */
  transcripts?: boolean;
  maxTranscriptBytes?: number;
}

/** Brings the backend up to date with the store's files. */
export function syncIndex(backend: LexicalBackend, paths: StorePaths, options: SyncOptions = {}): Omit<UpdateReport, 'embedded'> {
  const started = performance.now();
  const report: Omit<UpdateReport, 'embedded'> = { scanned: 0, indexed: [], removed: [], rehashed: 0, unchanged: 0, errors: [], docs: 0, ms: 0 };
  const states = backend.sourceStates();
  const changed: SourceFileInfo[] = [];
  const removed: string[] = [];
  if (options.only) {
    for (const file of options.only) {
      const info = statSource(paths, file);
      if (info) {
        if (info.kind === 'transcript' && options.transcripts === false) continue;
        report.scanned++;
        if (!isUnchanged(states.get(info.rel), info.mtimeMs, info.size)) changed.push(info);
        continue;
      }
      const known = classifySource(paths, file);
      if (known && states.has(known.rel)) removed.push(known.rel);
    }
  } else {
    let known = 0;
    const seen: string[] = [];
    visitSourceFiles(paths, { transcripts: options.transcripts }, (rel, abs, kind, category, mtimeMs, size) => {
      report.scanned++;
      seen.push(rel);
      const state = states.get(rel);
      if (state) known++;
      if (!isUnchanged(state, mtimeMs, size)) changed.push({ rel, abs, kind, category, mtimeMs, size });
    });
    // Every indexed source was seen (the usual case): no need to look for vanished ones.
    if (known < states.size) {
      const present = new Set(seen);
      for (const rel of states.keys()) if (!present.has(rel)) removed.push(rel);
    }
  }
  report.unchanged = report.scanned - changed.length;
  if (changed.length > 0 || removed.length > 0) {
    const maxBytes = options.maxTranscriptBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES;
    const now = Date.now();
    backend.transaction(() => {
      // Another process may have updated the index since the states were read outside the lock.
      const current = backend.sourceStates();
      for (const file of changed) applyFile(backend, file, current.get(file.rel), { maxBytes, now }, report);
      for (const rel of removed) {
        if (!current.has(rel)) continue;
        backend.removeSource(rel);
        report.removed.push(rel);
      }
    });
  }
  // Whatever gray-matter cached while notes were parsed goes (a leak in a long-running process otherwise).
  if (changed.some((f) => f.kind === 'notes')) clearFrontmatterCache();
  report.docs = backend.count();
  report.indexed.sort();
  report.removed.sort();
  report.ms = performance.now() - started;
  return report;
}

/** A source whose recorded mtime and size still hold is not read again (primitives: no object per file). */
function isUnchanged(state: SourceState | undefined, mtimeMs: number, size: number): boolean {
  return state !== undefined && state.mtimeMs === mtimeMs && state.size === size;
}

function applyFile(
  backend: LexicalBackend,
  file: SourceFileInfo,
  previous: SourceState | undefined,
  limits: { maxBytes: number; now: number },
  report: Omit<UpdateReport, 'embedded'>,
): void {
  if (isUnchanged(previous, file.mtimeMs, file.size)) {
    report.unchanged++;
    return;
  }
  let data: Buffer;
  try {
    data = fs.readFileSync(file.abs);
  } catch (error) {
    report.errors.push({ file: file.rel, message: (error as Error).message });
    return;
  }
  const state: SourceState = {
    rel: file.rel,
    mtimeMs: limits.now - file.mtimeMs < RACY_MS ? -1 : file.mtimeMs,
    size: data.length === file.size ? file.size : -1,
    hash: contentHash(data),
  };
  if (previous && previous.hash === state.hash) {
    backend.setSourceState(state);
    report.rehashed++;
    return;
  }
  if (file.kind === 'transcript' && data.length > limits.maxBytes) {
    // Recorded with no documents, so the file is not read again until it changes.
    backend.replaceSource(state, []);
    report.errors.push({ file: file.rel, message: `not indexed: ${data.length} bytes is over the ${limits.maxBytes}-byte limit for conversations` });
    return;
  }
  let docs;
  try {
    docs = extractDocs(file, data.toString('utf8'));
  } catch (error) {
    // A parser bug must not stop the update; the file keeps its previous documents.
    report.errors.push({ file: file.rel, message: (error as Error).message });
    return;
  }
  // Engine errors (disk full, corruption) propagate: the caller rebuilds or falls back.
  backend.replaceSource(state, docs);
  report.indexed.push(file.rel);
}
