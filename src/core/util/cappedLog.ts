/**
 * Appending to a log that must stay small without anyone tending it (the hook log, the usage
 * log): past `maxBytes` the file moves to `<file>.1`, replacing an older one, so at most twice
 * the cap is ever kept. Each call is one write of the given text, so the lines of concurrent
 * processes do not interleave within a line.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Appends `text` to `file` (creating its folder), rotating it first when it reached `maxBytes`. Throws what fs throws. */
export function appendCapped(file: string, text: string, maxBytes: number): void {
  try {
    if (fs.statSync(file).size >= maxBytes) fs.renameSync(file, `${file}.1`);
  } catch {
    // No log yet (its folder made only then: a hook runs this before every prompt).
    fs.mkdirSync(path.dirname(file), { recursive: true });
  }
  fs.appendFileSync(file, text);
}
