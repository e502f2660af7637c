/**
 * Language-server benchmarks on a workspace of 10,000 noted files holding 100,000 note lines:
 *  1. code-lens (provide + resolve) and hover latency for one open file, p50 and p99 over 1,000
 *     requests each, against one bigint fs.stat of the same file measured in the same run (the
 *     floor: a lookup cannot do less than stat the file);
 *  2. the same requests end to end over stdio against the real bundle `dist/server.js`, with a
 *     no-op request as the transport floor (JSON-RPC framing, pipes, two event loops);
 *  3. the server's startup (index of 10,000 note files) and its resident memory at that size.
 * With LORE_BENCH_LARGE=1 the same on the shared store of 100,000 files (bench/store100k.ts), the
 * requests against the same at 10,000 files (flat as the store grows 10×) and the server's memory
 * against the reference memory server holding the same items.
 * The handler figures are measured in-process on the same modules the bundle is built from, so
 * they show what the server does per request without the pipe in between.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CodeLensRequest, CodeLensResolveRequest, HoverRequest, type CodeLens } from 'vscode-languageserver-protocol/node';
import { storePaths, type StorePaths } from '../src/core/store/storePaths';
import { provideNotesHover } from '../src/server/hover';
import { LoreServer } from '../src/server/loreServer';
import { FileDecorationsRequest } from '../src/shared/protocol';
import { generateLargeStore, largeStoreFile } from '../test/server/largeStore';
import { LspTestClient, uriOf } from '../test/server/lspClient';
import {
  MIB,
  baselineOf,
  formatNumber,
  makeResult,
  percentile,
  residentMiB,
  scratchDir,
  type BenchContext,
  type BenchResult,
} from './benchSupport';
import { referenceAt100k, versusReferenceMemory } from './searchBench';
import { OPEN_FILE, largeRequested, largeStore } from './store100k';

const FILES = 10_000;
const NOTES_PER_FILE = 10;
const REQUESTS = 1000;
const WARMUP = 500;
/** "Within a few times the floor": p99 of a handler at most this many fs.stat p99s. */
const HANDLER_RATIO_TARGET = 5;
/** End to end, a request should cost about one transport round trip: p99 at most this many no-op p99s. */
const TRANSPORT_RATIO_TARGET = 2;
/** Flat as the store grows 10×: a request at 100,000 files at most this many times the same at 10,000 (p50). */
const FLAT_RATIO_TARGET = 1.5;
const SPEC = `${FILES} files × ${NOTES_PER_FILE} notes v1`;

/** The generated workspace, kept in .bench/ between runs (generation takes seconds on slow disks). */
function workspace(ctx: BenchContext): string {
  const ws = path.join(scratchDir(ctx, 'server-store'), 'ws');
  const marker = path.join(ws, '.spec');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === SPEC) return ws;
  fs.rmSync(ws, { recursive: true, force: true });
  ctx.log(`server: generating ${FILES} files with ${FILES * NOTES_PER_FILE} note lines`);
  generateLargeStore(ws, FILES, NOTES_PER_FILE);
  fs.writeFileSync(marker, SPEC);
  return ws;
}

/**
 * Microseconds of each of `n` rounds of every function, after `warmup` unmeasured rounds. The
 * functions take turns within a round so that a figure and its floor see the same machine load
 * (these machines are shared: a p99 measured minutes apart from its floor compares nothing).
 */
