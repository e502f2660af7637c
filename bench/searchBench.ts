/**
 * Search benchmarks over a generated store of 10,000 files holding ~100,000 items (category
 * files, 9,000 per-file note files, 995 archived conversations):
 *  1. full index build (SQLite FTS5), time and MB/s of source text;
 *  2. incremental update after one note file changed (full stat scan, and targeted);
 *  3. query latency p50/p99 over 1,000 mixed queries (words, prefixes, phrases, filters);
 *  4. query latency through node:sqlite (where better-sqlite3 cannot load) on the same file,
 *     and build, update and queries of the index kept in memory (when the file cannot be used);
 *  5. side by side on the same texts: @modelcontextprotocol/server-memory's `search_nodes` and
 *     Lore's own `search` tool, both as MCP servers over stdio driven by the SDK client.
 * Figures are printed and compared with targets; nothing here asserts wall-clock time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SearchIndex, type SearchOptions } from '../src/core/services/search/searchIndex';
import { storePaths, type StorePaths } from '../src/core/store/storePaths';
import { largeRequested, largeStore, sampleWords } from './store100k';
import {
  MIB,
  SeededRandom,
  baselineOf,
  formatNumber,
  freshScratchDir,
  makeResult,
  percentile,
  residentMiB,
  untilIdle,
  type BenchContext,
  type BenchResult,
  vocabulary,
} from './benchSupport';

const FILES = { notes: 9000, transcripts: 995 };
const ITEMS = { facts: 20_000, decisions: 10_000, questions: 5000, playbooks: 5000, tasks: 5000, perNote: 5 };
const QUERIES = 1000;
/** server-memory re-reads and re-parses its whole JSONL file on every call: a sample suffices. */
const MCP_QUERIES = 30;
/** A query of the mixed set, with its kind (for the per-kind figures). */
interface BenchQuery {
  kind: string;
  text: string;
  options: SearchOptions;
}

export interface Generated {
  paths: StorePaths;
  bytes: number;
  items: string[];
  queries: BenchQuery[];
  noteFile: string;
}

