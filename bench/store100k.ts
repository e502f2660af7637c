/**
 * The store of 100,000 files that several benchmarks measure with LORE_BENCH_LARGE=1 (index
 * build, warm CLI and MCP search, hover and code lens, resident memory): 99,000 workspace files
 * with a note file of 5 notes each, the five category files of 2,000 items and 995 archived
 * conversations. Generating it takes seconds to minutes, so it is written once into the temp
 * folder's `lore-bench/store-100k/` (not `.bench/`: tools that walk the repository would read its
 * 100,000 files) and kept between runs (a marker says which version of it is there); the
 * benchmarks of one run share it, and each leaves it as it found it apart from its search index.
 *
 * The notes use the search bench's vocabulary, so that its queries find something here too, and
 * the file the editor benchmarks open has the same 10 notes as in their 10,000-file store, so
 * that the two sizes compare.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { storePaths, type StorePaths } from '../src/core/store/storePaths';
import { generateLargeStore, largeStoreFile } from '../test/server/largeStore';
import { MIB, SeededRandom, formatNumber, largeScratchDir, vocabulary, type BenchContext } from './benchSupport';

/** Whether the 100,000-file figures were asked for: they take minutes. */
export function largeRequested(ctx: BenchContext, bench: string): boolean {
  if (process.env.LORE_BENCH_LARGE === '1') return true;
  ctx.log(`${bench}: the 100,000-file store is measured with LORE_BENCH_LARGE=1`);
  return false;
}

const NOTED_FILES = 99_000;
const NOTES_PER_FILE = 5;
const CATEGORY_ITEMS = 2000;
const CONVERSATIONS = 995;
/** The file the editor benchmarks open: the same index, and the same 10 notes, as in their 10,000-file store. */
export const OPEN_FILE = 4321;
const OPEN_FILE_NOTES = 10;
/** Bump when the generated content changes: a store of another version is generated again. */
const SPEC = `store-100k v1: ${NOTED_FILES} × ${NOTES_PER_FILE}, ${CATEGORY_ITEMS} per category, ${CONVERSATIONS} conversations`;

export interface LargeBenchStore {
  /** The workspace; the store is its `.lore`. */
  ws: string;
  paths: StorePaths;
  /** Bytes of the store's sources (note, category and conversation files). */
  bytes: number;
  /** Absolute path of the workspace file the editor benchmarks open. */
  openFile: string;
  /** Notes in the open file. */
  openFileNotes: number;
  /** Workspace files with notes, and their note lines. */
  notedFiles: number;
  noteLines: number;
  /** Every item's text, in no particular order (for the reference memory server's file). */
  items(): string[];
}

let shared: LargeBenchStore | undefined;

/** The shared store, generated on first use (and when its folder holds another version of it). */
export function largeStore(ctx: BenchContext): LargeBenchStore {
  if (shared) return shared;
  const ws = path.join(largeScratchDir('store-100k'), 'ws');
  const marker = path.join(ws, '.spec.json');
  const paths = storePaths(path.join(ws, '.lore'), ws);
  let bytes: number | undefined;
  try {
    const kept = JSON.parse(fs.readFileSync(marker, 'utf8')) as { spec: string; bytes: number };
    if (kept.spec === SPEC) bytes = kept.bytes;
  } catch {
    bytes = undefined; // Not generated yet, or by an older version of this module.
  }
  if (bytes === undefined) {
    fs.rmSync(ws, { recursive: true, force: true });
    ctx.log(`store-100k: generating ${NOTED_FILES + 5 + CONVERSATIONS} store files (kept in ${path.dirname(ws)} for later runs)`);
    const started = Date.now();
    bytes = generate(ws, paths);
    fs.writeFileSync(marker, JSON.stringify({ spec: SPEC, bytes }));
    ctx.log(`store-100k: ${formatNumber(bytes / MIB)} MB generated in ${formatNumber((Date.now() - started) / 1000)} s`);
  }
  const text = texts();
  shared = {
    ws,
    paths,
    bytes,
    openFile: path.join(ws, largeStoreFile(OPEN_FILE)),
    openFileNotes: OPEN_FILE_NOTES,
    notedFiles: NOTED_FILES,
    noteLines: NOTED_FILES * NOTES_PER_FILE + OPEN_FILE_NOTES - NOTES_PER_FILE,
    items: () => [
      ...Array.from({ length: NOTED_FILES }, (_, i) => Array.from({ length: notesOf(i) }, (_, n) => text.note(i, n))).flat(),
      ...CATEGORIES.flatMap((_, c) => Array.from({ length: CATEGORY_ITEMS }, (_, i) => text.category(c, i))),
      ...Array.from({ length: CONVERSATIONS }, (_, i) => text.conversation(i)),
    ],
  };
  return shared;
}

