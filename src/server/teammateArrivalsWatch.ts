/**
 * Notices git moving HEAD under the store (a pull, a merge, a checkout, in a terminal or in VS
 * Code's Source Control) and tells the client what arrived from teammates. The trigger is the
 * store's file events (a pull that brings knowledge changes the store's files): after each batch
 * HEAD is read (`git rev-parse`, which also follows a `.git` file of a worktree) and compared with
 * the last HEAD seen; when it moved, core's teammateArrivals lists the new items from others.
 *
 * The last HEAD and the arrivals not seen yet are kept in `.index/` (derived, never committed), so
 * a pull made while VS Code was closed is news at the next start, and the list survives a reload
 * until the person has seen it. A move that brings nothing from others (Lore's own commit after a
 * harvest) leaves the list as it is; a later arrival replaces it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/base/atomicWrite';
import { storeHead, teammateArrivals, type Arrivals } from '../core/store/items/teammateArrivals';
import type { StorePaths } from '../core/store/storePaths';
import { mkdirNoFollow } from '../core/base/storeLinks';
import { readStoreFile } from '../core/base/readText';

/** What `.index/teammate-arrivals.json` holds. */
interface ArrivalsState {
  head?: string;
  arrivals?: Arrivals;
}

const STATE_FILE = 'teammate-arrivals.json';

export class TeammateArrivalsWatch {
  private state: ArrivalsState = {};
  /** Checks run one after another: two batches must not both compute the same move. */
  private queue: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly paths: StorePaths,
    private readonly notify: (arrivals: Arrivals) => void,
    private readonly log: (message: string) => void,
  ) {}

  /** Reads the kept state and compares HEAD with it: a pull made while the window was closed. */
  start(): Promise<void> {
    this.state = this.read();
    return this.check();
  }

  /** After a batch of store file events: did HEAD move? */
  check(): Promise<void> {
    this.queue = this.queue.then(() => this.compare()).catch((error: unknown) => this.log(`teammate arrivals: ${String(error)}`));
    return this.queue;
  }

  /** The arrivals not seen yet. */
  current(): Arrivals | undefined {
    return this.state.arrivals;
  }

  /** The person has seen them. */
  seen(): void {
    if (!this.state.arrivals) return;
    this.state = { head: this.state.head };
    this.write();
  }

  dispose(): void {
    this.disposed = true;
  }

  private async compare(): Promise<void> {
    if (this.disposed) return;
    const head = await storeHead(this.paths);
    if (!head || head === this.state.head) return;
    const from = this.state.head;
    this.state = { ...this.state, head };
    // The first HEAD this store is seen at is where news starts; nothing before it arrived.
    const arrivals = from ? await teammateArrivals(this.paths, from, head) : undefined;
    if (arrivals && arrivals.items.length > 0) {
      this.state.arrivals = arrivals;
      this.log(`${arrivals.total} item${arrivals.total === 1 ? '' : 's'} arrived from ${arrivals.authors.join(', ')}`);
      this.write();
      if (!this.disposed) this.notify(arrivals);
    } else this.write();
  }

  private file(): string {
    return path.join(this.paths.index, STATE_FILE);
  }

  private read(): ArrivalsState {
    try {
      const parsed = JSON.parse(readStoreFile(this.file(), 'utf8')) as ArrivalsState;
      return typeof parsed === 'object' && parsed !== null ? parsed : {};
    } catch {
      return {}; // None yet, or damaged: derived state, started afresh.
    }
  }

  private write(): void {
    // Never create the store just to hold this: without `.lore/` the state stays in memory.
    if (!fs.existsSync(this.paths.root)) return;
    try {
      mkdirNoFollow(this.paths.index);
      writeFileAtomic(this.file(), `${JSON.stringify(this.state)}\n`, { durable: false });
    } catch (error) {
      this.log(`teammate arrivals: could not keep the state (${String(error)})`);
    }
  }
}
