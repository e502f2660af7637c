/**
 * A person editing a store file by hand, as fast as a script can: run as its own process
 * (`node handEditor.js FILE MODE STOPFILE INTERVAL_MS`), it adds the line `- hand MODE N` every few
 * milliseconds until STOPFILE exists, then prints how many lines it saved. MODE is how editors
 * save: `append` (O_APPEND, as shell `>>` and loggers do), `rename` (write a temporary file, rename
 * it over: VS Code, vim with backupcopy=no) or `inplace` (truncate, then write the whole file).
 * With TRACEFILE (a fifth argument), each save appends `N READ BEFORE AFTER`: when it read the file
 * (an append reads nothing: READ is BEFORE) and when its write began and ended (CLOCK_MONOTONIC nanoseconds, comparable with Lore's
 * LORE_TEST_REPLACE_TRACE), so a test can say which losses only POSIX's rename gap explains.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const [file, mode, stopFile, intervalArg, traceFile] = process.argv.slice(2);
const interval = Number(intervalArg ?? '3');
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Reads the file, or '' while it is momentarily missing (never a reason to stop editing). */
function read(): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

let saved = 0;
while (!fs.existsSync(stopFile)) {
  const line = `- hand ${mode} ${saved}\n`;
  if (mode === 'append') {
    // Traced like the other modes (no read: READ is when the write began), so an append that
    // lands inside Lore's check-then-rename span is told apart from a real loss.
    const before = process.hrtime.bigint();
    fs.appendFileSync(file, line);
    if (traceFile) fs.appendFileSync(traceFile, `${saved} ${before} ${before} ${process.hrtime.bigint()}\n`);
  } else {
    const readAt = process.hrtime.bigint();
    const current = read();
    const next = current === '' || current.endsWith('\n') ? current + line : current + '\n' + line;
    let before: bigint;
    if (mode === 'rename') {
      const tmp = path.join(path.dirname(file), `.hand-editor-${process.pid}.swp`);
      fs.writeFileSync(tmp, next);
      before = process.hrtime.bigint();
      fs.renameSync(tmp, file);
    } else {
      before = process.hrtime.bigint();
      fs.writeFileSync(file, next);
    }
    if (traceFile) fs.appendFileSync(traceFile, `${saved} ${readAt} ${before} ${process.hrtime.bigint()}\n`);
  }
  saved++;
  Atomics.wait(pause, 0, 0, interval);
}
process.stdout.write(String(saved));