const CATEGORIES = ['facts', 'decisions', 'questions', 'playbooks', 'tasks'];

function notesOf(file: number): number {
  return file === OPEN_FILE ? OPEN_FILE_NOTES : NOTES_PER_FILE;
}

/**
 * Every text from its own seed, so that the items can be listed again without reading the store.
 * The vocabulary is the search bench's (same seed), so its queries are words of these texts.
 */
const VOCABULARY = { seed: 20_261_121, size: 12_000 };

/**
 * Words of the store that each occur in a few hundred items (ranks 5,000 to 9,000 of the
 * vocabulary): a search finds something without matching a tenth of the store. The reference
 * memory server answers with every match, and on a frequent word its reply for 500,000 items is
 * more than it can write (its process ends).
 */
export function sampleWords(count: number): string[] {
  const vocab = vocabulary(new SeededRandom(VOCABULARY.seed), VOCABULARY.size);
  return Array.from({ length: count }, (_, i) => vocab[5000 + Math.floor((i * 4000) / count)]);
}

function texts(): { note(file: number, n: number): string; category(c: number, i: number): string; conversation(i: number): string } {
  const vocab = vocabulary(new SeededRandom(VOCABULARY.seed), VOCABULARY.size);
  const sentence = (seed: number) => {
    const rng = new SeededRandom(seed);
    return Array.from({ length: rng.int(6, 18) }, () => vocab[Math.floor(Math.pow(rng.next(), 2.2) * vocab.length)]).join(' ');
  };
  return {
    note: (file, n) => sentence(1_000_000 + file * 16 + n),
    category: (c, i) => sentence(10_000_000 + c * 100_000 + i),
    conversation: (i) => sentence(20_000_000 + i),
  };
}

/** Writes the store; returns the bytes of its sources. */
function generate(ws: string, paths: StorePaths): number {
  const text = texts();
  generateLargeStore(ws, NOTED_FILES, NOTES_PER_FILE, { note: text.note, notesOf });
  fs.mkdirSync(paths.archive, { recursive: true });
  const date = (i: number) => `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
  CATEGORIES.forEach((name, c) => {
    const lines = Array.from({ length: CATEGORY_ITEMS }, (_, i) => `- ${text.category(c, i)} [from: conv-${i % 997}, ${date(i)}]`);
    const body = name === 'tasks' ? `# Tasks\n\n## Open\n\n${lines.join('\n')}\n` : `# ${name}\n\n${lines.join('\n')}\n`;
    fs.writeFileSync(path.join(paths.root, `${name}.md`), body);
  });
  for (let i = 0; i < CONVERSATIONS; i++)
    fs.writeFileSync(
      path.join(paths.archive, `s${i}.md`),
      `---\nsession_id: s${i}\nstarted: ${date(i)}T10:00:00Z\n---\n\n# session ${i}\n\n## 10:00 — user\n${text.conversation(i)}\n`,
    );
  // Sources are mostly old in a real store; recent times would all count as "racy".
  const old = new Date(Date.now() - 3600_000);
  let bytes = 0;
  for (const dir of [paths.root, paths.files, paths.archive]) {
    for (const f of fs.readdirSync(dir)) {
      if (!f.endsWith('.md')) continue;
      const file = path.join(dir, f);
      bytes += fs.statSync(file).size;
      fs.utimesSync(file, old, old);
    }
    fs.utimesSync(dir, old, old);
  }
  return bytes;
}
