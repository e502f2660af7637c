/**
 * Harvest benchmarks:
 *  1. dry-run classification throughput (scan + sha256 + classify) over a 2,000-conversation,
 *     ~200 MB synthetic corpus, against `openssl dgst -sha256` over the same files: the first
 *     run (every conversation new: imported and rendered) and a later one (5 % new);
 *  2. digest regeneration from 100,000 category items, against just reading those files;
 *  3. apply overhead per conversation with a provider that answers instantly, against a plain
 *     copy of the same files.
 * Every figure is measured warm (page cache filled and code JIT-compiled by a first run),
 * because the question is what Lore itself costs, not how fast the disk is; a figure and its
 * baseline are measured in alternation, so that other load on the machine hits both alike.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifyConversations } from '../src/core/services/harvest/classify';
import { type ClassifiedConversation, type ConversationClass } from '../src/core/store/harvestPlan';
import { KnownFiles } from '../src/core/services/harvest/knownFiles';
import { MeasuredFiles } from '../src/core/services/harvest/measuredFiles';
import { defaultPromptsDir } from '../src/core/services/harvest/prompts';
import { runHarvest, type HarvestReport } from '../src/core/services/harvest/runHarvest';
import { scanSources } from '../src/core/services/discovery/scanSources';
import { CATEGORY_FILES, type CategoryFileKey } from '../src/core/model/categories';
import type { ModelReply, Provider } from '../src/core/services/providers/provider';
import { writeFileAtomic } from '../src/core/base/atomicWrite';
import { digestSections, readCategoryTexts, regenerateDigest } from '../src/core/store/digest';
import { renderDigest } from '../src/core/model/digestFormat';
import { initStore } from '../src/core/store/initStore';
import type { Ledger } from '../src/core/model/ledgerFormat';
import { storePaths, type StorePaths } from '../src/core/store/storePaths';
import {
  MIB,
  baselineOf,
  formatNumber,
  freshScratchDir,
  makeResult,
  mbPerSecond,
  median,
  repeatInterleaved,
  timeSync,
  type BenchContext,
  type BenchResult,
  type InterleavedTask,
  type TaskSamples,
} from './benchSupport';
import { Synth, ensureCorpus, synthesize, type CorpusSpec, type SynthFormat } from './syntheticCorpus';

/** The dry-run corpus. Changing any field regenerates it (once; it is cached in .bench/corpus). */
const CORPUS_SPEC: CorpusSpec = {
  seed: 20_261_121,
  conversations: 2000,
  totalBytes: 200 * MIB,
  minBytes: 3 * 1024,
  maxBytes: 900 * 1024,
  tooLarge: 6,
  binary: 6,
  empty: 4,
  duplicates: 10,
};
const DIGEST_ITEMS = 100_000;
const APPLY_CONVERSATIONS = 500;
/** Repetitions per figure; the figure is their median. */
const REPS = { dryRun: 5, digest: 5, apply: 5 };

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  return [...(await dryRunBench(ctx)), ...(await digestBench(ctx)), ...(await applyBench(ctx))];
}

// ---------------------------------------------------------------------------------------------
// 1. Dry-run classification throughput

/**
 * Splits paths into command lines of at most `maxBytes` of arguments. Linux allows ~2 MB in
 * all but 128 KB per argument; staying far below either keeps this portable.
 */
