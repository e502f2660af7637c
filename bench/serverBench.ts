/**
 * Language-server benchmarks on a workspace of 10,000 noted files holding 100,000 note lines:
 *  1. code-lens (provide + resolve) and hover latency for one open file, p50 and p99 over 1,000
 *     requests each, against one bigint fs.stat of the same file measured in the same run (the
 *     floor: a lookup cannot do less than stat the file);
 *  2. the same requests end to end over stdio against the real bundle `dist/server.js`, with a
 *     no-op request as the transport floor (JSON-RPC framing, pipes, two event loops);
 *  3. the server's startup (index of 10,000 note files) and its resident memory at that size.
 * The handler figures are measured in-process on the same modules the bundle is built from, so
 * they show what the server does per request without the pipe in between.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CodeLensRequest, CodeLensResolveRequest, HoverRequest, type CodeLens } from 'vscode-languageserver-protocol/node';
import { storePaths } from '../src/core/store/storePaths';
import { provideNotesHover } from '../src/server/hover';
import { LoreServer } from '../src/server/loreServer';
import { FileDecorationsRequest } from '../src/shared/protocol';
import { generateLargeStore, largeStoreFile } from '../test/server/largeStore';
import { LspTestClient, uriOf } from '../test/server/lspClient';
import { MIB, baselineOf, formatNumber, makeResult, percentile, scratchDir, type BenchContext, type BenchResult } from './benchSupport';

const FILES = 10_000;
const NOTES_PER_FILE = 10;
const REQUESTS = 1000;
const WARMUP = 500;
/** "Within a few times the floor": p99 of a handler at most this many fs.stat p99s. */
const HANDLER_RATIO_TARGET = 5;
/** End to end, a request should cost about one transport round trip: p99 at most this many no-op p99s. */
const TRANSPORT_RATIO_TARGET = 2;
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

/** Resident set size of a process in MiB (Linux /proc), or undefined elsewhere. */
function rssMiB(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
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

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const ws = workspace(ctx);
  const paths = storePaths(path.join(ws, '.lore'), ws);
  const file = path.join(ws, largeStoreFile(4321));
  const results: BenchResult[] = [];

  // 1. In-process handlers.
  const server = new LoreServer(paths, { notesChanged: () => undefined, refreshCodeLenses: () => undefined, log: () => undefined });
  const heapBefore = process.memoryUsage().heapUsed;
  const buildStart = process.hrtime.bigint();
  await server.start();
  const buildMs = Number(process.hrtime.bigint() - buildStart) / 1e6;
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / MIB;
  const uri = uriOf(file);
  // The floor: one bigint stat of the open file, as the lookup does first.
  const [stat, lens, hover] = await interleaved(REQUESTS, WARMUP, [
    () => fs.statSync(file, { bigint: true }),
    () => server.lenses.provide(uri, file).map((l) => server.lenses.resolve(l)),
    () => provideNotesHover(server.notes, file, 0),
  ]);
  const lensCount = server.lenses.provide(uri, file).length;
  server.dispose();
  results.push(...percentiles('code lens provide+resolve, in-process', lens, 'fs.stat', stat, HANDLER_RATIO_TARGET));
  results.push(...percentiles('hover, in-process', hover, 'fs.stat', stat, HANDLER_RATIO_TARGET));
  results[0].notes = [
    `${lensCount} lenses per request (summary + 5 conversations + "more"); ${NOTES_PER_FILE} notes in the file; ${server.index.size} note files indexed`,
  ];
  results.push(
    makeResult({
      name: 'index build, in-process',
      unit: 'ms',
      samples: [buildMs],
      notes: [`${FILES} note files, ${FILES * NOTES_PER_FILE} note lines; heap growth ${formatNumber(heapMiB)} MiB`],
    }),
  );

  // 2. End to end over stdio against dist/server.js.
  const started = process.hrtime.bigint();
  const client = await LspTestClient.start({ storeRoot: paths.root, workspaceRoot: ws });
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  try {
    const rssReady = rssMiB(client.child.pid!);
    const docUri = await client.open(file);
    const [noop, e2eProvide, e2eLens, e2eHover] = await interleaved(REQUESTS, WARMUP, [
      () => client.connection.sendRequest(FileDecorationsRequest.type, { paths: [] }),
      () => client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: docUri } }),
      async () => {
        const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: docUri } })) ?? [];
        await Promise.all(lenses.map((l: CodeLens) => client.connection.sendRequest(CodeLensResolveRequest.type, l)));
      },
      () => client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: docUri }, position: { line: 0, character: 0 } }),
    ]);
    const rssAfter = rssMiB(client.child.pid!);
    results.push(...percentiles('code lens provide, over stdio', e2eProvide, 'no-op request', noop, TRANSPORT_RATIO_TARGET));
    results.push(...percentiles('code lens provide + 7 resolves, over stdio', e2eLens, 'no-op request', noop));
    results.push(...percentiles('hover, over stdio', e2eHover, 'no-op request', noop, TRANSPORT_RATIO_TARGET));
    results.push(
      makeResult({
        name: 'no-op request over stdio p50 (transport floor)',
        unit: 'µs',
        samples: [percentile(noop, 50)],
        baseline: baselineOf('fs.stat p50', 'µs', [percentile(stat, 50)]),
        notes: [`p99 ${formatNumber(percentile(noop, 99))} µs; fs.stat p99 ${formatNumber(percentile(stat, 99))} µs`],
      }),
    );
    results.push(makeResult({ name: 'server ready (spawn + index of 10,000 note files)', unit: 'ms', samples: [readyMs] }));
    if (rssReady !== undefined && rssAfter !== undefined) {
      results.push(
        makeResult({
          name: 'server RSS at 10,000 files / 100,000 notes',
          unit: 'MiB',
          samples: [rssAfter],
          target: { on: 'value', op: '<', threshold: 150 },
          notes: [
            `${formatNumber(rssReady)} MiB right after the index build, ${formatNumber(rssAfter)} MiB after ${(REQUESTS + WARMUP) * 10} requests`,
          ],
        }),
      );
    }
  } finally {
    await client.stop();
  }
  return results;
}