/** Generates the store: `notes` per-file note files (9,000 by default: 10,000 files in all). */
export function generate(ctx: BenchContext, notes: number = FILES.notes): Generated {
  const rng = new SeededRandom(20_261_121);
  const vocab = vocabulary(rng, 12_000);
  const word = () => vocab[Math.floor(Math.pow(rng.next(), 2.2) * vocab.length)];
  const sentence = (min: number, max: number) => Array.from({ length: rng.int(min, max) }, word).join(' ');
  const date = () => `2026-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
  const items: string[] = [];
  // A harvest yields tens of items per conversation: 2,000 conversations for the whole store.
  const conversations = Array.from({ length: 2000 }, () => `conv-${rng.hex(8)}`);
  const item = () => {
    const text = sentence(6, 18);
    items.push(text);
    return `- ${text} [from: ${rng.pick(conversations)}, ${date()}]`;
  };
  // Per process: `npm run bench` may run while someone runs this module alone.
  const root = path.join(freshScratchDir(ctx, `search-store-${process.pid}`), '.lore');
  const paths = storePaths(root);
  for (const dir of [paths.files, paths.archive, paths.inbox]) fs.mkdirSync(dir, { recursive: true });
  let bytes = 0;
  const write = (file: string, text: string) => {
    fs.writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  };
  for (const [name, count] of Object.entries({
    facts: ITEMS.facts,
    decisions: ITEMS.decisions,
    questions: ITEMS.questions,
    playbooks: ITEMS.playbooks,
  })) {
    write(path.join(root, `${name}.md`), `# ${name}\n\n${Array.from({ length: count }, item).join('\n')}\n`);
  }
  const open = Array.from({ length: ITEMS.tasks / 2 }, item).join('\n');
  write(
    path.join(root, 'tasks.md'),
    `# Tasks\n\n## Open\n\n${open}\n\n## Done\n\n${Array.from({ length: ITEMS.tasks / 2 }, item).join('\n')}\n`,
  );
  for (let i = 0; i < notes; i++) {
    const rel = `src/${word()}/${word()}${i}.ts`;
    const head = `---\npath: "${rel}"\nfile_id: "2049:${100000 + i}"\nsize: ${rng.int(100, 9000)}\nfingerprint: "sha256:${rng.hex(64)}"\n---\n# ${rel}\n\n`;
    write(path.join(paths.files, `2049-${100000 + i}.md`), head + Array.from({ length: ITEMS.perNote }, item).join('\n') + '\n');
  }
  for (let i = 0; i < FILES.transcripts; i++) {
    const turns: string[] = [];
    for (let t = 0; t < 20; t++) {
      const paragraph = Array.from({ length: rng.int(3, 6) }, () => sentence(8, 20) + '.').join(' ');
      turns.push(
        `## ${String(10 + (t >> 2)).padStart(2, '0')}:${String((t * 7) % 60).padStart(2, '0')} — ${t % 2 ? 'agent' : 'user'}\n${paragraph}`,
      );
    }
    write(
      path.join(paths.archive, `s${i}.md`),
      `---\nsession_id: s${i}\nstarted: ${date()}T10:00:00Z\n---\n\n# session ${i}\n\n${turns.join('\n\n')}\n`,
    );
  }
  // Sources are mostly old in a real store; recent mtimes would all count as "racy".
  const old = new Date(Date.now() - 3600_000);
  for (const dir of [root, paths.files, paths.archive])
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.md')) fs.utimesSync(path.join(dir, f), old, old);
  const categories = ['facts', 'decisions', 'tasks', 'notes', 'transcripts'] as const;
  const queries = Array.from({ length: QUERIES }, (): BenchQuery => {
    const kind = rng.next();
    const source = items[rng.int(0, items.length - 1)].split(' ');
    const at = rng.int(0, source.length - 2);
    if (kind < 0.4) return { kind: 'one word', text: word(), options: {} };
    if (kind < 0.65) return { kind: 'two words', text: `${word()} ${word()}`, options: {} };
    if (kind < 0.75) return { kind: 'three words', text: `${word()} ${word()} ${word()}`, options: {} };
    if (kind < 0.85) return { kind: 'prefix', text: word().slice(0, rng.int(3, 5)), options: {} };
    if (kind < 0.9) return { kind: 'phrase', text: `"${source[at]} ${source[at + 1]}"`, options: {} };
    if (kind < 0.95) return { kind: 'category filter', text: word(), options: { categories: [rng.pick(categories)] } };
    return { kind: 'date filter', text: word(), options: { since: '2026-10-01' } };
  });
  ctx.log(`search: generated ${formatNumber(bytes / MIB)} MB in ${notes + FILES.transcripts + 5} files, ${items.length} items`);
  return { paths, bytes, items, queries, noteFile: path.join(paths.files, '2049-100042.md') };
}

/** CPU time (user + system) of this process in ms since `from`: on a loaded machine, the work done. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/** Wall and CPU time of each query. */
async function latencies(index: SearchIndex, queries: BenchQuery[]): Promise<{ wall: number[]; cpu: number[] }> {
  for (const q of queries.slice(0, 100)) await index.search(q.text, { ...q.options, refresh: false, limit: 10 });
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const q of queries) {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    await index.search(q.text, { ...q.options, refresh: false, limit: 10 });
    wall.push(Number(process.hrtime.bigint() - start) / 1e6);
    cpu.push(cpuSince(cpuStart));
  }
  return { wall, cpu };
}

/** "kind p50" for each kind of query: where the time goes. */
function perKind(queries: BenchQuery[], wall: number[]): string {
  const byKind = new Map<string, number[]>();
  queries.forEach((q, i) => byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), wall[i]]));
  return [...byKind].map(([kind, samples]) => `${kind} ${formatNumber(percentile(samples, 50))}`).join(', ');
}

