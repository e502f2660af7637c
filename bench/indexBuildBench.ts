/**
 * The first build of the search index against its floor, measured in the same run: a plain
 * SQLite bulk insert of the same rows (the documents the build made, into the same schema, in
 * one transaction, without reading, parsing or redacting anything). Two builds are timed:
 *  - one-shot, as the CLI builds (`lore search` on a store without an index);
 *  - sliced, as the language server and `lore mcp` build (transactions of ~25 ms with a yield
 *    between them), with the most FTS segments the index had at any point of the build, which
 *    FTS5 caps at 2,000 (past that every write fails).
 * On the search bench's store of 10,000 files (~100,000 items); with LORE_BENCH_LARGE=1 also on
 * the shared store of 100,000 files (~500,000 items, bench/store100k.ts; a few minutes), whose
 * index the last build leaves for the benches after this one. Nothing here asserts wall-clock time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { syncIndexInSlices } from '../src/core/services/search/indexSync';
import { indexDatabaseFile, openEngine } from '../src/core/services/search/openEngine';
import { SearchIndex } from '../src/core/services/search/searchIndex';
import type { SqliteBackend } from '../src/core/services/search/sqliteBackend';
import { initSchema } from '../src/core/services/search/sqliteSchema';
import { loadSqlite, openDatabase, deleteDatabaseFiles, type SqliteDatabase } from '../src/core/base/sqliteDriver';
import { MIB, baselineOf, formatNumber, makeResult, median, type BenchContext, type BenchResult } from './benchSupport';
import { generate } from './searchBench';
import { largeRequested, largeStore } from './store100k';
import type { StorePaths } from '../src/core/store/storePaths';

/** A store to build the index of, and the bytes of its sources. */
interface Sources {
  paths: StorePaths;
  bytes: number;
}

/** The one-shot build's target: at most this many times the bulk insert of its rows. */
const TARGET_RATIO = 1.3;
/** Segments are counted after every this many transactions of the sliced build. */
const SEGMENT_SAMPLE_EVERY = 20;

const DOC_FIELDS = 'file, line, category, text, context, source, date, noted_path, section, hash, flagged, item';

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const g = generate(ctx);
  const results: BenchResult[] = [];
  try {
    results.push(...(await measure(ctx, g, 3, '10,000 files')));
  } finally {
    fs.rmSync(path.dirname(g.paths.root), { recursive: true, force: true });
  }
  if (largeRequested(ctx, 'indexBuild')) results.push(...(await measure(ctx, largeStore(ctx), 1, '100,000 files')));
  return results;
}

async function measure(ctx: BenchContext, g: Sources, reps: number, label: string): Promise<BenchResult[]> {
  const floor: number[] = [];
  const oneShot: number[] = [];
  const sliced: number[] = [];
  let rows: unknown[][] = [];
  let peakSegments = 0;
  let transactions = 0;
  let dbBytes = 0;
  const cpu = { floor: [] as number[], oneShot: [] as number[], sliced: [] as number[] };
  for (let i = 0; i < reps; i++) {
    // The three alternate, so that the load of a shared machine falls on each alike.
    oneShot.push(await timed(() => buildOneShot(g)));
    cpu.oneShot.push(lastCpu);
    dbBytes = fs.statSync(indexDatabaseFile(g.paths)).size;
    if (rows.length === 0) rows = documentRows(g);
    floor.push(await timed(async () => bulkInsert(g, rows)));
    cpu.floor.push(lastCpu);
    const slicedRun = await buildSliced(g);
    sliced.push(slicedRun.ms);
    cpu.sliced.push(slicedRun.cpu);
    peakSegments = Math.max(peakSegments, slicedRun.peakSegments);
    transactions = slicedRun.transactions;
  }
  ctx.log(`indexBuild: ${label}: floor ${floor.map(formatNumber).join(', ')} ms; one-shot ${oneShot.map(formatNumber).join(', ')} ms`);
  const baseline = baselineOf(`bulk insert of the same ${rows.length} rows, one transaction`, 'ms', floor);
  const mbs = (ms: number) => formatNumber(g.bytes / MIB / (ms / 1000));
  const cpuRatio = (samples: number[]) =>
    `CPU time ${formatNumber(median(samples))} ms, ${formatNumber(median(samples) / median(cpu.floor))}× the floor's ${formatNumber(median(cpu.floor))} ms`;
  return [
    makeResult({
      name: `index first build, one-shot (CLI), ${label}`,
      unit: 'ms',
      samples: oneShot,
      baseline,
      target: { on: 'ratio', op: '<=', threshold: TARGET_RATIO },
      notes: [
        `${rows.length} documents from ${formatNumber(g.bytes / MIB)} MB: ${mbs(median(oneShot))} MB/s; database ${formatNumber(dbBytes / MIB)} MB`,
        cpuRatio(cpu.oneShot),
      ],
    }),
    makeResult({
      name: `index first build, sliced (server), ${label}`,
      unit: 'ms',
      samples: sliced,
      baseline,
      notes: [
        `${transactions} transactions; at most ${peakSegments} FTS segments during the build (FTS5's limit: 2,000), 1 after`,
        cpuRatio(cpu.sliced),
      ],
    }),
  ];
}

