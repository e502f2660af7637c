/**
 * Starts handEditor.js (a person saving a store file every few milliseconds) as its own process,
 * and tells which of the lines a stress test found lost only POSIX's check-then-rename gap
 * explains.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Resolves with how many lines the editor saved once STOPFILE appears; TRACEFILE records each save. */
export function startHandEditor(file: string, mode: string, stopFile: string, traceFile?: string): Promise<number> {
  const args = [path.join(__dirname, 'handEditor.js'), file, mode, stopFile, '3', ...(traceFile ? [traceFile] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`editor exited ${code}`))));
  });
}

/** The lines of a trace file as numbers (an absent file: none). */
function readTrace(file: string): bigint[][] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ').map((f) => BigInt(f)));
}

/**
 * The lost hand lines (by number) that the rename gap does not explain, which must be none. A
 * lost line is excused only when the editor renamed its save into place while a Lore process was
 * between checking the version it read and renaming its own file over it (Lore's
 * LORE_TEST_REPLACE_TRACE spans): POSIX has no compare-and-swap rename, so that save is replaced.
 */
export function unexplainedHandLoss(lost: number[], editorTrace: string, loreTrace: string): { unexplained: number[]; excused: number } {
  const saves = new Map(readTrace(editorTrace).map(([n, , before, after]) => [Number(n), { from: before, to: after }]));
  const replaces = readTrace(loreTrace).map(([checked, done]) => ({ from: checked, to: done }));
  const unexplained = lost.filter((n) => {
    const save = saves.get(n);
    return !save || !replaces.some((r) => save.from <= r.to && save.to >= r.from);
  });
  return { unexplained, excused: lost.length - unexplained.length };
}

/**
 * Saves of a buffer read longer than `windowMs` before it was written (an editor held up by a
 * busy machine): such a save may remove lines Lore wrote and watched meanwhile, the one way an
 * acknowledged write can go (docs/reliability.md says so).
 */
export function staleSaves(editorTrace: string, windowMs: number): number {
  const window = BigInt(windowMs) * 1_000_000n;
  return readTrace(editorTrace).filter(([, read, before]) => before - read > window).length;
}
