import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, makeTempDir } from './paths';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (dist/cli.js) in a child process. Asynchronous on purpose: stub servers
 * live in the test process and must keep answering while the CLI runs.
 */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; fileSizeLimitBlocks?: number } = {}): Promise<CliResult> {
  // With a file-size limit, a shell sets `ulimit -f` (512-byte blocks) and execs node under it.
  const [command, argv] = options.fileSizeLimitBlocks === undefined
    ? [process.execPath, [CLI, ...args]]
    : ['sh', ['-c', `ulimit -f ${options.fileSizeLimitBlocks} && exec "$0" "$@"`, process.execPath, CLI, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, LORE_TEST_CRASH_AFTER: '', LORE_PROVIDER: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A workspace with `src/app.ts` and an initialized store at `.lore`. */
export async function makeWorkspace(): Promise<{ ws: string; root: string; inbox: string }> {
  const ws = makeTempDir('lore-ws-');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
  const root = path.join(ws, '.lore');
  const init = await runCli(['init', '--root', root]);
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
  return { ws, root, inbox: path.join(root, 'inbox') };
}

/** Every file under `dir` with its content, for before/after comparisons. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** A §2.1 transcript whose user turn carries rules-provider markers. */
export function transcript(id: string, body: string, started = '2026-11-20T10:00:00Z'): string {
  return `---\nsession_id: ${id}\nstarted: ${started}\n---\n\n# ${id}\n\n## 10:00 — user\n${body}\n\n## 10:01 — agent\nOk.\n`;
}
