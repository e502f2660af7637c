/**
 * A log file Lore appends one line to when something could not be done and must not become an
 * error (a hook, a git commit after a write). Capped: past LOG_MAX_BYTES the log moves to
 * `<file>.1` (replacing the older one), so at most twice the cap is ever kept. Lines are made
 * printable and redacted like anything else Lore stores.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactSecrets } from '../safety/redact';
import { printable } from './format';

export const LOG_MAX_BYTES = 256 * 1024;

/** Appends `<ISO time> <message>`. Never throws: there is nowhere left to report a failing log. */
export function appendLogLine(file: string, message: string, now = new Date()): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      if (fs.statSync(file).size >= LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
    } catch {
      // No log yet.
    }
    fs.appendFileSync(file, `${now.toISOString()} ${redactSecrets(printable(message))}\n`);
  } catch {
    // Nowhere left to say it.
  }
}
