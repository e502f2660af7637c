/**
 * The store operations behind the MCP tools that touch files. Writes use the same primitives as
 * a harvest (appendItems with de-duplication, atomic replace, the store lock, secret redaction,
 * line neutralization), so a fact added by an agent looks exactly like a harvested one. Text that
 * reads as an instruction to an agent is not written to its file but held in review.md for a
 * person, like a harvested one.
 */
import * as path from 'node:path';
import { CATEGORY_FILES } from '../core/knowledge/categories';
import { appendItems } from '../core/knowledge/categoryFile';
import { noteLine, statementLine } from '../core/knowledge/itemLines';
import { toIsoDate } from '../core/knowledge/provenance';
import { writeHeldItems } from '../core/knowledge/reviewQueue';
import { REVIEW_FILE } from '../core/knowledge/reviewFile';
import { flagInstruction, flagKinds, type InstructionFlagKind } from '../core/safety/instructionFlags';
import { redactSecrets } from '../core/safety/redact';
import { editStoreFile } from '../core/store/storeText';
import { regenerateDigest } from '../core/store/digest';
import { addNotesToFile, findNotesForFile, readNotesOf, resolveNoteTarget, workspaceRelative } from '../core/store/fileNotes';
import { ensureStoreLayout } from '../core/store/initStore';
import { loadStoreConfig } from '../core/store/storeConfig';
import { acquireStoreLock } from '../core/store/storeLock';
import { storeRelative, type StorePaths } from '../core/store/storePaths';

/** How long a tool call waits for another Lore process (a harvest) to release the store. */
const LOCK_TIMEOUT_MS = 15_000;

async function underLock<T>(paths: StorePaths, body: () => T): Promise<T> {
  ensureStoreLayout(paths);
  const lock = await acquireStoreLock(paths.root, LOCK_TIMEOUT_MS);
  try {
    return body();
  } finally {
    lock.release();
  }
}

/** Set when a write was held for review instead: the flag kinds and the queue file. */
export interface HeldForReview {
  kinds: InstructionFlagKind[];
  file: typeof REVIEW_FILE;
}

/**
 * Appends `- statement [from: source, date]` to facts.md and regenerates the digest, or holds
 * it in review.md when it reads as an instruction to an agent.
 */
export async function addFact(paths: StorePaths, statement: string, source: string, today: Date): Promise<{ added: boolean; line: string; held?: HeldForReview }> {
  const clean = redactSecrets(statement).trim();
  if (!clean) throw new Error('the statement is empty');
  const line = statementLine({ statement: clean }, { source, date: toIsoDate(today) });
  const kinds = flagKinds(flagInstruction(line));
  if (kinds.length) {
    const added = await underLock(paths, () => writeHeldItems(paths, [{ target: { file: CATEGORY_FILES.facts.file }, line, kinds }]));
    return { added, line, held: { kinds, file: REVIEW_FILE } };
  }
  return underLock(paths, () => {
    const file = path.join(paths.root, CATEGORY_FILES.facts.file);
    if (!editStoreFile(file, (before) => appendItems(before, CATEGORY_FILES.facts.title, [line]))) return { added: false, line };
    regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
    return { added: true, line };
  });
}

export type AddNoteResult = { ok: true; relative: string; noteFile: string; line: string; held?: HeldForReview } | { ok: false; reason: string };

/**
 * Attaches a note to a workspace file. Paths resolve against the workspace; anything outside
 * it, inside the store, missing, or reached through a symlink that leaves the workspace is
 * refused with the reason.
 */
export async function addNote(paths: StorePaths, file: string, note: string, source: string, today: Date): Promise<AddNoteResult> {
  const clean = redactSecrets(note).trim();
  if (!clean) return { ok: false, reason: 'the note is empty' };
  const target = resolveNoteTarget(paths, path.resolve(paths.workspace, file));
  if (target.kind === 'orphan') return { ok: false, reason: target.reason };
  const line = noteLine(clean, { source, date: toIsoDate(today) });
  const kinds = flagKinds(flagInstruction(line));
  if (kinds.length) {
    const noteFile = await underLock(paths, () => {
      const file = findNotesForFile(paths, target.absolute, { heal: false })?.file ?? path.join(paths.files, target.identity.noteFileName);
      writeHeldItems(paths, [{ target: { file: storeRelative(paths, file), notedPath: target.relative }, line, kinds }]);
      return path.join(paths.root, REVIEW_FILE);
    });
    return { ok: true, relative: target.relative, noteFile, line, held: { kinds, file: REVIEW_FILE } };
  }
  const noteFile = await underLock(paths, () => addNotesToFile(paths, target, [line]));
  return { ok: true, relative: target.relative, noteFile, line };
}

/** The note lines of a workspace file (read-only: no re-keying), also for a file that is gone. */
export async function readFileNotes(paths: StorePaths, absolute: string): Promise<{ path: string; file: string; lines: string[] } | undefined> {
  const found = readNotesOf(paths, absolute);
  if (!found) return undefined;
  return { path: found.note.meta.path || workspaceRelative(paths, absolute), file: found.file, lines: found.note.notes.map((n) => n.raw.trim()) };
}
