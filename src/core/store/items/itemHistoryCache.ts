/**
 * Item histories remembered per item, HEAD and version of the file the item is in: asking git for
 * a history takes a few processes (itemHistory.ts), asking again costs one `git rev-parse`. Shared
 * by the hover on items (language server) and MCP search by ids, bounded (cleared past `max`).
 */
import * as fs from 'node:fs';
import type { StorePaths } from '../storePaths';
import { runGit } from '../history/git';
import { itemHistory, type ItemHistory } from './itemHistory';

/** Histories remembered at most by default (one per item asked about). */
const MAX_REMEMBERED = 500;

export class ItemHistoryMemo {
  private readonly remembered = new Map<string, ItemHistory | undefined>();

  constructor(private readonly max = MAX_REMEMBERED) {}

  /**
   * The history of item `id`, whose line is in `absolute` (its version keys the memo).
   * Undefined when the store has no commit to read (no repository, no git, an empty one) or no
   * such item.
   */
  async get(paths: StorePaths, id: string, absolute: string): Promise<ItemHistory | undefined> {
    const head = await runGit(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: paths.root }).catch(() => undefined);
    if (!head || head.code !== 0) return undefined;
    let version = '';
    try {
      version = String(fs.statSync(absolute).mtimeMs);
    } catch {
      // Not saved yet.
    }
    const key = `${paths.root}\0${id}\0${head.stdout.trim()}\0${version}`;
    if (this.remembered.has(key)) return this.remembered.get(key);
    const history = await itemHistory(paths, id);
    if (this.remembered.size >= this.max) this.remembered.clear();
    this.remembered.set(key, history);
    return history;
  }
}
