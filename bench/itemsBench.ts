/**
 * Finding an item by its id (agents' change_item and search by ids) on a store of 10,000
 * note files (100,000 note lines) and a facts.md of 20,000 items. Ids are not written into the
 * files, so the first lookup in a process hashes every item line (a one-shot CLI process, the
 * MCP server's first call); later ones re-hash only the files that changed, and stat the rest.
 * Baselines, interleaved in the same run: reading the same files as text (what a first lookup
 * must at least do), and one stat per file (what a later one must at least do).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemId } from '../src/core/model/itemId';
import { findItemsById } from '../src/core/store/items/itemLocator';
import { noteLine } from '../src/core/model/itemLines';
import { isNoteFileName } from '../src/core/model/noteFile';
import { storePaths } from '../src/core/store/storePaths';
import { generateLargeStore, largeStoreFile } from '../test/server/largeStore';
import { baselineOf, makeResult, repeatInterleaved, scratchDir, type BenchContext, type BenchResult } from './benchSupport';

const FILES = 10_000;
const NOTES_PER_FILE = 10;
const FACTS = 20_000;
const REPS = 7;
const SPEC = `${FILES} files × ${NOTES_PER_FILE} notes + ${FACTS} facts v1`;
/** A lookup should cost a small multiple of reading the files it has to read. */
const RATIO_TARGET = 4;

function workspace(ctx: BenchContext): string {
  const ws = path.join(scratchDir(ctx, 'items-store'), 'ws');
  const marker = path.join(ws, '.spec');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === SPEC) return ws;
  fs.rmSync(ws, { recursive: true, force: true });
  ctx.log(`items: generating ${FILES} note files and ${FACTS} facts`);
  const { paths } = generateLargeStore(ws, FILES, NOTES_PER_FILE);
  const facts = Array.from(
    { length: FACTS },
    (_, i) => `- fact ${i} about the order service and its retries [from: c${i % 500}, 2026-11-20]`,
  );
  fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${facts.join('\n')}\n`);
  fs.writeFileSync(marker, SPEC);
  return ws;
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const ws = workspace(ctx);
  const paths = storePaths(path.join(ws, '.lore'), ws);
  // A note of the last file, with the source and date largeStore gives it: found after every other file.
  const last = FILES - 1;
  const line = noteLine(`Module ${last} note 3: keep v3 in sync with the cache layer and the harvest plan`, {
    source: `conv-${(last * 7 + 3) % 997}`,
    date: `2026-04-${String((last % 28) + 1).padStart(2, '0')}`,
  });
  const id = itemId(line);
  const files = [
    path.join(paths.root, 'facts.md'),
    ...fs
      .readdirSync(paths.files)
      .filter(isNoteFileName)
      .map((n) => path.join(paths.files, n)),
  ];
  let found = 0;
  const [read, stats, lookup] = await repeatInterleaved(REPS, [
    { fn: () => files.reduce((n, f) => n + fs.readFileSync(f, 'utf8').length, 0) },
    { fn: () => files.reduce((n, f) => n + fs.statSync(f, { bigint: true }).size, 0n) },
    { fn: () => (found += findItemsById(paths, id).length) },
  ]);
  const notes = [`${files.length} files, ${FILES * NOTES_PER_FILE + FACTS} items; found ${found} of ${REPS} (${largeStoreFile(last)})`];
  return [
    makeResult({
      name: 'find an item by id, first lookup in the process',
      unit: 'ms',
      samples: lookup.wall.slice(0, 1),
      baseline: baselineOf('read the same files as text', 'ms', read.wall),
      notes,
    }),
    makeResult({
      name: 'find an item by id, later lookups (nothing changed)',
      unit: 'ms',
      samples: lookup.wall.slice(1),
      baseline: baselineOf('stat the same files', 'ms', stats.wall),
      target: { on: 'ratio', op: '<=', threshold: RATIO_TARGET },
    }),
  ];
}
