/**
 * Keeps agent instruction files (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md) in step
 * with the digest through a clearly delimited managed block. Everything outside the block is
 * left byte-for-byte alone, and the block is rewritten only when the digest changed, so the
 * agents' cached prompt prefix stays identical between harvests.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../store/atomicWrite';
import { isInside } from '../store/storePaths';

export const BLOCK_START = '<!-- lore:knowledge:start (managed by Lore; edit .lore/*.md instead, this block is rewritten) -->';
export const BLOCK_END = '<!-- lore:knowledge:end -->';
const START_PREFIX = '<!-- lore:knowledge:start';

/** The instruction files Lore can keep in sync, relative to the workspace. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'] as const;

/** The managed block for a digest (the digest's own `# ` title becomes a `## ` heading). */
export function renderBlock(digest: string): string {
  const body = digest.replace(/\r\n/g, '\n').trim().replace(/^# /, '## ');
  return `${BLOCK_START}\n${body}\n${BLOCK_END}`;
}

/**
 * The file's new text with the block inserted, replaced or (without a digest) removed, or
 * undefined when nothing changes. A new block goes at the end of the file.
 */
export function updateInstructionText(current: string | undefined, digest: string | undefined): string | undefined {
  const text = current ?? '';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const start = text.indexOf(START_PREFIX);
  const endAt = start >= 0 ? text.indexOf(BLOCK_END, start) : -1;
  const hasBlock = start >= 0 && endAt >= 0;
  const block = digest?.trim() ? renderBlock(digest).replace(/\n/g, eol) : undefined;
  let next: string;
  if (hasBlock) {
    const end = endAt + BLOCK_END.length;
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
}

/** Syncs the given workspace-relative files (refusing anything outside the workspace). */
export function syncInstructionFiles(workspace: string, files: readonly string[], digest: string | undefined): SyncResult[] {
  return files.map((relative) => {
    const file = path.resolve(workspace, relative);
    if (!isInside(workspace, file)) return { file: relative, action: 'skipped', reason: 'outside the workspace' };
    let current: string | undefined;
    try {
      current = readTextIfExists(file);
    } catch (error) {
      return { file: relative, action: 'skipped', reason: (error as Error).message };
    }
    // A digest that is gone should not create files just to say nothing.
    if (current === undefined && !digest?.trim()) return { file: relative, action: 'unchanged' };
    const next = updateInstructionText(current, digest);
    if (next === undefined) return { file: relative, action: 'unchanged' };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, next);
    return { file: relative, action: 'written' };
  });
}
