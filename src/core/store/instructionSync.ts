/**
 * Keeps agent instruction files (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md) in step
 * with the digest through a clearly delimited managed block. Everything outside the block is
 * left byte-for-byte alone, and the block is rewritten only when the digest changed, so the
 * agents' cached prompt prefix stays identical between harvests.
 *
 * The block's content is quoted data (it opens with the data framing) and can never contain
 * Lore's markers: `<!--` in it is escaped, so an item holding the end marker cannot cut the block
 * short. A block is a start marker followed by an end marker with no marker in between; a lone
 * marker (a person deleted its partner) is left where it is, with the text around it, and a fresh
 * block goes at the end: Lore never deletes text it cannot prove is its own.
 */
import * as path from 'node:path';
import { frameAsData } from '../model/safety/dataFraming';
import { agentText } from '../model/safety/agentText';
import { editStoreFile } from '../base/storeText';
import { readStoreFile, readTextLossless } from '../base/readText';
import { isInside } from './storePaths';

export const BLOCK_START = '<!-- lore:knowledge:start (managed by Lore; edit .lore/*.md instead, this block is rewritten) -->';
export const BLOCK_END = '<!-- lore:knowledge:end -->';
import { INSTRUCTION_FILES } from '../model/instructionFiles';
import { mkdirNoFollow } from '../base/storeLinks';

export { INSTRUCTION_FILES };

/** The instruction files of the workspace that hold Lore's block now (they follow the digest when it changes). */
export function instructionFilesWithBlock(workspace: string): string[] {
  return INSTRUCTION_FILES.filter((file) => {
    try {
      return readStoreFile(path.join(workspace, file), 'utf8').includes(START_PREFIX);
    } catch {
      return false;
    }
  });
}
const START_PREFIX = '<!-- lore:knowledge:start';

/** The managed block for a digest (the digest's own `# ` title becomes a `## ` heading). */
function renderBlock(digest: string): string {
  // Cleaned again: the digest comes from digest.md on disk, which a person may have edited or an
  // older Lore may have written.
  const body = agentText(digest.replace(/\r\n/g, '\n')).trim().replace(/^# /, '## ').replace(/<!--/g, '&lt;!--');
  return `${BLOCK_START}\n${frameAsData(body)}\n${BLOCK_END}`;
}

function indexesOf(text: string, marker: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) found.push(at);
  return found;
}

/**
 * The managed block: the last end marker whose nearest start marker before it comes after the
 * previous end marker (so no marker lies between the two). Undefined when there is none.
 */
function findBlock(text: string): { start: number; end: number } | undefined {
  const starts = indexesOf(text, START_PREFIX);
  const ends = indexesOf(text, BLOCK_END);
  for (let i = ends.length - 1; i >= 0; i--) {
    const start = starts.filter((s) => s < ends[i]).pop();
    if (start !== undefined && start > (i > 0 ? ends[i - 1] : -1)) return { start, end: ends[i] + BLOCK_END.length };
  }
  return undefined;
}

/** Markers outside the managed block (a person deleted a start or an end marker). */
export function strayMarkers(text: string): number {
  const block = findBlock(text);
  const all = indexesOf(text, START_PREFIX).length + indexesOf(text, BLOCK_END).length;
  return all - (block ? 2 : 0);
}

/**
 * The file's new text with the block inserted, replaced or (without a digest) removed, or
 * undefined when nothing changes. A new block goes at the end of the file.
 */
export function updateInstructionText(current: string | undefined, digest: string | undefined): string | undefined {
  const text = current ?? '';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const found = findBlock(text);
  const block = digest?.trim() ? renderBlock(digest).replace(/\n/g, eol) : undefined;
  let next: string;
  if (found) {
    const { start, end } = found;
    if (block) next = text.slice(0, start) + block + text.slice(end);
    else {
      // Remove the block and the blank line Lore put before it.
      const before = text.slice(0, start).replace(/(\r?\n)+$/, eol);
      const after = text.slice(end).replace(/^(\r?\n)+/, '');
      next = (before.trim() ? before : '') + after;
    }
  } else {
    if (!block) return undefined;
    const base = text.replace(/(\r?\n)*$/, '');
    next = (base ? base + eol + eol : '') + block + eol;
  }
  return next === text ? undefined : next;
}

export interface SyncResult {
  file: string;
  action: 'written' | 'unchanged' | 'skipped';
  reason?: string;
  /** Set when the file holds a lone Lore marker, left in place with the text around it. */
  warning?: string;
}

/**
 * Syncs the given workspace-relative files (refusing anything outside the workspace). With
 * `dryRun`, says what it would do by the same rules and writes nothing.
 */
export function syncInstructionFiles(
  workspace: string,
  files: readonly string[],
  digest: string | undefined,
  options: { dryRun?: boolean } = {},
): SyncResult[] {
  return files.map((relative) => {
    const file = path.resolve(workspace, relative);
    if (!isInside(workspace, file)) return { file: relative, action: 'skipped', reason: 'outside the workspace' };
    let current: string | undefined;
    try {
      current = readTextLossless(file);
    } catch (error) {
      return { file: relative, action: 'skipped', reason: (error as Error).message };
    }
    // A digest that is gone should not create files just to say nothing.
    if (current === undefined && !digest?.trim()) return { file: relative, action: 'unchanged' };
    const next = updateInstructionText(current, digest);
    const stray = strayMarkers(next ?? current ?? '');
    const warning = stray
      ? `${relative} has ${stray} lone Lore marker${stray === 1 ? '' : 's'} (its partner was deleted); Lore left ${stray === 1 ? 'it' : 'them'} and the text around ${stray === 1 ? 'it' : 'them'} as is and keeps its block at the end. Delete the lone marker by hand.`
      : undefined;
    if (next === undefined) return { file: relative, action: 'unchanged', ...(warning ? { warning } : {}) };
    if (options.dryRun) return { file: relative, action: 'written', ...(warning ? { warning } : {}) };
    mkdirNoFollow(path.dirname(file));
    // The user's own file: their edits since the read above get the block re-applied on top.
    editStoreFile(file, (text) => updateInstructionText(text, digest));
    return { file: relative, action: 'written', ...(warning ? { warning } : {}) };
  });
}