/** The floor of a full scan: listing the store's folders and stat'ing each file, nothing else. */
function rawStatScan(paths: StorePaths): number {
  const start = process.hrtime.bigint();
  for (const dir of [paths.root, paths.files, paths.archive, paths.inbox]) {
    const prefix = dir + path.sep;
    for (const name of fs.readdirSync(dir)) if (name.endsWith('.md')) fs.statSync(prefix + name);
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Appends an item to one note file and times the update that picks it up; `before` runs (and
 * is timed) right before each update, so a baseline sees the same machine moments.
 */
async function incremental(
  index: SearchIndex,
  g: Generated,
  only: boolean,
  reps: number,
  before?: () => number,
): Promise<{ samples: number[]; before: number[] }> {
  const samples: number[] = [];
  const beforeSamples: number[] = [];
  for (let i = 0; i < reps; i++) {
    fs.appendFileSync(g.noteFile, `- incremental change number ${i} [from: bench, 2026-11-21]\n`);
    const old = new Date(Date.now() - 60_000 + i);
    fs.utimesSync(g.noteFile, old, old);
    // As Lore's own appends do (appendInPlace): the folder's time tells a full update to list
    // the sources (sourceStamps.ts); this figure is that listing.
    if (!only) fs.utimesSync(path.dirname(g.noteFile), new Date(), new Date());
    if (before) beforeSamples.push(before());
    const start = process.hrtime.bigint();
    const report = await index.update(only ? { only: [g.noteFile] } : {});
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (report.indexed.length !== 1) throw new Error(`expected one file re-indexed, got ${report.indexed.join(', ')}`);
  }
  return { samples, before: beforeSamples };
}

export async function mcpClient(command: string, args: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'lore-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'ignore' }),
  );
  return client;
}

/** The reference memory server's entry point (@modelcontextprotocol/server-memory). */
function serverMemoryBin(ctx: BenchContext): string {
  return path.join(ctx.repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
}

/** Resident memory of the process behind an MCP client (see residentMiB). */
export function processMemory(client: Client): { now: number; peak: number } | undefined {
  const pid = pidOf(client);
  return pid ? residentMiB(pid) : undefined;
}

/** The process an MCP client talks to. */
function pidOf(client: Client): number | undefined {
  return (client.transport as StdioClientTransport | undefined)?.pid ?? undefined;
}

/** Times one tool call (the result is discarded). */
export async function timeCall(client: Client, tool: string, args: Record<string, unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 600_000 });
  // A renamed tool or a failing call would otherwise be timed as if it answered.
  if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const g = generate(ctx);
  let mcpAt10k: number[] | undefined;
  const results: BenchResult[] = [];
  try {
    results.push(...(await measure(ctx, g)));
    results.push(...warmCliSearch(ctx, g.paths.root, '10,000 files', g.queries));
    mcpAt10k = (await mcpSearchTimes(ctx, g.paths.root, g.queries)).times;
  } finally {
    fs.rmSync(path.dirname(g.paths.root), { recursive: true, force: true });
  }
  if (largeRequested(ctx, 'search')) results.push(...(await largeStoreQueries(ctx, g.queries, mcpAt10k ?? [])));
  return results;
}

// ---------------------------------------------------------------------------------------------
// Queries as people and agents run them, on a store whose index is built and unchanged, at
// 10,000 and at 100,000 files.

const CLI_REPS = 15;

/** Runs the built CLI and returns its wall time in ms; throws when it fails. */
function timeCli(ctx: BenchContext, args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [path.join(ctx.repoRoot, 'dist', 'cli.js'), ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '' },
    maxBuffer: 64 * MIB,
  });
  if (result.status !== 0)
    throw new Error(`lore ${args[0]} exited ${result.status}: ${result.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * A one-shot `lore search` on a warm store (index built, nothing changed since), against `lore
 * --version` (node start-up and loading the CLI), the two alternated so load hits both alike.
 * The target: a search costs at most half a start-up more, whatever the size of the store.
 */
function warmCliSearch(ctx: BenchContext, root: string, label: string, queries: BenchQuery[]): BenchResult[] {
  if (!fs.existsSync(path.join(ctx.repoRoot, 'dist', 'cli.js'))) return [];
  const args = (i: number) => ['search', queries[i % queries.length].text.replace(/"/g, ''), '--root', root, '--limit', '10'];
  // The first refreshes the index; the second finds it unchanged and records so (sourceStamps.ts).
  timeCli(ctx, args(0));
  timeCli(ctx, args(1));
  const search: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < CLI_REPS; i++) {
    version.push(timeCli(ctx, ['--version']));
    search.push(timeCli(ctx, args(i)));
  }
  return [
    makeResult({
      name: `CLI \`lore search\`, warm (${label})`,
      unit: 'ms',
      samples: search,
      baseline: baselineOf('`lore --version`', 'ms', version),
      target: { on: 'ratio', op: '<=', threshold: 1.5 },
    }),
  ];
}

