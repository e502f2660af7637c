/**
 * Appending to a log that must stay small without anyone tending it (the hook log, the usage
 * log, what a git commit after a write could not do): past its cap the file moves to `<file>.1`,
 * replacing an older one, so at most twice the cap is ever kept. Each call is one write of the
 * given text, so the lines of concurrent processes do not interleave within a line.
 */
import * as fs from 'node:fs';
import { appendNoFollow, mkdirNoFollow, renameNoFollow } from '../base/storeLinks';
import * as path from 'node:path';
import { printable } from '../model/format';
import { readStoreFile } from '../base/readText';
import { lazy } from '../base/lazy';

// Loaded by the first message logged: a run that logs nothing (a search's usage record) skips the secret rules.
const redact = lazy(() => require('../model/safety/redact') as typeof import('../model/safety/redact'));

export const LOG_MAX_BYTES = 256 * 1024;

/** Appends `text` to `file` (creating its folder), rotating it first when it reached `maxBytes`. Throws what fs throws. */
export function appendCapped(file: string, text: string, maxBytes: number): void {
  try {
    if (fs.statSync(file).size >= maxBytes) renameNoFollow(file, `${file}.1`);
  } catch {
    // No log yet (its folder made only then: a hook runs this before every prompt).
    mkdirNoFollow(path.dirname(file));
  }
  appendNoFollow(file, text);
}

/** The lines of a capped log, the rotated file's first (oldest first), blank lines and missing files left out. */
export function readCappedLines(file: string): string[] {
  const lines: string[] = [];
  for (const name of [`${file}.1`, file]) {
    let text: string;
    try {
      text = readStoreFile(name, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) if (line.trim()) lines.push(line);
  }
  return lines;
}

/**
 * Appends `<ISO time> <message>`, the message made printable and redacted like anything else
 * Lore stores. Never throws: there is nowhere left to report a failing log.
 */
export function appendLogLine(file: string, message: string, now = new Date()): void {
  try {
    appendCapped(file, `${now.toISOString()} ${redact().redactSecrets(printable(message))}\n`, LOG_MAX_BYTES);
  } catch {
    // Nowhere left to say it.
  }
}
