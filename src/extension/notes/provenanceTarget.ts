/**
 * Where a provenance marker leads: the conversation's transcript if it still exists (inbox,
 * archive, or the external file it was read from), at the line the note most likely came
 * from; else the ledger entry that records when and what was harvested from it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanSources } from '../../core/harvest/scanSources';
import { readLedger } from '../../core/store/ledger';
import type { StorePaths } from '../../core/store/storePaths';

export type ProvenanceTarget =
  | { kind: 'conversation'; file: string; line: number }
  | { kind: 'ledger'; file: string; line: number }
  | { kind: 'missing' };

/**
 * A conversation file in the inbox or archive for a conversation id: named after it (`id.md`,
 * `id.jsonl`, …) or, for @lore discussions, `<date>-<id>.md`.
 */
function findConversation(paths: StorePaths, id: string): string | undefined {
  const stemOf = (file: string) => path.basename(file).replace(/\.[^.]+$/, '');
  const files = scanSources(paths, [paths.inbox, paths.archive]).files.map((f) => f.path);
  return files.find((f) => stemOf(f) === id) ?? files.find((f) => stemOf(f).replace(/^\d{4}-\d{2}-\d{2}-/, '') === id);
}

/** The line of `file` that best matches the note's words (0 when none does). */
function lineForNote(file: string, note: string): number {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  const words = note.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter((w) => w.length > 3).slice(0, 6);
  if (!words.length) return 0;
  const lines = text.split('\n');
  let best = 0;
  let bestScore = 0;
  for (let i = 0; i < lines.length; i++) {
    const lower = lines[i].toLowerCase();
    const score = words.filter((w) => lower.includes(w)).length;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return bestScore >= Math.min(2, words.length) ? best : 0;
}

export function provenanceTarget(paths: StorePaths, source: string, noteText: string): ProvenanceTarget {
  let ledger;
  try {
    ledger = readLedger(paths.ledger);
  } catch {
    ledger = { entries: {} };
  }
  const entries = Object.entries(ledger.entries).filter(([, e]) => e.id === source || path.basename(e.path).replace(/\.[^.]+$/, '') === source);
  for (const [, entry] of entries) {
    for (const candidate of [entry.archived, entry.path]) {
      if (candidate && fs.existsSync(candidate)) return { kind: 'conversation', file: candidate, line: lineForNote(candidate, noteText) };
    }
  }
  const found = findConversation(paths, source);
  if (found) return { kind: 'conversation', file: found, line: lineForNote(found, noteText) };
  if (entries.length && fs.existsSync(paths.ledger)) {
    const sha = entries[0][0];
    const line = fs.readFileSync(paths.ledger, 'utf8').split('\n').findIndex((l) => l.includes(`"${sha}"`));
    return { kind: 'ledger', file: paths.ledger, line: Math.max(0, line) };
  }
  return { kind: 'missing' };
}
