/**
 * The blocks of the hook's context that come from files which change far less often than
 * prompts arrive (the digest, a file's notes), as they are after items held for review are left
 * out and secrets redacted, kept between hook processes in `<store>/.cache/hook-blocks.json`.
 * Making them runs the instruction-flag and secret rules, whose regexes are compiled on their
 * first use in each process (most of what a prompt waited for), and parses note frontmatter; a
 * prompt on an unchanged store runs neither.
 *
 * Each entry is keyed by a SHA-256 of everything it was made from (the texts as read, review.md,
 * the rules of both kinds and this module's format), so a change to any of them, however small
 * and whatever its timestamp, makes it again: a memoized block is always what the cold path would
 * make now. Only made blocks are stored (redacted, held items out), never the texts they came
 * from. The file is derived and deletable; anything unreadable in it counts as empty, and a
 * write that fails costs speed only. Checked by hand, not with zod: it is read before every
 * prompt (see hookInput.ts).
 */
import * as path from 'node:path';
import { instructionRulesText } from '../../model/safety/instructionFlags';
import { redactionRulesId } from '../../model/safety/redact';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { StorePaths } from '../../store/storePaths';
import { sha256Hash } from '../../base/lazyCrypto';
import { mkdirNoFollow } from '../../base/storeLinks';
import { readStoreFile } from '../../base/readText';

/** Bumped when what a block holds, or how it is made, changes. */
const FORMAT = 1;
/** Entries kept at most (a note entry per file prompts name); the longest ago made go first. */
const MAX_ENTRIES = 64;

interface Entry {
  key: string;
  value: unknown;
}

interface MemoFile {
  format: typeof FORMAT;
  entries: Record<string, Entry>;
}

/** The memo file of a store. */
export function hookBlockMemoFile(paths: StorePaths): string {
  return path.join(paths.cache, 'hook-blocks.json');
}

/** Blocks made before, and the means to make and keep new ones. */
export interface HookBlockMemo {
  /**
   * `make()`'s value for `slot`, reused when the slot was last made from the same `inputs`.
   * The value must survive JSON as it is (strings, numbers, arrays, plain objects, null; no undefined).
   */
  get<T>(slot: string, inputs: readonly string[], make: () => T): T;
  /** Writes the file when an entry was made; never throws. */
  save(): void;
}

function readEntries(file: string): Map<string, Entry> {
  try {
    const data = JSON.parse(readStoreFile(file, 'utf8')) as Partial<MemoFile> | null;
    if (!data || data.format !== FORMAT || typeof data.entries !== 'object' || data.entries === null) return new Map();
    const entries = new Map<string, Entry>();
    for (const [slot, entry] of Object.entries(data.entries)) {
      if (entry && typeof entry === 'object' && typeof entry.key === 'string' && 'value' in entry)
        entries.set(slot, { key: entry.key, value: entry.value });
    }
    return entries;
  } catch {
    return new Map(); // Missing or damaged: made again.
  }
}

let rulesText: string | undefined;

/** The key of a slot made from `inputs` under the current rules. */
function keyOf(slot: string, inputs: readonly string[]): string {
  const hash = sha256Hash().update(`${FORMAT}\n${redactionRulesId()}\n${(rulesText ??= instructionRulesText())}\n${slot}`);
  // Each input's length first, so no two lists of inputs hash the same text.
  for (const input of inputs) hash.update(`\n${input.length}\n`).update(input);
  return hash.digest('hex');
}

/** Opens the store's block memo (one read; nothing is written until save()). */
export function openHookBlockMemo(paths: StorePaths): HookBlockMemo {
  const file = hookBlockMemoFile(paths);
  const entries = readEntries(file);
  let changed = false;
  return {
    get<T>(slot: string, inputs: readonly string[], make: () => T): T {
      const key = keyOf(slot, inputs);
      const known = entries.get(slot);
      if (known?.key === key) return known.value as T;
      const value = make();
      // Re-inserted, so the oldest made come first (and go first). A hit writes nothing.
      entries.delete(slot);
      entries.set(slot, { key, value });
      changed = true;
      return value;
    },
    save() {
      if (!changed) return;
      try {
        while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
        mkdirNoFollow(path.dirname(file));
        const data: MemoFile = { format: FORMAT, entries: Object.fromEntries(entries) };
        writeFileAtomic(file, JSON.stringify(data), { durable: false });
        changed = false;
      } catch {
        // A memo that cannot be written costs the next prompt speed, nothing else.
      }
    },
  };
}
