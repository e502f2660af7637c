/**
 * Where a provenance marker `[from: ID, date]` leads, for every place that opens one (the
 * extension's links, lenses and hovers, the MCP server): the conversation's stored transcript
 * (transcripts/, which outlives the raw file) at the heading of the turn the item came from;
 * else the raw conversation if it still exists (inbox, archive, the external file it was read
 * from); else the ledger entry that records its harvest.
 *
 * Harvest replies carry no quote or turn number, so the turn is the one whose words the item
 * shares most (rules items are cut from a turn; a model's paraphrase keeps its key words). When
 * no turn shares enough, the transcript opens at the top.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseTurnHeading } from '../../model/transcriptSyntax';
import { walkTree } from '../../base/walkTree';
import { isConversationFileName } from '../../model/conversation';
import { readLedger } from '../ledger';
import { type LedgerEntry } from '../../model/ledgerFormat';
import { isInside, type StorePaths } from '../storePaths';
import { itemStatement } from '../../model/itemLines';
import { readStoreFile } from '../../base/readText';

export type ProvenanceTarget =
  | { kind: 'transcript'; file: string; line: number }
  | { kind: 'conversation'; file: string; line: number }
  | { kind: 'ledger'; file: string; line: number }
  | { kind: 'missing' };

/** Words of at most this many letters say little about where an item came from. */
const SHORT_WORD = 3;
/** The item words compared (the statement's first ones: the detail after it is often added). */
const MAX_WORDS = 12;

/** The distinctive words of an item line (list marker, playbook name markup and provenance removed). */
function itemWords(itemLine: string): string[] {
  const text = itemStatement(itemLine);
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > SHORT_WORD);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** How many of `words` occur in `text` (already lowercased). */
function shared(words: string[], text: string): number {
  return words.filter((w) => text.includes(w)).length;
}

/**
 * The 0-based line of the `## HH:MM — role` heading of the turn an item most likely came from, in
 * a §2.1 transcript, with how many of the item's words that turn holds; line 0 (the top) when no
 * turn holds at least two of them (or all, for a shorter item).
 */
export function turnLineForItem(transcript: string, itemLine: string): { line: number; score: number } {
  const words = itemWords(itemLine);
  if (!words.length) return { line: 0, score: 0 };
  const lines = transcript.split('\n');
  let best = { line: 0, score: 0 };
  let heading = -1;
  let turnText = '';
  const close = () => {
    if (heading < 0) return;
    const score = shared(words, turnText);
    if (score > best.score) best = { line: heading, score };
  };
  for (let i = 0; i < lines.length; i++) {
    if (parseTurnHeading(lines[i])) {
      close();
      heading = i;
      turnText = '';
    } else if (heading >= 0) {
      turnText += `${lines[i].toLowerCase()}\n`;
    }
  }
  close();
  return best.score >= Math.min(2, words.length) ? best : { line: 0, score: 0 };
}

/** The line of any text file that best matches the item (raw conversations have no turn headings Lore knows). */
function lineForItem(file: string, itemLine: string): number {
  let text: string;
  try {
    text = readStoreFile(file, 'utf8');
  } catch {
    return 0;
  }
  const words = itemWords(itemLine).slice(0, 6);
  if (!words.length) return 0;
  const lines = text.split('\n');
  let best = 0;
  let bestScore = 0;
  for (let i = 0; i < lines.length; i++) {
    const score = shared(words, lines[i].toLowerCase());
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return bestScore >= Math.min(2, words.length) ? best : 0;
}

/**
 * A conversation file in the inbox or archive for a conversation id: named after it (`id.md`,
 * `id.jsonl`, …) or, for @lore discussions, `<date>-<id>.md`.
 */
function findConversation(paths: StorePaths, id: string): string | undefined {
  const stemOf = (file: string) => path.basename(file).replace(/\.[^.]+$/, '');
  const files: string[] = [];
  for (const dir of [paths.inbox, paths.archive]) {
    walkTree(dir, { sorted: true, file: (entry, full) => void (entry.isFile() && isConversationFileName(entry.name) && files.push(full)) });
  }
  return files.find((f) => stemOf(f) === id) ?? files.find((f) => stemOf(f).replace(/^\d{4}-\d{2}-\d{2}-/, '') === id);
}

/** A stored transcript named by a ledger entry, if it is inside transcripts/ and exists. */
function storedTranscript(paths: StorePaths, entry: LedgerEntry): string | undefined {
  if (!entry.transcript) return undefined;
  const file = path.resolve(paths.root, entry.transcript);
  return isInside(paths.transcripts, file) && fs.existsSync(file) ? file : undefined;
}

/**
 * Where a ledger entry's conversation can be read now: its stored transcript, else its raw file
 * (archived or where it was read from) while that exists.
 */
export function conversationFile(paths: StorePaths, entry: LedgerEntry): string | undefined {
  const stored = storedTranscript(paths, entry);
  if (stored) return stored;
  for (const candidate of [entry.archived, entry.path]) if (candidate && fs.existsSync(candidate)) return candidate;
  return undefined;
}

/**
 * Where `[from: source, …]` on `itemLine` leads. Several ledger entries can share an id (a session
 * harvested again after it grew): the transcript whose turn matches the item best wins, the one
 * harvested last on a tie.
 */
export function provenanceTarget(paths: StorePaths, source: string, itemLine: string): ProvenanceTarget {
  let entries: Array<[string, LedgerEntry]>;
  try {
    entries = Object.entries(readLedger(paths.ledger).entries);
  } catch {
    entries = [];
  }
  entries = entries.filter(([, e]) => e.id === source || path.basename(e.path).replace(/\.[^.]+$/, '') === source);
  entries.sort(([, a], [, b]) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  let best: { file: string; line: number; score: number } | undefined;
  for (const [, entry] of entries) {
    const file = storedTranscript(paths, entry);
    if (!file) continue;
    const found = turnLineForItem(readStoreFile(file, 'utf8'), itemLine);
    if (!best || found.score > best.score) best = { file, ...found };
  }
  if (best) return { kind: 'transcript', file: best.file, line: best.line };
  for (const [, entry] of entries) {
    for (const candidate of [entry.archived, entry.path]) {
      if (candidate && fs.existsSync(candidate)) return { kind: 'conversation', file: candidate, line: lineForItem(candidate, itemLine) };
    }
  }
  const found = findConversation(paths, source);
  if (found) return { kind: 'conversation', file: found, line: lineForItem(found, itemLine) };
  if (entries.length && fs.existsSync(paths.ledger)) {
    const sha = entries[0][0];
    const line = readStoreFile(paths.ledger, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(`"${sha}"`));
    return { kind: 'ledger', file: paths.ledger, line: Math.max(0, line) };
  }
  return { kind: 'missing' };
}
