/**
 * The parsed frontmatter of valid topic files, memoized in `<store>/.cache/topics-parsed.json` by the
 * hash of each file's bytes: a hook before every prompt then skips the YAML parser and zod (about
 * a third of its time with 20 topics) for topics that did not change. Derived and deletable; the
 * file is checked by hand (loading zod to check it would defeat its purpose), and an entry that
 * does not look right is parsed again.
 */
import * as path from 'node:path';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { StorePaths } from '../../store/storePaths';
import type { TopicFrontmatter } from './topicSchema';
import { readStoreFile } from '../../base/readText';

interface MemoTopic {
  hash: string;
  meta: TopicFrontmatter;
  content: string;
}

function memoFile(paths: StorePaths): string {
  return path.join(paths.cache, 'topics-parsed.json');
}

/** A memoized entry has the shape topicBuild relies on. */
function looksValid(entry: unknown): entry is MemoTopic {
  if (!entry || typeof entry !== 'object') return false;
  const e = entry as Record<string, unknown>;
  const meta = e.meta as Record<string, unknown> | undefined;
  return (
    typeof e.hash === 'string' &&
    typeof e.content === 'string' &&
    !!meta &&
    typeof meta === 'object' &&
    Array.isArray(meta.triggers) &&
    Array.isArray(meta.subscriptions) &&
    typeof meta.similarity_threshold === 'number' &&
    typeof meta.max_context_kb === 'number' &&
    typeof meta.activation === 'string' &&
    typeof meta.priority === 'string'
  );
}

/** Parsed topics by file name, read once per load. */
export class TopicMemo {
  private entries = new Map<string, MemoTopic>();
  private readonly seen = new Set<string>();
  private dirty = false;

  constructor(private readonly paths: StorePaths) {
    try {
      const raw = JSON.parse(readStoreFile(memoFile(paths), 'utf8')) as { version?: unknown; entries?: Record<string, unknown> };
      if (raw.version === 1 && raw.entries && typeof raw.entries === 'object') {
        for (const [name, entry] of Object.entries(raw.entries)) if (looksValid(entry)) this.entries.set(name, entry);
      }
    } catch {
      // No memo yet, or a broken one: everything is parsed.
    }
  }

  /** The memoized parse of `name` when its bytes still hash to `hash`. */
  get(name: string, hash: string): MemoTopic | undefined {
    this.seen.add(name);
    const entry = this.entries.get(name);
    return entry?.hash === hash ? entry : undefined;
  }

  set(name: string, entry: MemoTopic): void {
    this.seen.add(name);
    this.entries.set(name, entry);
    this.dirty = true;
  }

  /** Writes the memo when it changed, without the entries of files that are gone. Never throws. */
  save(): void {
    for (const name of [...this.entries.keys()]) {
      if (!this.seen.has(name)) {
        this.entries.delete(name);
        this.dirty = true;
      }
    }
    if (!this.dirty) return;
    try {
      writeFileAtomic(memoFile(this.paths), JSON.stringify({ version: 1, entries: Object.fromEntries(this.entries) }) + '\n');
      this.dirty = false;
    } catch {
      // Only a memo: the next load parses again.
    }
  }
}