function argBatches(files: string[], maxBytes = 96 * 1024): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const file of files) {
    const length = Buffer.byteLength(file) + 1;
    if (current.length && size + length > maxBytes) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(file);
    size += length;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** Hashes every file with one `openssl dgst -sha256` per batch, in sequence (Lore is single-threaded too). */
function opensslSha256(files: string[], keepOutput: boolean): Map<string, string> {
  const digests = new Map<string, string>();
  for (const batch of argBatches(files)) {
    const result = spawnSync('openssl', ['dgst', '-sha256', ...batch], {
      stdio: ['ignore', keepOutput ? 'pipe' : 'ignore', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * MIB,
    });
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`openssl dgst failed (${result.status}): ${result.stderr}`);
    if (keepOutput) {
      // `SHA2-256(/path)= hex` (OpenSSL 3) or `SHA256(/path)= hex` (1.1).
      for (const line of result.stdout.split('\n')) {
        const m = /^SHA2?-?256\((.*)\)= ([0-9a-f]{64})$/.exec(line);
        if (m) digests.set(m[1], m[2]);
      }
    }
  }
  return digests;
}

function opensslAvailable(): string | undefined {
  const result = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function countClasses(items: ClassifiedConversation[]): Partial<Record<ConversationClass, number>> {
  const counts: Partial<Record<ConversationClass, number>> = {};
  for (const item of items) counts[item.class] = (counts[item.class] ?? 0) + 1;
  return counts;
}

async function dryRunBench(ctx: BenchContext): Promise<BenchResult[]> {
  const corpus = ensureCorpus(path.join(ctx.scratchRoot, 'corpus'), CORPUS_SPEC, ctx.log);
  const { manifest } = corpus;
  ctx.log(
    `corpus: ${manifest.files.length} files, ${formatNumber(manifest.totalBytes / MIB)} MB (${corpus.reused ? 'reused' : 'generated'})`,
  );
  // A store that does not exist: scanSources only needs its paths to keep its files out of the scan.
  const store = storePaths(path.join(ctx.scratchRoot, 'stores', 'dry-run', '.lore'));
  const emptyLedger: Ledger = { entries: {} };
  let classified: ClassifiedConversation[] = [];
  const classify = () => {
    const scan = scanSources(store, [corpus.dir]);
    classified = classifyConversations(scan.files, emptyLedger, { liveWindowMs: 0 });
  };

  ctx.log('dry run: warming up (page cache, JIT)');
  classify();
  const bytes = classified.reduce((sum, c) => sum + c.bytes, 0);
  const counts = countClasses(classified);
  const expected = (kind: string) => manifest.files.filter((f) => f.kind === kind).length;
  const ordinary = manifest.files.length - ['too-large', 'binary', 'empty', 'duplicate'].reduce((sum, k) => sum + expected(k), 0);
  const notes = [`${classified.length} files, ${formatNumber(bytes / MIB)} MB; classes ${JSON.stringify(counts)}`];
  // The corpus is only a fair workload if Lore sees it as designed (e.g. binaries really binary).
  if (
    counts.harvest !== ordinary ||
    counts['too-large'] !== expected('too-large') ||
    counts.binary !== expected('binary') ||
    counts.empty !== expected('empty') ||
    counts.duplicate !== expected('duplicate')
  ) {
    notes.push(
      `UNEXPECTED classes: the manifest has ${ordinary} ordinary, ${expected('too-large')} too-large, ${expected('binary')} binary, ${expected('empty')} empty, ${expected('duplicate')} duplicate`,
    );
  }

  const files = classified.map((c) => c.path);
  // A later dry run: the ledger proves all but the newest 5 % of the conversations (a user's
  // second and every later harvest). Known content is only hashed, never imported again.
  const newShare = 0.05;
  const known = classified.filter((c) => c.class === 'harvest').sort((a, b) => a.path.localeCompare(b.path));
  const steadyLedger: Ledger = { entries: {} };
  for (const c of known.slice(Math.ceil(known.length * newShare))) {
    steadyLedger.entries[c.sha256] = { path: c.path, status: 'harvested', at: '2026-01-01T00:00:00.000Z', deleted: false };
  }
  // What the apply that wrote that ledger remembers: the known files' stat, so they are not read again.
  const knownFiles = KnownFiles.open(store);
  for (const c of known) if (steadyLedger.entries[c.sha256]) knownFiles.remember(c.path, c.sha256, Date.now());
  let steadyHarvest = 0;
  const classifySteady = () => {
    const scan = scanSources(store, [corpus.dir]);
    steadyHarvest = classifyConversations(scan.files, steadyLedger, { liveWindowMs: 0, knownFiles }).filter(
      (c) => c.class === 'harvest',
    ).length;
  };
  classifySteady(); // Warm-up.
  // The primitive under the classification, in the same runtime: what Lore adds on top of it
  // is scanning, stat, the UTF-8/blank checks and the bookkeeping.
  const nodeHashOnly = () => {
    for (const file of files) createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  };
  // A dry run again, nothing harvested since: what the last dry run learned (measuredFiles.ts),
  // loaded from and saved to the store's cache as the command does, stands for every file.
  fs.mkdirSync(store.root, { recursive: true });
  fs.rmSync(path.join(store.cache, 'measured-files.json'), { force: true });
  let repeatedReads = 0;
  const classifyRepeated = () => {
    const measuredFiles = MeasuredFiles.open(store);
    const scan = scanSources(store, [corpus.dir]);
    repeatedReads = classifyConversations(scan.files, emptyLedger, { liveWindowMs: 0, measuredFiles }).filter(
      (c) => c.class === 'harvest',
    ).length;
    measuredFiles.save();
  };
  classifyRepeated(); // The first dry run, which records; also the warm-up.
  const tasks: Record<string, InterleavedTask> = {
    lore: { fn: classify },
    steady: { fn: classifySteady },
    repeated: { fn: classifyRepeated },
    node: { fn: nodeHashOnly },
  };

  const openssl = opensslAvailable();
  if (openssl) {
    const digests = opensslSha256(files, true); // Warm-up, and a check that both hash the same bytes.
    const mismatched = classified.filter((c) => digests.get(c.path) !== c.sha256).length;
    if (mismatched) notes.push(`${mismatched} files hashed differently by openssl (?)`);
    tasks.openssl = { fn: () => opensslSha256(files, false) };
  } else {
    notes.push('openssl not found: no baseline');
  }

  // The whole command as a user runs it: process start, module loading, JSON report included.
  const cli = path.join(ctx.repoRoot, 'dist', 'cli.js');
  let cliReport: { counts?: Record<string, number> } = {};
  const spawnCli = (args: string[]): string => {
    const result = spawnSync(process.execPath, [cli, ...args], {
      encoding: 'utf8',
      maxBuffer: 256 * MIB,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Exit 1 with a report means "problems were listed", which a dry run over odd files may do.
    if (result.error || (result.status !== 0 && !(result.status === 1 && result.stdout.trim()))) {
      throw new Error(
        `lore ${args[0]} exited ${result.status}: ${(result.error?.message ?? result.stderr).trim().split('\n').slice(0, 3).join(' | ')}`,
      );
    }
    return result.stdout;
  };
  const cliNotes: string[] = [];
  if (fs.existsSync(cli)) {
    const cliRoot = path.join(ctx.scratchRoot, 'stores', 'cli-dry-run', '.lore');
    const args = ['harvest', '--root', cliRoot, '--from', corpus.dir, '--json', '--live-minutes', '0'];
    const runCli = () => {
      cliReport = JSON.parse(spawnCli(args)) as typeof cliReport;
    };
    try {
      runCli(); // Also tells whether the bundle runs at all, before timing it.
      tasks.cli = { fn: runCli };
      tasks.startup = { fn: () => spawnCli(['--version']) };
    } catch (error) {
      // The in-process figures do not depend on the bundle: report the failure and go on.
      cliNotes.push(`CLI dry run skipped: ${(error as Error).message}`);
    }
  } else {
    cliNotes.push(`CLI dry run skipped: ${path.relative(ctx.repoRoot, cli)} is missing (npm run build)`);
  }
  notes.push(...cliNotes);

  ctx.log(`dry run: ${Object.keys(tasks).join(', ')} interleaved ×${REPS.dryRun}`);
  const names = Object.keys(tasks);
  const measured = await repeatInterleaved(
    REPS.dryRun,
    names.map((n) => tasks[n]),
  );
  const samples = Object.fromEntries(names.map((n, i) => [n, measured[i]])) as Record<string, TaskSamples | undefined>;
  const throughput = (wall: number[]) => wall.map((ms) => mbPerSecond(bytes, ms));
  const baseline = samples.openssl
    ? baselineOf(`openssl dgst -sha256, ${argBatches(files).length} processes`, 'MB/s', throughput(samples.openssl.wall))
    : undefined;
  const lore = samples.lore!;
  const node = samples.node!;
  notes.push(
    `medians for the same bytes: lore ${formatNumber(median(lore.wall))} ms (CPU ${formatNumber(median(lore.cpu))} ms), node read+sha256 ${formatNumber(median(node.wall))} ms (CPU ${formatNumber(median(node.cpu))} ms)${baseline ? `, openssl ${formatNumber(median(samples.openssl!.wall))} ms` : ''}`,
  );

  const steady = samples.steady!;
  const perConversation = (median(lore.wall) - median(node.wall)) / Math.max(1, counts.harvest ?? 0);
  notes.push(
    `first dry run: ${formatNumber(perConversation)} ms per new conversation on top of read+sha256 (import + render to measure what the model would read)`,
  );
  const results: BenchResult[] = [
    // The first dry run imports and renders every new conversation (ms per conversation in the
    // notes); issue 32 asks it to take at most twice the hash floor's time.
    makeResult({
      name: 'dry-run classify, first run (every file new)',
      unit: 'MB/s',
      samples: throughput(lore.wall),
      baseline,
      target: { on: 'ratio', op: '>=', threshold: 0.5 },
      notes,
    }),
    makeResult({
      name: `dry-run classify, later run (${Math.round(newShare * 100)} % new)`,
      unit: 'MB/s',
      samples: throughput(steady.wall),
      baseline,
      target: { on: 'ratio', op: '>=', threshold: 0.5 },
      notes: [
        `${steadyHarvest} new conversations read and imported, ${known.length - steadyHarvest} known ones only stat'ed (known-files cache); median ${formatNumber(median(steady.wall))} ms`,
      ],
    }),
    makeResult({
      name: 'dry-run classify, repeated (nothing changed since the last dry run)',
      unit: 'MB/s',
      samples: throughput(samples.repeated!.wall),
      baseline,
      target: { on: 'ratio', op: '>=', threshold: 0.5 },
      notes: [
        `${repeatedReads} conversations to harvest, every file known from the last dry run's cache (stat only); median ${formatNumber(median(samples.repeated!.wall))} ms`,
      ],
    }),
    makeResult({ name: '  node readFileSync+sha256 only', unit: 'MB/s', samples: throughput(node.wall), baseline }),
  ];
  if (samples.cli && samples.startup) {
    results.push(
      makeResult({
        name: 'CLI `lore harvest --json` dry run',
        unit: 'MB/s',
        samples: throughput(samples.cli.wall),
        baseline,
        notes: [
          `${formatNumber(median(samples.cli.wall))} ms per run, of which ${formatNumber(median(samples.startup.wall))} ms is node start-up + loading dist/cli.js (\`lore --version\`); harvest ${cliReport.counts?.harvest ?? '?'} of ${classified.length}`,
        ],
      }),
    );
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// 2. Digest regeneration from 100,000 items

/** How the items are spread over the category files (tasks: open then done). */
const DIGEST_SHARES: ReadonlyArray<[CategoryFileKey, number]> = [
  ['facts', 0.4],
  ['decisions', 0.2],
  ['questions', 0.1],
  ['playbooks', 0.1],
  ['tasks', 0.2],
];

/**
 * Category files as a store accumulates them: dated provenance on every harvested line, some
 * hand-written lines without it, a few wrapped items, sections a person added, a code fence.
 */
function writeCategoryFiles(paths: StorePaths, total: number): number {
  const s = new Synth(7_919);
  const r = s.rng;
  const sources = Array.from({ length: 3000 }, (_, i) =>
    i % 3 === 0
      ? r.uuid()
      : i % 3 === 1
        ? `ses_${r.hex(16)}`
        : `2025-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}-session-${i}`,
  );
  const day0 = Date.UTC(2025, 0, 1);
  let written = 0;
  const statement = () => s.sentence().replace(/[.?:!]$/, '');
  const item = (n: number, count: number, key: CategoryFileKey): string => {
    // Append-only files: older lines first, so dates grow along the file.
    const date = new Date(day0 + Math.floor((n / count) * 320) * 86_400_000).toISOString().slice(0, 10);
    const provenance = r.chance(0.005) ? '' : ` [from: ${r.pick(sources)}, ${date}]`;
    const body =
      key === 'playbooks'
        ? `**${s.paragraph(1, 1).slice(0, 40).replace(/\*/g, '')}**: ${[0, 1, 2, 3]
            .slice(0, r.int(2, 4))
            .map(() => statement())
            .join(' -> ')}`
        : r.chance(0.5)
          ? `${statement()} — ${statement()}`
          : statement();
    const line = `- ${body}${provenance}`;
    return r.chance(0.01) ? `${line}\n  ${statement()}` : line;
  };
  for (const [key, share] of DIGEST_SHARES) {
    const count = Math.round(total * share);
    const { file, title } = CATEGORY_FILES[key];
    const lines = [`# ${title}`, ''];
    if (key === 'tasks') {
      const open = Math.round(count * 0.4);
      lines.push('## Open', '');
      for (let i = 0; i < open; i++) lines.push(item(i, open, key));
      lines.push('', '## Done', '');
      for (let i = open; i < count; i++) lines.push(item(i, count, key));
    } else {
      lines.push('Notes kept by hand stay as they are:', '', '```bash', 'npm test -- --grep digest', '```', '');
      for (let i = 0; i < count; i++) {
        if (i > 0 && i % 2500 === 0) lines.push('', `## ${statement().slice(0, 50)}`, '');
        lines.push(item(i, count, key));
      }
    }
    const text = lines.join('\n') + '\n';
    fs.writeFileSync(path.join(paths.root, file), text);
    written += Buffer.byteLength(text);
  }
  return written;
}

async function digestBench(ctx: BenchContext): Promise<BenchResult[]> {
  const root = freshScratchDir(ctx, path.join('stores', 'digest', '.lore'));
  const paths = storePaths(root);
  const bytes = writeCategoryFiles(paths, DIGEST_ITEMS);
  const files = Object.values(CATEGORY_FILES).map((c) => path.join(root, c.file));
  ctx.log(
    `digest: ${DIGEST_ITEMS} items in ${files.length} files (${formatNumber(bytes / MIB)} MB), regenerateDigest and its parts interleaved ×${REPS.digest}`,
  );

  const first = regenerateDigest(paths); // Warm-up: page cache, JIT, and the digest must be non-trivial.
  const texts = readCategoryTexts(paths);
  const sections = digestSections(texts);
  const text = renderDigest(sections) ?? '';
  const probe = path.join(root, 'digest-write-probe.md');
  const [regen, readUtf8, unchanged, rawRead, parse, render, write] = await repeatInterleaved(REPS.digest, [
    // Removing digest.md first makes every repetition do the full read + parse + render + write.
    { fn: () => regenerateDigest(paths), setup: () => fs.rmSync(paths.digest, { force: true }) },
    { fn: () => files.forEach((file) => fs.readFileSync(file, 'utf8')) },
    { fn: () => regenerateDigest(paths) },
    // Where the time goes, piece by piece on the same data.
    { fn: () => files.forEach((file) => fs.readFileSync(file)) },
    { fn: () => digestSections(texts) },
    { fn: () => renderDigest(sections) },
    { fn: () => writeFileAtomic(probe, text), setup: () => fs.rmSync(probe, { force: true }) },
  ]);
  fs.rmSync(probe, { force: true });
  const read = baselineOf('readFileSync utf8 of the 5 files', 'ms', readUtf8.wall);

  return [
    makeResult({
      name: `regenerateDigest, ${DIGEST_ITEMS / 1000}k items`,
      unit: 'ms',
      samples: regen.wall,
      baseline: read,
      target: { on: 'value', op: '<', threshold: 50 },
      notes: [
        `${formatNumber(bytes / MIB)} MB of category files, digest ${first.bytes} B; CPU time ${formatNumber(median(regen.cpu))} ms`,
        `breakdown (medians): read as Buffer ${formatNumber(median(rawRead.wall))} ms + UTF-8 decode ${formatNumber(read.value - median(rawRead.wall))} ms, parse (digestSections → listItems) ${formatNumber(median(parse.wall))} ms, render ${formatNumber(median(render.wall))} ms, atomic write with fsync ${formatNumber(median(write.wall))} ms`,
      ],
    }),
    makeResult({ name: '  same, digest unchanged (no write)', unit: 'ms', samples: unchanged.wall, baseline: read }),
  ];
}

// ---------------------------------------------------------------------------------------------
// 3. Apply overhead per conversation

/** A valid harvest reply with one item of every category, a file note included. */
const INSTANT_REPLY = JSON.stringify({
  facts: [{ statement: 'The CLI bundle is built by esbuild', detail: 'tsc only type-checks' }, 'Integration tests need Node 24'],
  decisions: [{ statement: 'Keep the ledger as sorted JSON', detail: 'diffs stay reviewable' }],
  tasks_open: ['Add a retry budget to the provider calls'],
  tasks_done: ['Fixed the flaky cache test'],
  questions: ['Should archived conversations expire?'],
  playbooks: [{ name: 'Release', steps: ['npm run build', 'npm test', 'npm publish'] }],
  files: [{ path: 'src/app.ts', note: 'Entry point: keep it thin, logic lives in core/' }],
});

/** An offline provider that answers at once: what remains is Lore's own per-conversation cost. */
const instantProvider: Provider = {
  name: 'instant',
  label: 'instant (bench)',
  offline: true,
  generate: async (): Promise<ModelReply> => ({ text: INSTANT_REPLY }),
};

const APPLY_FORMATS: readonly SynthFormat[] = ['claude-code', 'codex', 'aider', 'lore-transcript', 'plain'];
const APPLY_NAMES: Record<SynthFormat, (i: number) => string> = {
  'claude-code': (i) => `session-${i}.jsonl`,
  codex: (i) => `rollout-${i}.jsonl`,
  aider: (i) => `project-${i}.aider.chat.history.md`,
  'lore-transcript': (i) => `transcript-${i}.md`,
  plain: (i) => `chat-${i}.txt`,
};

/** Small inbox conversations (2–12 KB, all formats), regenerated deterministically each run. */
function writeInboxSources(dir: string, count: number): string[] {
  const s = new Synth(31_337);
  const start = Date.UTC(2026, 5, 1);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const format = APPLY_FORMATS[i % APPLY_FORMATS.length];
    const name = APPLY_NAMES[format](i);
    fs.writeFileSync(path.join(dir, name), synthesize(s, format, s.rng.int(2 * 1024, 12 * 1024), start + i * 3_600_000, 'app'));
    names.push(name);
  }
  return names;
}

/**
 * A workspace with a fresh store whose inbox holds the sources. They are written with plain
 * read + write like an agent or a person saving a file: on this ext4 VM, files created by
 * copyFileSync (copy_file_range) took 50-100× longer to unlink, which would have measured the
 * copy method instead of Lore's reclaim.
 */
function prepareStore(ctx: BenchContext, sourceDir: string, names: string[]): StorePaths {
  const workspace = freshScratchDir(ctx, path.join('stores', 'apply', 'workspace'));
  fs.mkdirSync(path.join(workspace, 'src'));
  fs.writeFileSync(path.join(workspace, 'src', 'app.ts'), "import { main } from './core/main';\n\nmain(process.argv.slice(2));\n");
  const paths = storePaths(path.join(workspace, '.lore'));
  initStore(paths, defaultPromptsDir());
  copyFiles(sourceDir, paths.inbox, names);
  return paths;
}

function copyFiles(from: string, to: string, names: string[]): void {
  for (const name of names) fs.writeFileSync(path.join(to, name), fs.readFileSync(path.join(from, name)));
}

interface FsCallStats {
  calls: number;
  ms: number;
}

/**
 * Counts and times fsyncs and single-file removals (the reclaims) during `fn`. The compiled
 * sources read fs.fsyncSync / fs.rmSync from the live module object at each call, so replacing
 * them there (not on this module's import binding) is seen by atomicWrite.ts and applyPlan.ts.
 */
async function instrumentFs(fn: () => Promise<unknown>): Promise<{ fsync: FsCallStats; unlink: FsCallStats }> {
  const realFs = process.getBuiltinModule('node:fs');
  const { fsyncSync, rmSync } = realFs;
  const stats = { fsync: { calls: 0, ms: 0 }, unlink: { calls: 0, ms: 0 } };
  realFs.fsyncSync = (fd: number) => {
    stats.fsync.calls++;
    stats.fsync.ms += timeSync(() => fsyncSync(fd));
  };
  realFs.rmSync = (target: fs.PathLike, options?: fs.RmOptions) => {
    if (options) return rmSync(target, options); // Recursive or forced: not a reclaim.
    stats.unlink.calls++;
    stats.unlink.ms += timeSync(() => rmSync(target));
  };
  try {
    await fn();
  } finally {
    realFs.fsyncSync = fsyncSync;
    realFs.rmSync = rmSync;
  }
  return stats;
}

function checkApplied(report: HarvestReport, count: number): void {
  const harvested = report.conversations.filter((c) => c.status === 'harvested').length;
  // Not a timing assertion: a bench that silently harvested nothing would measure nothing.
  if (harvested !== count || report.failed > 0 || (report.applied && report.applied.reclaimed.length !== count)) {
    throw new Error(
      `apply bench: expected ${count} harvested and reclaimed, got ${harvested} harvested, ${report.failed} failed, ${report.applied?.reclaimed.length ?? 0} reclaimed`,
    );
  }
}

async function applyBench(ctx: BenchContext): Promise<BenchResult[]> {
  const count = APPLY_CONVERSATIONS;
  const sourceDir = freshScratchDir(ctx, path.join('apply', 'source'));
  const names = writeInboxSources(sourceDir, count);
  const sourceBytes = names.reduce((sum, n) => sum + fs.statSync(path.join(sourceDir, n)).size, 0);
  const copyDir = path.join(ctx.scratchRoot, 'apply', 'copy');
  const now = new Date(Date.UTC(2026, 10, 1));
  let paths = prepareStore(ctx, sourceDir, names);
  let lastReport: HarvestReport | undefined;
  const harvest = async (mode: 'apply' | 'preview') => {
    lastReport = await runHarvest({ paths, mode, provider: instantProvider, now, reclaim: 'delete', liveWindowMs: 0 });
    checkApplied(lastReport, count);
  };
  const freshStore = () => {
    paths = prepareStore(ctx, sourceDir, names);
  };

  ctx.log(`apply: ${count} conversations (${formatNumber(sourceBytes / 1024)} KB) with an instant provider, interleaved ×${REPS.apply}`);
  await harvest('apply'); // Warm-up (JIT); its store is thrown away.
  const [apply, preview, copied] = await repeatInterleaved(REPS.apply, [
    { fn: () => harvest('apply'), setup: freshStore },
    { fn: () => harvest('preview'), setup: freshStore },
    // Baseline: read + write of the same files (no parsing, no fsync), as the inbox was filled.
    { fn: () => copyFiles(sourceDir, copyDir, names), setup: () => freshScratchDir(ctx, path.join('apply', 'copy')) },
  ]);
  fs.rmSync(copyDir, { recursive: true, force: true });
  freshStore();
  const io = await instrumentFs(() => harvest('apply'));

  const perConversation = (ms: number) => ms / count;
  const copy = baselineOf('read+write copy per file', 'ms', copied.wall.map(perConversation));
  const applyMedian = median(apply.wall);
  const previewMedian = median(preview.wall);
  const written = lastReport?.applied?.written.length ?? 0;
  return [
    makeResult({
      name: `apply overhead per conversation (${count})`,
      unit: 'ms',
      samples: apply.wall.map(perConversation),
      baseline: copy,
      target: { on: 'value', op: '<', threshold: 2 },
      notes: [
        // Wall time of the write phase is too noisy on a shared machine to get by subtraction;
        // the instrumented run below measures its I/O directly.
        `whole apply ${formatNumber(applyMedian)} ms wall / ${formatNumber(median(apply.cpu))} ms CPU; preview (scan, classify, import, distill, plan; no writes) ${formatNumber(previewMedian)} ms wall / ${formatNumber(median(preview.cpu))} ms CPU`,
        `in one instrumented apply: ${io.fsync.calls} fsyncs took ${formatNumber(io.fsync.ms)} ms (${written} files written atomically); ${io.unlink.calls} reclaim unlinks took ${formatNumber(io.unlink.ms)} ms`,
      ],
    }),
    makeResult({ name: '  preview per conversation', unit: 'ms', samples: preview.wall.map(perConversation), baseline: copy }),
  ];
}
