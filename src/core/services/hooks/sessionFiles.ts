/**
 * The small per-session files the hooks keep in `<store>/.cache/` (the files a session's tool
 * calls named, what a session was given): one file per session, named by a hash of the session
 * id (ids come from the agent and may hold any characters), and at most a fixed number of them,
 * the longest untouched going first when a new session starts one.
 */
import * as fs from 'node:fs';
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { sha256Hash } from '../../base/lazyCrypto';

/** A session's file in `dir`, by a hash of its id. */
export function sessionFile(dir: string, sessionId: string, extension: string): string {
  return path.join(dir, `${sha256Hash().update(sessionId).digest('hex').slice(0, 24)}${extension}`);
}

/** Removes the longest untouched files ending in `extension` until fewer than `max` are left (room for one more). */
export function pruneSessionFiles(dir: string, extension: string, max: number): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith(extension));
  } catch {
    return;
  }
  if (names.length < max) return;
  const aged = names.map((name) => {
    try {
      return { name, at: fs.statSync(path.join(dir, name)).mtimeMs };
    } catch {
      return { name, at: 0 };
    }
  });
  aged.sort((a, b) => a.at - b.at || (a.name < b.name ? -1 : 1));
  for (const { name } of aged.slice(0, names.length - max + 1)) removeNoFollow(path.join(dir, name), { force: true });
}
