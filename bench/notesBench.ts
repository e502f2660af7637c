/**
 * Per-file notes on a store of 10,000 note files (100,000 note lines), against the cost of one
 * note file's read + parse measured in the same run, interleaved (a lookup or a heal should cost
 * what one file's work costs, not the store's); a heal writes facts.md durably and removes a note
 * file, so it is also compared with one durable atomic write of a file of facts.md's size:
 *  1. the notes of a file that has none, with the index open (the server, a harvest plan) and in
 *     a one-shot process that opens the persisted index first (the CLI, MCP, a hook);
 *  2. the heal after one deletion (notes to facts.md), on the live index (what the language server
 *     does for lore/didDeleteFiles) and in a one-shot process;
 *  3. for reference, what the same work cost before the index: parsing every note file (a miss)
 *     and the whole-store heal the extension host ran on every deletion.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { noteLine } from '../src/core/model/itemLines';
import { findNotesForFile, healDeletedFiles, healNotes, listNoteFiles, metaFor, newNoteFile } from '../src/core/store/fileNotes';
import { writeFileAtomic } from '../src/core/base/atomicWrite';
import { identifyFile } from '../src/core/base/fileIdentity';
import { parseNoteFile, renderNoteFile } from '../src/core/model/noteFile';
import { openNoteIndex } from '../src/core/store/noteIndexCache';
import { storePaths, type StorePaths } from '../src/core/store/storePaths';
import { generateLargeStore, largeStoreFile } from '../test/server/largeStore';
import {
  baselineOf,
  formatNumber,
  makeResult,
  repeat,
  repeatInterleaved,
  scratchDir,
  type BenchContext,
  type BenchResult,
} from './benchSupport';
import { sleepSync } from '../src/core/base/fileVersion';

const FILES = 10_000;
const NOTES_PER_FILE = 10;
const REPS = 40;
const SPEC = `${FILES} files × ${NOTES_PER_FILE} notes v1`;
/** A lookup or heal on an open index: at most this many single-note-file read+parses. */
const LIVE_RATIO_TARGET = 3;

/** The generated workspace, kept in .bench/ between runs; the heal cases restore what they delete. */
function workspace(ctx: BenchContext): string {
  const ws = path.join(scratchDir(ctx, 'notes-store'), 'ws');
  const marker = path.join(ws, '.spec');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === SPEC) return ws;
  fs.rmSync(ws, { recursive: true, force: true });
  ctx.log(`notes: generating ${FILES} files with ${FILES * NOTES_PER_FILE} note lines`);
  generateLargeStore(ws, FILES, NOTES_PER_FILE);
  fs.writeFileSync(path.join(ws, 'plain.ts'), 'export const plain = true; // a file without notes\n');
  fs.writeFileSync(marker, SPEC);
  return ws;
}

