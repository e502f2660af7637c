/**
 * Reads the files a topic subscribes to. A topic file is project text, but its paths still must
 * not reach outside the workspace: each path is resolved with symlinks followed and must land on
 * a regular file inside the workspace; inside the store only the knowledge (markdown outside
 * the private and derived folders) may be read, with items held for review left out. Every text
 * is redacted, and read only up to a cap.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentItemFilter, withoutHeldItems } from '../../store/heldItems';
import { redactSecrets } from '../../model/safety/redact';
import { isInside, type StorePaths } from '../../store/storePaths';
import { realPathOr } from '../../base/realPath';
import { openStoreFile } from '../../base/readText';

/** Bytes read of one subscribed file at most (a topic's own cap is smaller still). */
const MAX_SUBSCRIPTION_BYTES = 64 * 1024;
/** Store folders and files a topic may not inject: raw conversations, caches, logs, state. */
const PRIVATE_IN_STORE = ['inbox', 'archive', 'queue', '.cache', '.index', '.logs', 'prompts', 'config.json', 'ledger.json', 'review.md'];

/** A subscribed file's text, or why it was not read. */
export type SubscriptionRead = { path: string; text: string } | { path: string; problem: string };

/**
 * How a subscribed file's text becomes what is handed out: `make()` leaves held items out (a
 * file in the store) and redacts. A caller that keeps what was made (the hook's block cache)
 * returns the kept text when `text` and `inStore` are the ones it was made from.
 */
export type SubscriptionMaker = (relative: string, text: string, inStore: boolean, make: () => string) => string;

/** Reads one subscription (a workspace-relative path). */
export function readSubscription(
  paths: StorePaths,
  relative: string,
  keep = agentItemFilter(paths),
  made?: SubscriptionMaker,
): SubscriptionRead {
  const workspace = realPathOr(paths.workspace, paths.workspace);
  const real = realPathOr(path.resolve(paths.workspace, relative), undefined);
  if (!real) return { path: relative, problem: 'not found' };
  if (!isInside(workspace, real)) return { path: relative, problem: 'outside the workspace (after following links)' };
  const store = realPathOr(paths.root, paths.root);
  const inStore = isInside(store, real);
  if (inStore) {
    const first = path.relative(store, real).split(path.sep)[0];
    if (PRIVATE_IN_STORE.includes(first) || !real.endsWith('.md'))
      return { path: relative, problem: 'a private or derived part of the store' };
  }
  let fd: number | undefined;
  try {
    fd = openStoreFile(real);
    if (!fs.fstatSync(fd).isFile()) return { path: relative, problem: 'not a regular file' };
    const buffer = Buffer.alloc(MAX_SUBSCRIPTION_BYTES);
    const n = fs.readSync(fd, buffer, 0, MAX_SUBSCRIPTION_BYTES, 0);
    const text = buffer.subarray(0, n).toString('utf8');
    const make = () => redactSecrets(inStore ? withoutHeldItems(text, keep) : text);
    return { path: relative, text: made ? made(relative, text, inStore, make) : make() };
  } catch (error) {
    return { path: relative, problem: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
