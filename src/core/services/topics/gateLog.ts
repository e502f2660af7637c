/**
 * Tuning data (§5.5): every routing decision of a topic candidate, one JSON line each, appended
 * to `<store>/.logs/gates.jsonl`. A line holds the message's hash, never its text. Lines are
 * short and appended with one write each (O_APPEND), so concurrent hooks do not interleave within
 * a line; past MAX_LOG_BYTES the file is moved to gates.jsonl.1 and a new one started (cappedLog.ts).
 */
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import { appendCapped, readCappedLines } from '../../store/cappedLog';

const MAX_LOG_BYTES = 5 * 1024 * 1024;

/** What happened at the gate. */
export type GateResult = 'yes' | 'no' | 'bypass' | 'drop' | 'manual' | 'no-model' | 'failed';

/** One line of gates.jsonl. */
export interface GateLogEntry {
  at: string;
  messageHash: string;
  topic: string;
  /** What tier 1 matched (`pattern`, `keywords`, `glob`), or null when only tier 2 fired. */
  tier1: string | null;
  tier2: number;
  gate: GateResult;
  /** True when the gate's answer came from the cache. */
  cached?: boolean;
  active: boolean;
  /** Where it was decided: `cli` (lore context), `hook` (never calls the gate), `output` (a reply). */
  via: string;
}

export function gateLogFile(paths: StorePaths): string {
  return path.join(paths.root, '.logs', 'gates.jsonl');
}

/** Appends entries; a failure to log never fails the caller. */
export function appendGateLog(paths: StorePaths, entries: readonly GateLogEntry[]): void {
  if (!entries.length) return;
  try {
    appendCapped(gateLogFile(paths), entries.map((e) => JSON.stringify(e)).join('\n') + '\n', MAX_LOG_BYTES);
  } catch {
    // Tuning data is worth less than the answer it describes.
  }
}

/** The entries of the log (and of its previous file), skipping lines that are not entries. */
export function readGateLog(paths: StorePaths): GateLogEntry[] {
  const entries: GateLogEntry[] = [];
  for (const line of readCappedLines(gateLogFile(paths))) {
    try {
      const entry = JSON.parse(line) as GateLogEntry;
      if (entry && typeof entry.topic === 'string' && typeof entry.gate === 'string') entries.push(entry);
    } catch {
      // A torn or hand-edited line.
    }
  }
  return entries;
}