async function interleaved(n: number, warmup: number, fns: Array<() => unknown>): Promise<number[][]> {
  const out = fns.map(() => [] as number[]);
  for (let i = 0; i < warmup + n; i++) {
    for (let f = 0; f < fns.length; f++) {
      const start = process.hrtime.bigint();
      await fns[f]();
      if (i >= warmup) out[f].push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  return out;
}

/** p50 and p99 results of one series against the matching percentiles of a baseline series. */
function percentiles(name: string, samples: number[], floorName: string, floor: number[], ratioTarget?: number): BenchResult[] {
  return [50, 99].map((p) =>
    makeResult({
      name: `${name} p${p}`,
      unit: 'µs',
      samples: [percentile(samples, p)],
      baseline: baselineOf(`${floorName} p${p}`, 'µs', [percentile(floor, p)]),
      target: p === 99 && ratioTarget !== undefined ? { on: 'ratio', op: '<=', threshold: ratioTarget } : undefined,
    }),
  );
}

/** A workspace to measure: its store, the file the requests are about and a label for the figures. */
interface Workspace {
  ws: string;
  paths: StorePaths;
  file: string;
  notesInFile: number;
  /** Noted files and note lines, for the figures' names and notes. */
  files: number;
  noteLines: number;
  /** Appended to the names of the figures; none for the 10,000-file store (their names predate the others). */
  label?: string;
}

/** The figures of one workspace, and the series the 10,000- and 100,000-file stores are compared on. */
interface Measured {
  results: BenchResult[];
  lens: number[];
  hover: number[];
  memory?: { now: number; peak: number };
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const ws = workspace(ctx);
  const small = await measure({
    ws,
    paths: storePaths(path.join(ws, '.lore'), ws),
    file: path.join(ws, largeStoreFile(OPEN_FILE)),
    notesInFile: NOTES_PER_FILE,
    files: FILES,
    noteLines: FILES * NOTES_PER_FILE,
  });
  const results = small.results;
  if (small.memory) {
    results.push(
      makeResult({
        name: 'server RSS at 10,000 files / 100,000 notes',
        unit: 'MiB',
        samples: [small.memory.now],
        target: { on: 'value', op: '<', threshold: 150 },
        notes: [`peak ${formatNumber(small.memory.peak)} MiB, after ${(REQUESTS + WARMUP) * 10} requests`],
      }),
    );
  }
  if (!largeRequested(ctx, 'server')) return results;

  const store = largeStore(ctx);
  const large = await measure({
    ws: store.ws,
    paths: store.paths,
    file: store.openFile,
    notesInFile: store.openFileNotes,
    files: store.notedFiles,
    noteLines: store.noteLines,
    label: '100,000 files',
  });
  results.push(...large.results);
  // Flat as the store grows 10×: what a request costs depends on the open file, not on the store.
  for (const [name, at100k, at10k] of [
    ['code lens provide+resolve, in-process', large.lens, small.lens],
    ['hover, in-process', large.hover, small.hover],
  ] as const) {
    for (const p of [50, 99])
      results.push(
        makeResult({
          name: `${name} p${p}, 100,000 files vs 10,000`,
          unit: 'µs',
          samples: [percentile(at100k, p)],
          baseline: baselineOf(`the same at 10,000 files, p${p}`, 'µs', [percentile(at10k, p)]),
          target: p === 50 ? { on: 'ratio', op: '<=', threshold: FLAT_RATIO_TARGET } : undefined,
        }),
      );
  }
  if (large.memory) {
    const row = versusReferenceMemory(
      `server RSS at 100,000 files / ${formatNumber(store.noteLines)} notes`,
      large.memory,
      await referenceAt100k(ctx),
    );
    if (small.memory) row.notes = [...(row.notes ?? []), `${formatNumber(small.memory.now)} MiB at 10,000 files in this run`];
    results.push(row);
  }
  return results;
}

async function measure(w: Workspace): Promise<Measured> {
  const suffix = w.label ? `, ${w.label}` : '';
  const files = formatNumber(w.files);
  const results: BenchResult[] = [];

  // 1. In-process handlers.
  const server = new LoreServer(w.paths, { notesChanged: () => undefined, refreshCodeLenses: () => undefined, log: () => undefined });
  const heapBefore = process.memoryUsage().heapUsed;
  const buildStart = process.hrtime.bigint();
  await server.start();
  const buildMs = Number(process.hrtime.bigint() - buildStart) / 1e6;
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / MIB;
  const uri = uriOf(w.file);
  // The floor: one bigint stat of the open file, as the lookup does first.
  const [stat, lens, hover] = await interleaved(REQUESTS, WARMUP, [
    () => fs.statSync(w.file, { bigint: true }),
    () => server.lenses.provide(uri, w.file).map((l) => server.lenses.resolve(l)),
    () => provideNotesHover(server.notes, w.file, 0),
  ]);
  const lensCount = server.lenses.provide(uri, w.file).length;
  const indexed = server.index.size;
  server.dispose();
  results.push(...percentiles(`code lens provide+resolve, in-process${suffix}`, lens, 'fs.stat', stat, HANDLER_RATIO_TARGET));
  results.push(...percentiles(`hover, in-process${suffix}`, hover, 'fs.stat', stat, HANDLER_RATIO_TARGET));
  results[0].notes = [
    `${lensCount} lenses per request (summary + 5 conversations + "more"); ${w.notesInFile} notes in the file; ${indexed} note files indexed`,
  ];
  results.push(
    makeResult({
      name: `index build, in-process${suffix}`,
      unit: 'ms',
      samples: [buildMs],
      notes: [`${files} note files, ${formatNumber(w.noteLines)} note lines; heap growth ${formatNumber(heapMiB)} MiB`],
    }),
  );

  // 2. End to end over stdio against dist/server.js.
  const started = process.hrtime.bigint();
  // The requests change no file: nothing to forward, and 100,000 files would exceed the inotify watches.
  const client = await LspTestClient.start({ storeRoot: w.paths.root, workspaceRoot: w.ws }, { watchFiles: false });
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  try {
    const ready = residentMiB(client.child.pid!);
    const docUri = await client.open(w.file);
    const [noop, e2eProvide, e2eLens, e2eHover] = await interleaved(REQUESTS, WARMUP, [
      () => client.connection.sendRequest(FileDecorationsRequest.type, { paths: [] }),
      () => client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: docUri } }),
      async () => {
        const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: docUri } })) ?? [];
        await Promise.all(lenses.map((l: CodeLens) => client.connection.sendRequest(CodeLensResolveRequest.type, l)));
      },
      () => client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: docUri }, position: { line: 0, character: 0 } }),
    ]);
    const memory = residentMiB(client.child.pid!);
    results.push(...percentiles(`code lens provide, over stdio${suffix}`, e2eProvide, 'no-op request', noop, TRANSPORT_RATIO_TARGET));
    results.push(...percentiles(`code lens provide + 7 resolves, over stdio${suffix}`, e2eLens, 'no-op request', noop));
    results.push(...percentiles(`hover, over stdio${suffix}`, e2eHover, 'no-op request', noop, TRANSPORT_RATIO_TARGET));
    results.push(
      makeResult({
        name: `no-op request over stdio p50 (transport floor)${suffix}`,
        unit: 'µs',
        samples: [percentile(noop, 50)],
        baseline: baselineOf('fs.stat p50', 'µs', [percentile(stat, 50)]),
        notes: [`p99 ${formatNumber(percentile(noop, 99))} µs; fs.stat p99 ${formatNumber(percentile(stat, 99))} µs`],
      }),
    );
    results.push(
      makeResult({
        name: `server ready (spawn + index of ${files} note files)`,
        unit: 'ms',
        samples: [readyMs],
        ...(ready ? { notes: [`RSS ${formatNumber(ready.now)} MiB right after the index build`] } : {}),
      }),
    );
    return { results, lens, hover, memory };
  } finally {
    await client.stop();
  }
}
