/**
 * Shared plumbing for `npm run bench`: the contract between the runner (run.ts) and the
 * benchmark modules (`bench/*Bench.ts`), timing, medians and percentiles, a seeded PRNG for
 * deterministic synthetic data, the scratch space under `.bench/` and the result table.
 *
 * Benchmarks print figures and compare them with a target; they never fail on wall-clock
 * (a slow machine is not a bug), so a missed target is reported as MISS, not thrown.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** What the runner hands every benchmark module. */
export interface BenchContext {
  /** The repository root (where package.json, dist/ and prompts/ are). */
  repoRoot: string;
  /** `<repo>/.bench`: git-ignored scratch space kept between runs (e.g. generated corpora). */
  scratchRoot: string;
  /** Progress messages go to stderr so that stdout stays the result tables. */
  log(message: string): void;
}

/** A figure a result is compared with, measured in the same run. */
export interface BenchBaseline {
  /** What the baseline does, e.g. `openssl dgst -sha256`. */
  name: string;
  value: number;
  unit: string;
  samples: number[];
}

export type TargetOp = '<' | '<=' | '>' | '>=';

/** A target on the figure itself (`value < 50 ms`) or on its ratio to the baseline. */
export interface BenchTarget {
  on: 'value' | 'ratio';
  op: TargetOp;
  threshold: number;
}

export interface BenchResult {
  name: string;
  /** The median of `samples` (or the single measurement). */
  value: number;
  unit: string;
  /** Every repetition, for the JSON output. */
  samples: number[];
  baseline?: BenchBaseline;
  /** value / baseline.value. */
  ratio?: number;
  target?: BenchTarget;
  /** Undefined when there is no target (an informational figure). */
  pass?: boolean;
  /** Free-form observations printed under the table (counts, what dominates, …). */
  notes?: string[];
}

/** The interface every `out/bench/*Bench.js` module exports. */
export interface BenchModule {
  run(ctx: BenchContext): Promise<BenchResult[]>;
}

/** Builds a result from samples: median value, ratio to the baseline, PASS/MISS against the target. */
export function makeResult(input: {
  name: string;
  unit: string;
  samples: number[];
  baseline?: BenchBaseline;
  target?: BenchTarget;
  notes?: string[];
}): BenchResult {
  const value = median(input.samples);
  const ratio = input.baseline && input.baseline.value !== 0 ? value / input.baseline.value : undefined;
  let pass: boolean | undefined;
  if (input.target) {
    const subject = input.target.on === 'ratio' ? ratio : value;
    pass = subject !== undefined && compare(subject, input.target.op, input.target.threshold);
  }
  return {
    name: input.name,
    value,
    unit: input.unit,
    samples: input.samples,
    baseline: input.baseline,
    ratio,
    target: input.target,
    pass,
    notes: input.notes,
  };
}

export function baselineOf(name: string, unit: string, samples: number[]): BenchBaseline {
  return { name, unit, samples, value: median(samples) };
}

function compare(value: number, op: TargetOp, threshold: number): boolean {
  switch (op) {
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
  }
}

// ---------------------------------------------------------------------------------------------
// Timing and statistics

/** Milliseconds since an arbitrary origin, from the monotonic high-resolution clock. */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Wall time of a synchronous call in ms. */
export function timeSync(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Wall time of an asynchronous call in ms. */
export async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Runs `fn` `reps` times and returns each wall time in ms. `setup` runs before every
 * repetition outside the timed region (fresh store, deleted output, …).
 */
export async function repeat(
  reps: number,
  fn: () => unknown | Promise<unknown>,
  setup?: () => unknown | Promise<unknown>,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < reps; i++) {
    if (setup) await setup();
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

/** One of several measurements taken in turn by `repeatInterleaved`. */
export interface InterleavedTask {
  fn: () => unknown | Promise<unknown>;
  /** Runs before each repetition of `fn`, outside the timed region. */
  setup?: () => unknown | Promise<unknown>;
}

/** Wall and CPU time (user + system of this process, children excluded) of each repetition, in ms. */
export interface TaskSamples {
  wall: number[];
  cpu: number[];
}

/**
 * Runs the tasks in turn (A B C, A B C, …) and returns each task's times. On a shared machine
 * the load changes from second to second; alternating the measurement and its baseline exposes
 * both to the same conditions, so their ratio stays meaningful. CPU time is kept too: when other
 * processes take the cores, wall time grows but CPU time stays close to the work done.
 */
export async function repeatInterleaved(reps: number, tasks: InterleavedTask[]): Promise<TaskSamples[]> {
  const samples = tasks.map((): TaskSamples => ({ wall: [], cpu: [] }));
  for (let i = 0; i < reps; i++) {
    for (let t = 0; t < tasks.length; t++) {
      const task = tasks[t];
      if (task.setup) await task.setup();
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await task.fn();
      samples[t].wall.push(Number(process.hrtime.bigint() - start) / 1e6);
      const used = process.cpuUsage(cpu);
      samples[t].cpu.push((used.user + used.system) / 1000);
    }
  }
  return samples;
}

/** Percentile with linear interpolation between closest ranks (p in [0, 100]). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

export function median(samples: number[]): number {
  return percentile(samples, 50);
}

export const MIB = 1024 * 1024;

/** CPU time (user + system, in clock ticks) a process has used so far; undefined off Linux or once it is gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    // Fields after the command (which may hold spaces), from its closing parenthesis: utime is the 12th, stime the 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Waits until a process has stopped using the CPU (its time unchanged over two 30 ms looks; at
 * most 3 s): what a server does after answering (collecting garbage, writing) then never lands
 * on the next measured call, whoever makes it.
 */
export async function untilIdle(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  let last = cpuTicks(pid);
  let quiet = 0;
  for (const until = Date.now() + 3000; quiet < 2 && last !== undefined && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const now = cpuTicks(pid);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

/** Resident memory of a live process in MiB, now and at its peak (Linux /proc), or undefined elsewhere. */
export function residentMiB(pid: number): { now: number; peak: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status)?.[1]);
    const now = kb('VmRSS');
    const peak = kb('VmHWM');
    return Number.isFinite(now) && Number.isFinite(peak) ? { now: now / 1024, peak: peak / 1024 } : undefined;
  } catch {
    return undefined;
  }
}

/** Throughput in MB/s (MB = 2^20 bytes, as Lore's own reports count) for `bytes` in `ms`. */
export function mbPerSecond(bytes: number, ms: number): number {
  return bytes / MIB / (ms / 1000);
}

// ---------------------------------------------------------------------------------------------
// Deterministic data

/**
 * mulberry32: a tiny seeded PRNG. Synthetic corpora must be byte-identical between runs so
 * that a cached corpus can be reused and figures from different runs compare.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += ((this.next() * 0x100000000) >>> 0).toString(16).padStart(8, '0');
    return out.slice(0, length);
  }

  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** Random bytes as base64 (encrypted blobs, signatures). */
  base64(bytes: number): string {
    const buffer = Buffer.allocUnsafe(bytes);
    for (let i = 0; i < bytes; i++) buffer[i] = (this.next() * 256) >>> 0;
    return buffer.toString('base64');
  }
}

