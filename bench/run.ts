/**
 * `npm run bench`: runs every compiled benchmark module `out/bench/*Bench.js` in name order
 * (discovered, so adding bench/fooBench.ts needs no change here), prints a table per module and
 * writes all results to `.bench/results.json`.
 *
 *   node out/bench/run.js             every benchmark
 *   node out/bench/run.js harvest     only those whose name contains "harvest"
 *
 * A missed target prints MISS and does not change the exit status: wall-clock figures depend on
 * the machine, so benchmarks inform, tests assert. Only a benchmark that throws exits 1.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatNumber, formatResults, type BenchContext, type BenchModule, type BenchResult } from './benchSupport';

const SUFFIX = 'Bench.js';

interface BenchRun {
  bench: string;
  module: string;
  seconds: number;
  results: BenchResult[];
  error?: string;
}

/** The repository root: out/bench/run.js sits two levels below it. */
function repoRoot(): string {
  return path.resolve(__dirname, '..', '..');
}

function discover(dir: string): Array<{ name: string; file: string }> {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(SUFFIX))
    .sort()
    .map((f) => ({ name: f.slice(0, -SUFFIX.length), file: path.join(dir, f) }));
}

/** One line about the machine: figures are only comparable on the same one. */
function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  let shaNi: boolean | undefined;
  try {
    shaNi = /\bsha_ni\b/.test(fs.readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    shaNi = undefined; // Not Linux: unknown.
  }
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpu: cpus[0]?.model,
    cores: cpus.length,
    shaNi,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    // Other work on the machine skews every figure; the load at the start says how much to trust them.
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

async function main(): Promise<number> {
  const filters = process.argv.slice(2).map((f) => f.toLowerCase());
  const root = repoRoot();
  const scratchRoot = path.join(root, '.bench');
  fs.mkdirSync(scratchRoot, { recursive: true });
  const ctx: BenchContext = {
    repoRoot: root,
    scratchRoot,
    log: (message) => process.stderr.write(`bench: ${message}\n`),
  };

  const all = discover(__dirname);
  const selected = all.filter((b) => filters.length === 0 || filters.some((f) => b.name.toLowerCase().includes(f)));
  if (selected.length === 0) {
    process.stderr.write(`bench: no benchmark matches ${filters.join(', ')} (have: ${all.map((b) => b.name).join(', ') || 'none'})\n`);
    return 2;
  }

  const info = machine();
  process.stdout.write(
    `Lore benchmarks — node ${info.node}, ${info.cpu} ×${info.cores}${info.shaNi ? ' (SHA-NI)' : ''}, load average ${(info.loadAverage as number[]).join(' ')}\n`,
  );
  const runs: BenchRun[] = [];
  for (const bench of selected) {
    const started = process.hrtime.bigint();
    const run: BenchRun = { bench: bench.name, module: path.relative(root, bench.file), seconds: 0, results: [] };
    try {
      // require, not import(): the modules are compiled CommonJS found at run time.
      const mod = require(bench.file) as Partial<BenchModule>;
      if (typeof mod.run !== 'function') throw new Error(`${run.module} does not export run(ctx)`);
      ctx.log(`${bench.name}: running`);
      run.results = await mod.run(ctx);
    } catch (error) {
      run.error = (error as Error).stack ?? String(error);
    }
    run.seconds = Number(process.hrtime.bigint() - started) / 1e9;
    runs.push(run);
    process.stdout.write(`\n== ${bench.name} (${run.module}, ${formatNumber(run.seconds)} s) ==\n`);
    if (run.results.length) process.stdout.write(formatResults(run.results) + '\n');
    if (run.error) process.stdout.write(`ERROR: ${run.error}\n`);
  }

  const out = path.join(scratchRoot, 'results.json');
  fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), machine: info, runs }, null, 2) + '\n');
  const misses = runs.flatMap((r) => r.results).filter((r) => r.pass === false).length;
  process.stdout.write(
    `\nresults: ${path.relative(process.cwd(), out) || out}${misses ? ` (${misses} target${misses === 1 ? '' : 's'} missed)` : ''}\n`,
  );
  return runs.some((r) => r.error) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
