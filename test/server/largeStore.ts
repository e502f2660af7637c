/**
 * A large synthetic workspace with a store for the scale test and bench/serverBench.ts: `files`
 * workspace files in folders of 100, each with a note file of `notesPerFile` notes, written in
 * core's note-file format (core's renderNoteFile/metaFor; going through addNotesToFile would
 * list the whole store for every file).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { noteLine } from '../../src/core/model/itemLines';
import { metaFor } from '../../src/core/store/fileNotes';
import { fileIdOf, type FileIdentity } from '../../src/core/base/fileIdentity';
import { noteFileNameOf, noteIdForPath } from '../../src/core/model/noteFile';
import { renderNoteFile } from '../../src/core/model/noteFile';
import { storePaths, type StorePaths } from '../../src/core/store/storePaths';

export interface LargeStore {
  ws: string;
  paths: StorePaths;
  /** Workspace-relative path of file i. */
  relative(i: number): string;
  noteLines: number;
}

export function largeStoreFile(i: number): string {
  return `pkg${String(Math.floor(i / 100)).padStart(3, '0')}/mod${String(i % 100).padStart(2, '0')}.ts`;
}

/** What a generated note says, when the default text will not do (e.g. words a search bench queries). */
export interface LargeStoreText {
  /** The text of note `note` of file `file`. */
  note(file: number, note: number): string;
  /** How many notes file `file` has (`notesPerFile` when absent). */
  notesOf?(file: number): number;
}

/** Writes the workspace and store under `ws` (which must be empty or missing). */
export function generateLargeStore(ws: string, files: number, notesPerFile: number, text?: LargeStoreText): LargeStore {
  let noteLines = 0;
  const paths = storePaths(path.join(ws, '.lore'), ws);
  fs.mkdirSync(paths.files, { recursive: true });
  for (let i = 0; i < files; i++) {
    const relative = largeStoreFile(i);
    const file = path.join(ws, relative);
    if (i % 100 === 0) fs.mkdirSync(path.dirname(file), { recursive: true });
    const body = Array.from({ length: 40 }, (_, l) => `export const v${l} = ${i * 40 + l}; // line ${l} of module ${i}`).join('\n') + '\n';
    fs.writeFileSync(file, body);
    // What core's identifyFile computes, without re-reading the file we just wrote.
    const id = fileIdOf(fs.statSync(file, { bigint: true }));
    const identity: FileIdentity = {
      id,
      size: Buffer.byteLength(body),
      fingerprint: `sha256:${createHash('sha256').update(body).digest('hex')}`,
    };
    const count = text?.notesOf?.(i) ?? notesPerFile;
    noteLines += count;
    const lines = Array.from({ length: count }, (_, n) =>
      noteLine(text ? text.note(i, n) : `Module ${i} note ${n}: keep v${n} in sync with the cache layer and the harvest plan`, {
        source: `conv-${(i * 7 + n) % 997}`,
        date: `2026-${String((n % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      }),
    );
    const noteFile = path.join(paths.files, noteFileNameOf(noteIdForPath(relative)));
    fs.writeFileSync(noteFile, renderNoteFile(metaFor(noteFile, relative, identity), `# ${relative}\n\n${lines.join('\n')}\n`));
  }
  return { ws, paths, relative: largeStoreFile, noteLines };
}