/** (Re)creates workspace file `relative` with one note, as a harvest would have left it. */
function restore(paths: StorePaths, relative: string): string {
  const absolute = path.join(paths.workspace, relative);
  fs.writeFileSync(absolute, `export const restored = ${JSON.stringify(relative)};\n`);
  const identity = identifyFile(absolute)!;
  const body = `# ${relative}\n\n${noteLine(`note of ${relative}`, { source: 'bench', date: '2026-11-24' })}\n`;
  const noteFile = newNoteFile(paths, relative);
  fs.writeFileSync(noteFile, renderNoteFile(metaFor(noteFile, relative, identity), body));
  return absolute;
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const ws = workspace(ctx);
  const paths = storePaths(path.join(ws, '.lore'), ws);
  const plain = path.join(ws, 'plain.ts');
  const oneNoteFile = findNotesForFile(paths, path.join(ws, largeStoreFile(4321)))!.file;
  const victim = largeStoreFile(777);
  let victimAbs = restore(paths, victim);
  const live = openNoteIndex(paths);
  const results: BenchResult[] = [];

  const readParse = { fn: () => parseNoteFile(fs.readFileSync(oneNoteFile, 'utf8')) };
  // Before each heal: put the victim and its note back, then delete the file (not timed).
  const deleteVictim = () => {
    victimAbs = restore(paths, victim);
    live.refreshSync([path.basename(findNotesForFile(paths, victimAbs, { index: live })!.file)]);
    fs.rmSync(victimAbs);
  };
  let orphaned = 0;
  // The generated store may have no facts.md yet (the heals create it); the write's cost is its fsyncs either way.
  const factsText = fs.existsSync(path.join(paths.root, 'facts.md')) ? fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8') : '';
  const scratchFile = path.join(scratchDir(ctx, 'notes-write'), 'facts.md');
  const [baseline, durableWrite, missLive, missOneShot, healLive, healOneShot] = await repeatInterleaved(REPS, [
    readParse,
    { fn: () => writeFileAtomic(scratchFile, factsText) },
    { fn: () => findNotesForFile(paths, plain, { index: live }) },
    // Opening the index first, as a CLI process does; nothing changed the store since the last open.
    // The heal cases change files/ just before: past the index's racy window the open saves a
    // trusted state, as it would for a hook that runs a moment after the last write.
    {
      setup: () => {
        sleepSync(150);
        openNoteIndex(paths);
      },
      fn: () => findNotesForFile(paths, plain, { index: openNoteIndex(paths) }),
    },
    { setup: deleteVictim, fn: () => (orphaned += healDeletedFiles(paths, [victimAbs], live).orphaned.length) },
    // The heal before it changed files/, so this open re-lists the folder (one stat per note file).
    { setup: deleteVictim, fn: () => (orphaned += healDeletedFiles(paths, [victimAbs], openNoteIndex(paths)).orphaned.length) },
  ]);
  const base = baselineOf('read + parse one note file', 'ms', baseline.wall);
  const write = baselineOf('durable atomic write of facts.md', 'ms', durableWrite.wall);
  results.push(
    makeResult({
      name: 'lookup, file without notes, index open',
      unit: 'ms',
      samples: missLive.wall,
      baseline: base,
      target: { on: 'ratio', op: '<=', threshold: LIVE_RATIO_TARGET },
      notes: [`${live.size} note files indexed`],
    }),
    makeResult({
      name: 'lookup, file without notes, one-shot process (open persisted index + lookup)',
      unit: 'ms',
      samples: missOneShot.wall,
      baseline: base,
    }),
    makeResult({ name: 'heal after one deletion, live index (language server)', unit: 'ms', samples: healLive.wall, baseline: base }),
    makeResult({
      name: 'heal after one deletion, live index, vs one durable write',
      unit: 'ms',
      samples: healLive.wall,
      baseline: write,
      target: { on: 'ratio', op: '<=', threshold: LIVE_RATIO_TARGET },
    }),
    makeResult({
      name: 'heal after one deletion, one-shot process (re-lists files/)',
      unit: 'ms',
      samples: healOneShot.wall,
      baseline: base,
      notes: [`${orphaned} of ${REPS * 2} heals moved notes to facts.md (expected all)`],
    }),
  );

  // Before the index: a miss parsed every note file; a deletion ran the whole-store heal.
  const parseAll = await repeat(3, () => listNoteFiles(paths));
  results.push(
    makeResult({ name: 'reference: parse every note file (a miss before the index)', unit: 'ms', samples: parseAll, baseline: base }),
  );
  const fullHeal = await repeat(2, () => healNotes(paths), deleteVictim);
  results.push(
    makeResult({
      name: 'reference: whole-store heal after one deletion (the extension host before)',
      unit: 'ms',
      samples: fullHeal,
      baseline: base,
      notes: [`median ${formatNumber(fullHeal[0])}/${formatNumber(fullHeal[1])} ms`],
    }),
  );
  restore(paths, victim);
  return results;
}