// ---------------------------------------------------------------------------------------------
// Scratch space

/** `<scratchRoot>/<name>`, created when missing. */
export function scratchDir(ctx: BenchContext, name: string): string {
  const dir = path.join(ctx.scratchRoot, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * `<temp folder>/lore-bench/<name>`, created when missing: scratch space for a store too large to
 * keep inside the repository, whose tools walk every file there (packaging with vsce, and the
 * extension page test through it, took 67 s with a 100,000-file store in `.bench/`).
 */
export function largeScratchDir(name: string): string {
  const dir = path.join(os.tmpdir(), 'lore-bench', name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** An empty `<scratchRoot>/<name>` (whatever a previous run left there is removed). */
export function freshScratchDir(ctx: BenchContext, name: string): string {
  const dir = path.join(ctx.scratchRoot, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Formatting

/** A number with thousands separators and a precision that suits its magnitude. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatFigure(value: number, unit: string): string {
  return `${formatNumber(value)} ${unit}`;
}

function formatTarget(target: BenchTarget | undefined, unit: string): string {
  if (!target) return '-';
  const op = target.op === '>=' ? '≥' : target.op === '<=' ? '≤' : target.op;
  return target.on === 'ratio' ? `ratio ${op} ${target.threshold}` : `${op} ${formatNumber(target.threshold)} ${unit}`;
}

/** Plain-text table; numeric columns read best right-aligned, so only `leftAligned` ones are not. */
export function formatTable(headers: string[], rows: string[][], leftAligned: ReadonlySet<number> = new Set([0])): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (leftAligned.has(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The table of one benchmark module's results, with notes underneath. */
export function formatResults(results: BenchResult[]): string {
  const headers = ['figure', 'value', 'baseline (same run)', 'ratio', 'target', 'result'];
  const rows = results.map((r) => [
    r.name,
    formatFigure(r.value, r.unit),
    r.baseline ? `${formatFigure(r.baseline.value, r.baseline.unit)} (${r.baseline.name})` : '-',
    r.ratio !== undefined ? `${formatNumber(r.ratio)}×` : '-',
    formatTarget(r.target, r.unit),
    r.pass === undefined ? 'info' : r.pass ? 'PASS' : 'MISS',
  ]);
  const notes = results.flatMap((r) => (r.notes ?? []).map((n) => `  · ${r.name}: ${n}`));
  return formatTable(headers, rows, new Set([0, 2, 4, 5])) + (notes.length ? '\n\n' + notes.join('\n') : '');
}

const TECH = [
  'esbuild',
  'sqlite',
  'migration',
  'watcher',
  'cache',
  'provider',
  'ledger',
  'digest',
  'harvest',
  'transcript',
  'token',
  'prompt',
  'index',
  'vector',
  'embedding',
  'lock',
  'inode',
  'debounce',
  'schema',
  'deploy',
];

/** A vocabulary of pronounceable words; rank 0 is the most frequent (Zipf-like picks). */
export function vocabulary(rng: SeededRandom, size: number): string[] {
  const syll = [
    'ka',
    'lo',
    'mi',
    'ren',
    'tor',
    'sa',
    'vi',
    'del',
    'no',
    'pra',
    'qu',
    'ex',
    'zu',
    'ba',
    'gri',
    'fen',
    'sho',
    'ta',
    'mer',
    'lin',
  ];
  const words = new Set<string>(TECH);
  while (words.size < size) words.add(Array.from({ length: rng.int(2, 4) }, () => rng.pick(syll)).join(''));
  return [...words];
}