/**
 * Lore's MCP search tool over stdio on a warm store: one call per query of a sample, after a
 * warm-up; and the server's resident memory after the calls.
 */
async function mcpSearchTimes(
  ctx: BenchContext,
  root: string,
  queries: BenchQuery[],
): Promise<{ times: number[]; memory?: { now: number; peak: number } }> {
  const lore = await mcpClient(process.execPath, [path.join(ctx.repoRoot, 'dist', 'cli.js'), 'mcp', '--root', root], {
    LORE_EMBED_PROVIDER: '',
    LORE_SEARCH_BACKEND: '',
  });
  const step = Math.floor(queries.length / MCP_QUERIES);
  const times: number[] = [];
  try {
    await timeCall(lore, 'search', { query: queries[0].text, limit: 10 });
    for (let i = 0; i < MCP_QUERIES; i++)
      times.push(await timeCall(lore, 'search', { query: queries[i * step].text.replace(/"/g, ''), limit: 10 }));
    return { times, memory: processMemory(lore) };
  } finally {
    await lore.close();
  }
}

/**
 * The shared store of 100,000 files (bench/store100k.ts): the warm CLI search against `lore
 * --version`, the MCP search against the same calls on the 10,000-file store in this run (flat as
 * the store grows 10×), and `lore mcp`'s resident memory against the reference memory server
 * holding the same items. Its index is brought up to date first by the CLI (minutes when no
 * earlier bench of the run built it), outside the figures.
 */
async function largeStoreQueries(ctx: BenchContext, queries: BenchQuery[], mcpAt10k: number[]): Promise<BenchResult[]> {
  if (!fs.existsSync(path.join(ctx.repoRoot, 'dist', 'cli.js'))) return [];
  try {
    const root = largeStore(ctx).paths.root;
    ctx.log(`search: bringing the 100,000-file store's index up to date through the CLI`);
    const build = timeCli(ctx, ['search', 'warmup', '--root', root]);
    const results = warmCliSearch(ctx, root, '100,000 files', queries);
    const mcp = await mcpSearchTimes(ctx, root, queries);
    results.push(
      makeResult({
        name: 'Lore search tool over MCP, 100,000 files vs 10,000',
        unit: 'ms',
        samples: mcp.times,
        ...(mcpAt10k.length ? { baseline: baselineOf('the same calls on the 10,000-file store', 'ms', mcpAt10k) } : {}),
        target: { on: 'ratio', op: '<=', threshold: 1.5 },
        notes: [`the CLI's first search brought the index up to date in ${formatNumber(build / 1000)} s (not in the figures)`],
      }),
    );
    if (mcp.memory) results.push(versusReferenceMemory('`lore mcp` RSS at 100,000 files', mcp.memory, await referenceAt100k(ctx)));
    return results;
  } catch (error) {
    return [
      makeResult({ name: 'queries on a 100,000-file store', unit: 'ms', samples: [NaN], notes: [`failed: ${(error as Error).message}`] }),
    ];
  }
}

/** What the reference memory server did with a store's items: its search_nodes times and its memory after them. */
export interface ReferenceRun {
  items: number;
  times: number[];
  memory?: { now: number; peak: number };
}

/** server-memory with one entity per item (its text the observation), after one search_nodes call per query. */
async function referenceRun(ctx: BenchContext, file: string, items: string[], queries: string[]): Promise<ReferenceRun> {
  fs.writeFileSync(
    file,
    items.map((text, i) => JSON.stringify({ type: 'entity', name: `item-${i}`, entityType: 'fact', observations: [text] })).join('\n') +
      '\n',
  );
  const memory = await mcpClient(process.execPath, [serverMemoryBin(ctx)], { MEMORY_FILE_PATH: file });
  try {
    const times: number[] = [];
    for (const query of queries) times.push(await timeCall(memory, 'search_nodes', { query }));
    return { items: items.length, times, memory: processMemory(memory) };
  } finally {
    await memory.close();
    fs.rmSync(file, { force: true });
  }
}

/** server-memory re-reads its whole file on every call: at 100,000 files a few calls say what it holds. */
const REFERENCE_CALLS_100K = 5;
let reference100k: Promise<ReferenceRun> | undefined;

/**
 * The reference memory server holding every item of the 100,000-file store, measured once per run
 * and shared by the benches that compare Lore's processes with it at that size.
 */
export function referenceAt100k(ctx: BenchContext): Promise<ReferenceRun> {
  reference100k ??= (async () => {
    const store = largeStore(ctx);
    const items = store.items();
    ctx.log(`search: the reference memory server on the 100,000-file store's ${items.length} items`);
    return referenceRun(ctx, path.join(path.dirname(store.ws), 'memory.jsonl'), items, sampleWords(REFERENCE_CALLS_100K));
  })();
  return reference100k;
}

/** A Lore process's resident memory against the reference server's, both after the same kind of work. */
export function versusReferenceMemory(name: string, memory: { now: number; peak: number }, reference: ReferenceRun): BenchResult {
  const result = makeResult({
    name,
    unit: 'MiB',
    samples: [memory.now],
    ...(reference.memory
      ? { baseline: baselineOf(`server-memory holding the same ${reference.items} items`, 'MiB', [reference.memory.now]) }
      : {}),
    target: { on: 'ratio', op: '<=', threshold: 1 },
  });
  result.notes = [
    `peak ${formatNumber(memory.peak)} MiB` +
      (reference.memory
        ? `; server-memory peak ${formatNumber(reference.memory.peak)} MiB, its search_nodes ${formatNumber(percentile(reference.times, 50))} ms (median of ${reference.times.length})`
        : ''),
  ];
  return result;
}

async function measure(ctx: BenchContext, g: Generated): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const builds: number[] = [];
  const buildCpu: number[] = [];
  let docs = 0;
  for (let i = 0; i < 3; i++) {
    fs.rmSync(g.paths.index, { recursive: true, force: true });
    const index = SearchIndex.open(g.paths, { embedder: null });
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    docs = (await index.update()).docs;
    builds.push(Number(process.hrtime.bigint() - start) / 1e6);
    buildCpu.push(cpuSince(cpu));
    index.close();
  }
  const dbBytes = fs.statSync(path.join(g.paths.index, 'lore.sqlite')).size;
  results.push(
    makeResult({
      name: 'sqlite full build',
      unit: 'ms',
      samples: builds,
      notes: [
        `${docs} documents from ${formatNumber(g.bytes / MIB)} MB of sources: ${formatNumber(g.bytes / MIB / (percentile(builds, 50) / 1000))} MB/s; database ${formatNumber(dbBytes / MIB)} MB`,
        `CPU time ${formatNumber(percentile(buildCpu, 50))} ms (${formatNumber(g.bytes / MIB / (percentile(buildCpu, 50) / 1000))} MB/s of CPU)`,
      ],
    }),
  );
  results.push(
    makeResult({ name: 'sqlite full build throughput', unit: 'MB/s', samples: builds.map((ms) => g.bytes / MIB / (ms / 1000)) }),
  );

  const sqlite = SearchIndex.open(g.paths, { embedder: null });
  await sqlite.update();
  // Three builds leave hundreds of MB for the kernel to write back; flushed first, so that the
  // update timings below are not the disk catching up with the builds.
  execFileSync('sync');
  const scan = await incremental(sqlite, g, false, 15, () => rawStatScan(g.paths));
  const statBaseline = baselineOf('readdir + fs.statSync of every source file', 'ms', scan.before);
  results.push(
    makeResult({
      name: 'sqlite update, one file changed (stat scan of 10,000 files)',
      unit: 'ms',
      samples: scan.samples,
      baseline: statBaseline,
      target: { on: 'value', op: '<', threshold: 50 },
    }),
  );
  results.push(
    makeResult({
      name: 'sqlite update, one file changed (targeted, from a watcher)',
      unit: 'ms',
      samples: (await incremental(sqlite, g, true, 15)).samples,
      target: { on: 'value', op: '<', threshold: 50 },
    }),
  );
  // The folders as in a store untouched for a while: the first update lists every source and
  // records the folders' times, the others check those (sourceStamps.ts).
  const aged = new Date(Date.now() - 3600_000);
  for (const dir of [g.paths.root, g.paths.files, g.paths.archive, g.paths.inbox]) fs.utimesSync(dir, aged, aged);
  const idle: number[] = [];
  const idleCpu = process.cpuUsage();
  for (let i = 0; i < 10; i++) idle.push((await sqlite.update()).ms);
  results.push(
    makeResult({
      name: 'sqlite update, nothing changed (folder stamps; the first of 10 lists every source)',
      unit: 'ms',
      samples: idle,
      notes: [`CPU time ${formatNumber(cpuSince(idleCpu) / 10)} ms per scan`],
    }),
  );
  const sq = await latencies(sqlite, g.queries);
  const sqliteNotes = [
    `p50 of CPU time per query ${formatNumber(percentile(sq.cpu, 50))} ms (wall time on a shared machine includes waiting for a core)`,
    `p50 by kind, ms: ${perKind(g.queries, sq.wall)}`,
  ];
  results.push(
    makeResult({
      name: 'sqlite query p50 (1,000 mixed)',
      unit: 'ms',
      samples: [percentile(sq.wall, 50)],
      target: { on: 'value', op: '<', threshold: 1 },
      notes: sqliteNotes,
    }),
  );
  results.push(makeResult({ name: 'sqlite query p99 (1,000 mixed)', unit: 'ms', samples: [percentile(sq.wall, 99)] }));
  sqlite.close();

  const builtin = SearchIndex.open(g.paths, { embedder: null, env: { LORE_SQLITE_DRIVER: 'node' } });
  await builtin.update();
  const ns = await latencies(builtin, g.queries);
  results.push(
    makeResult({
      name: 'node:sqlite query p50 (1,000 mixed)',
      unit: 'ms',
      samples: [percentile(ns.wall, 50)],
      notes: [`p50 by kind, ms: ${perKind(g.queries, ns.wall)}`],
    }),
  );
  results.push(makeResult({ name: 'node:sqlite query p99 (1,000 mixed)', unit: 'ms', samples: [percentile(ns.wall, 99)] }));
  builtin.close();

  const mini = SearchIndex.open(g.paths, { backend: 'memory', embedder: null });
  const miniBuild = (await mini.update()).ms;
  results.push(
    makeResult({
      name: 'in-memory index full build',
      unit: 'ms',
      samples: [miniBuild],
      notes: [`${formatNumber(g.bytes / MIB / (miniBuild / 1000))} MB/s`],
    }),
  );
  const miniScan = await incremental(mini, g, false, 15, () => rawStatScan(g.paths));
  results.push(
    makeResult({
      name: 'in-memory index update, one file changed (stat scan)',
      unit: 'ms',
      samples: miniScan.samples,
      baseline: baselineOf('readdir + fs.statSync of every source file', 'ms', miniScan.before),
      target: { on: 'value', op: '<', threshold: 50 },
    }),
  );
  const ms = await latencies(mini, g.queries);
  results.push(
    makeResult({
      name: 'in-memory index query p50 (1,000 mixed)',
      unit: 'ms',
      samples: [percentile(ms.wall, 50)],
      notes: [`p50 by kind, ms: ${perKind(g.queries, ms.wall)}`],
    }),
  );
  results.push(makeResult({ name: 'in-memory index query p99 (1,000 mixed)', unit: 'ms', samples: [percentile(ms.wall, 99)] }));
  mini.close();

  results.push(...(await versusServerMemory(ctx, g, sq.wall)));
  return results;
}

/** server-memory's search_nodes and Lore's search tool on the same items, both over MCP stdio. */
async function versusServerMemory(ctx: BenchContext, g: Generated, inProcess: number[]): Promise<BenchResult[]> {
  const memoryFile = path.join(path.dirname(g.paths.root), 'memory.jsonl');
  // One entity per item, its text as the observation: search_nodes scans names, types, observations.
  const lines = g.items.map((text, i) => JSON.stringify({ type: 'entity', name: `item-${i}`, entityType: 'fact', observations: [text] }));
  fs.writeFileSync(memoryFile, lines.join('\n') + '\n');
  const step = Math.floor(g.queries.length / MCP_QUERIES);
  const sample = Array.from({ length: MCP_QUERIES }, (_, i) => g.queries[i * step].text.replace(/"/g, ''));
  ctx.log(
    `search: timing ${MCP_QUERIES} search_nodes calls on ${g.items.length} entities (${formatNumber(fs.statSync(memoryFile).size / MIB)} MB JSONL)`,
  );
  const memory = await mcpClient(process.execPath, [serverMemoryBin(ctx)], { MEMORY_FILE_PATH: memoryFile });
  const lore = await mcpClient(process.execPath, [path.join(ctx.repoRoot, 'dist', 'cli.js'), 'mcp', '--root', g.paths.root], {
    LORE_EMBED_PROVIDER: '',
    LORE_SEARCH_BACKEND: '',
  });
  const base: number[] = [];
  const mcp: number[] = [];
  let loreMemory: { now: number; peak: number } | undefined;
  let referenceMemory: { now: number; peak: number } | undefined;
  try {
    // Warm both (Lore opens its index on the first call), then alternate query by query, so
    // that the load of a shared machine falls on both alike.
    await timeCall(memory, 'search_nodes', { query: sample[0] });
    await timeCall(lore, 'search', { query: sample[0], limit: 10 });
    // Each call waits until both servers are idle (server-memory collects hundreds of MB of garbage
    // after each call, which would otherwise land on the next call), and who is called first
    // alternates, so that neither always follows the other.
    const idle = () => Promise.all([memory, lore].map((client) => untilIdle(pidOf(client))));
    for (const [i, query] of sample.entries()) {
      const calls = [
        async () => base.push(await timeCall(memory, 'search_nodes', { query })),
        async () => mcp.push(await timeCall(lore, 'search', { query, limit: 10 })),
      ];
      if (i % 2 === 1) calls.reverse();
      for (const call of calls) {
        await idle();
        await call();
      }
    }
    loreMemory = processMemory(lore);
    referenceMemory = processMemory(memory);
  } finally {
    await memory.close();
    await lore.close();
  }
  const baseline = baselineOf('server-memory search_nodes over MCP', 'ms', base);
  const target = { on: 'ratio' as const, op: '<=' as const, threshold: 1 / 50 };
  const mcpResult = makeResult({ name: 'Lore search tool over MCP vs server-memory', unit: 'ms', samples: mcp, baseline, target });
  mcpResult.notes = [`Lore is ${formatNumber(baseline.value / mcpResult.value)}× faster (target ≥ 50×), ${MCP_QUERIES} queries each`];
  const inProc = makeResult({ name: 'Lore in-process query vs server-memory', unit: 'ms', samples: inProcess, baseline, target });
  inProc.notes = [
    `Lore is ${formatNumber(baseline.value / inProc.value)}× faster (p50 of 1,000 queries vs median of ${MCP_QUERIES} search_nodes calls)`,
  ];
  const results = [mcpResult, inProc];
  if (loreMemory)
    results.push(
      versusReferenceMemory('`lore mcp` RSS at 10,000 files', loreMemory, { items: g.items.length, times: base, memory: referenceMemory }),
    );
  return results;
}
