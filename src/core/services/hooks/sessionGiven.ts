/**
 * What the context hooks gave one agent session, so that each prompt adds only what is new
 * (cache-friendly-context: the digest sits once in the session's stable prefix; a copy per prompt
 * would land after the cached prefix every time). SessionStart starts the record with the ids of
 * the digest's items; each UserPromptSubmit adds the ids of the notes and items it handed out and
 * the keys of the topics it injected.
 *
 * One text file per session in `<store>/.cache/hook-sessions/` (sessionFiles.ts), git-ignored and
 * derivable: a header line, then one key per line, oldest first:
 *
 *     lore hook session 1
 *     k3m9x2ab
 *     topic 0f3c9a1b2d4e
 *
 * At most MAX_KEYS keys (the oldest go: they may be given again) and MAX_SESSIONS files. Two
 * prompts of one session can race: every change is an edit of the file's current bytes through
 * replaceGuarded (a key added is appended with O_APPEND while the file is still the version read,
 * a restart replaces it only while it is), so no key and no file is lost; the edit is idempotent.
 * A missing or damaged record reads as none: the session is then given the digest again, once.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceGuarded } from '../../base/guardedReplace';
import type { StorePaths } from '../../store/storePaths';
import { pruneSessionFiles, sessionFile } from './sessionFiles';
import { mkdirNoFollow } from '../../base/storeLinks';
import { readStoreFile } from '../../base/readText';

const HEADER = 'lore hook session 1';
const EXTENSION = '.txt';
/** Keys kept per session: a long session's 2,000th item is far back in its context anyway. */
export const MAX_GIVEN_KEYS = 2000;
/** Session records kept at most; the longest untouched go when a new session starts one. */
const MAX_SESSIONS = 100;
/** A key is an item id (8 characters) or `topic <hash>`: anything longer is not one of ours. */
const MAX_KEY_CHARS = 64;
/** How long a write waits for a racing prompt of the same session before giving up (it is a cache). */
const PATIENCE_MS = 2000;

function dir(paths: StorePaths): string {
  return path.join(paths.cache, 'hook-sessions');
}

/** The record file of a session. */
export function sessionGivenFile(paths: StorePaths, sessionId: string): string {
  return sessionFile(dir(paths), sessionId, EXTENSION);
}

/** The keys of a record's bytes, oldest first; undefined when it is not a record. */
function parse(bytes: Buffer | undefined): string[] | undefined {
  if (bytes === undefined) return undefined;
  const lines = bytes.toString('utf8').split('\n');
  if (lines[0] !== HEADER) return undefined;
  // A last line without its line break is a write cut short: not a key.
  return lines.slice(1, -1).filter((l) => l.length > 0 && l.length <= MAX_KEY_CHARS);
}

function render(keys: readonly string[]): Buffer {
  const kept = keys.length > MAX_GIVEN_KEYS ? keys.slice(keys.length - MAX_GIVEN_KEYS) : keys;
  return Buffer.from(`${HEADER}\n${kept.map((k) => `${k}\n`).join('')}`, 'utf8');
}

/** `before` and then the keys of `added` it lacks, each once. */
function union(before: readonly string[], added: readonly string[]): string[] {
  const all = [...before];
  const seen = new Set(before);
  for (const key of added) {
    if (seen.has(key) || key.length === 0 || key.length > MAX_KEY_CHARS || key.includes('\n')) continue;
    seen.add(key);
    all.push(key);
  }
  return all;
}

/** What the session was given, or undefined when Lore has no record of it (never started, or lost). */
export function readSessionGiven(paths: StorePaths, sessionId: string): ReadonlySet<string> | undefined {
  if (!sessionId) return undefined;
  let bytes: Buffer;
  try {
    bytes = readStoreFile(sessionGivenFile(paths, sessionId));
  } catch {
    return undefined;
  }
  const keys = parse(bytes);
  return keys && new Set(keys);
}

function write(paths: StorePaths, sessionId: string, edit: (current: string[] | undefined) => string[] | undefined): void {
  const file = sessionGivenFile(paths, sessionId);
  if (!fs.existsSync(file)) pruneSessionFiles(dir(paths), EXTENSION, MAX_SESSIONS);
  mkdirNoFollow(dir(paths));
  replaceGuarded(
    file,
    (current) => {
      const keys = edit(parse(current));
      return keys === undefined ? undefined : render(keys);
    },
    { durable: false, patienceMs: PATIENCE_MS },
  ).settle();
}

/**
 * Starts (or restarts) a session's record with what its start gave (the digest's items). After a
 * resume the conversation still holds what earlier prompts were given: `keepEarlier` keeps it.
 */
export function startSessionGiven(
  paths: StorePaths,
  sessionId: string,
  keys: readonly string[],
  options: { keepEarlier?: boolean } = {},
): void {
  if (!sessionId) return;
  write(paths, sessionId, (current) => union(options.keepEarlier ? (current ?? []) : [], keys));
}

/**
 * Adds what a prompt gave. A session without a record gets one (its prompt gave the digest);
 * nothing is written when every key is there already.
 */
export function addSessionGiven(paths: StorePaths, sessionId: string, keys: readonly string[]): void {
  if (!sessionId) return;
  write(paths, sessionId, (current) => {
    const all = union(current ?? [], keys);
    return current !== undefined && all.length === current.length ? undefined : all;
  });
}
