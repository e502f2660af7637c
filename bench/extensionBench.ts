/**
 * Extension-host benchmarks: what activating Lore costs VS Code.
 *  1. the size of dist/extension.js as `npm run package` ships it (`esbuild.mjs --production`,
 *     built into .bench/ so dist/ is left alone), against a bundle of vscode-languageclient alone
 *     (the floor of an extension that talks to a language server); the notes list what is in it;
 *  2. the time to require that bundle and call `activate` in a fresh Node process with a fake
 *     `vscode` module (bench/fakeVscode.ts), against requiring and activating the floor bundle the
 *     same way, interleaved.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { baselineOf, formatNumber, freshScratchDir, makeResult, median, type BenchContext, type BenchResult } from './benchSupport';

const KB = 1024;
const SAMPLES = 7;

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

interface ProbeTimes {
  /** Requiring dist/languageClient.js, which the extension does in the turn after activation's. */
  libraryMs: number;
  requireMs: number;
  activateMs: number;
  totalMs: number;
}

/** Bytes per package (node_modules) or per source folder, largest first. */
function breakdown(meta: Metafile): Array<[string, number]> {
  const output = Object.values(meta.outputs)[0];
  const sums = new Map<string, number>();
  for (const [file, info] of Object.entries(output.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    const key = pkg ?? file.split('/').slice(0, 3).join('/');
    sums.set(key, (sums.get(key) ?? 0) + info.bytesInOutput);
  }
  return [...sums].sort((a, b) => b[1] - a[1]);
}

function probe(ctx: BenchContext, bundle: string, workspace: string): ProbeTimes {
  const script = path.join(ctx.repoRoot, 'out', 'bench', 'activationProbe.js');
  const run = spawnSync(process.execPath, [script, bundle, workspace], { encoding: 'utf8', timeout: 60_000 });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !line.startsWith('{'))
    throw new Error(`activation probe of ${bundle} failed (${run.status}): ${run.stderr.slice(0, 2000)}`);
  return JSON.parse(line) as ProbeTimes;
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const dir = freshScratchDir(ctx, 'extension-bundle');
  const built = spawnSync(process.execPath, [path.join(ctx.repoRoot, 'esbuild.mjs'), '--production', '--metafile', `--outdir=${dir}`], {
    cwd: ctx.repoRoot,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`esbuild.mjs --production failed: ${built.stderr}`);
  const bundle = path.join(dir, 'extension.js');
  const size = fs.statSync(bundle).size;

  // The floor: vscode-languageclient alone, bundled and minified the same way.
  const esbuild = require('esbuild') as typeof import('esbuild');
  const floor = path.join(dir, 'floor', 'extension.js');
  await esbuild.build({
    stdin: {
      contents: "module.exports = { ...require('vscode-languageclient/node'), activate() {} };",
      resolveDir: ctx.repoRoot,
      loader: 'js',
    },
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    external: ['vscode'],
    outfile: floor,
    logLevel: 'error',
  });
  const floorSize = fs.statSync(floor).size;

  const meta = JSON.parse(fs.readFileSync(`${bundle}.meta.json`, 'utf8')) as Metafile;
  const top = breakdown(meta)
    .slice(0, 8)
    .map(([name, bytes]) => `${name} ${formatNumber(bytes / KB)} KB`);

  const workspace = path.join(dir, 'workspace');
  fs.mkdirSync(path.join(workspace, '.lore'), { recursive: true });
  const lore: ProbeTimes[] = [];
  const base: ProbeTimes[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    lore.push(probe(ctx, bundle, workspace));
    base.push(probe(ctx, floor, workspace));
  }
  const totals = lore.map((t) => t.totalMs);
  return [
    makeResult({
      name: 'dist/extension.js, production build',
      unit: 'KB',
      samples: [size / KB],
      baseline: baselineOf('vscode-languageclient alone, same build', 'KB', [floorSize / KB]),
      target: { on: 'value', op: '<=', threshold: 300 },
      notes: [`largest parts: ${top.join(', ')}`],
    }),
    makeResult({
      name: `activation: require + activate(), fresh process, fake vscode (${SAMPLES} runs)`,
      unit: 'ms',
      samples: totals,
      baseline: baselineOf(
        'require + activate of the vscode-languageclient bundle',
        'ms',
        base.map((t) => t.totalMs),
      ),
      target: { on: 'value', op: '<', threshold: 50 },
      notes: [
        `require ${formatNumber(median(lore.map((t) => t.requireMs)))} ms, activate() ${formatNumber(median(lore.map((t) => t.activateMs)))} ms (medians)`,
        `then, in a later turn of the event loop: the language client library (dist/languageClient.js) ${formatNumber(median(lore.map((t) => t.libraryMs)))} ms`,
      ],
    }),
  ];
}