/** CPU time (user + system, ms) of the last timed call: on a loaded machine, the work done. */
let lastCpu = 0;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await fn();
  const used = process.cpuUsage(cpu);
  lastCpu = (used.user + used.system) / 1000;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function removeIndex(g: Sources): void {
  fs.rmSync(g.paths.index, { recursive: true, force: true });
}

async function buildOneShot(g: Sources): Promise<void> {
  removeIndex(g);
  const index = SearchIndex.open(g.paths, { embedder: null, oneShot: true });
  try {
    await index.update();
  } finally {
    index.close();
  }
}

/** The sliced build as a server runs it, counting the FTS segments as it goes. */
async function buildSliced(g: Sources): Promise<{ ms: number; cpu: number; peakSegments: number; transactions: number }> {
  removeIndex(g);
  const backend = openEngine(g.paths).lexical as SqliteBackend;
  let peakSegments = 0;
  let transactions = 0;
  try {
    const ms = await timed(() =>
      syncIndexInSlices(
        backend,
        g.paths,
        {},
        {
          run: (slice) => {
            const result = slice(backend);
            if (++transactions % SEGMENT_SAMPLE_EVERY === 0) peakSegments = Math.max(peakSegments, segments(backend.db));
            return result;
          },
        },
      ),
    );
    return { ms, cpu: lastCpu, peakSegments, transactions };
  } finally {
    backend.close();
  }
}

function segments(db: SqliteDatabase): number {
  return db.prepare('SELECT count(DISTINCT segid) FROM fts_idx').values()[0][0] as number;
}

/** The rows the last build wrote, in its order. */
function documentRows(g: Sources): unknown[][] {
  const db = loadSqlite().driver!.open(indexDatabaseFile(g.paths), { readonly: true });
  try {
    return db.prepare(`SELECT ${DOC_FIELDS} FROM docs ORDER BY id`).values();
  } finally {
    db.close();
  }
}

/** The floor: the rows into a fresh database of the same schema, settings and driver, in one transaction. */
function bulkInsert(g: Sources, rows: unknown[][]): void {
  const file = path.join(path.dirname(g.paths.root), 'floor.sqlite');
  deleteDatabaseFiles(file);
  const db = openDatabase(loadSqlite().driver!, file, { busyTimeoutMs: 1000, init: initSchema });
  try {
    const insert = db.prepare(
      `INSERT INTO docs(${DOC_FIELDS}) VALUES (${DOC_FIELDS.split(',')
        .map(() => '?')
        .join(', ')})`,
    );
    const index = db.prepare('INSERT INTO fts(rowid, text, context) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (const row of rows) index.run(insert.run(...row).lastInsertRowid, row[3], row[4]);
    });
  } finally {
    db.close();
    deleteDatabaseFiles(file);
  }
}
