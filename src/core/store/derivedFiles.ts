/**
 * The files Lore derives from the category files: digest.md and the knowledge block of the agent
 * instruction files that hold one (AGENTS.md, CLAUDE.md, copilot-instructions). A rewrite
 * (forget, undo) brings them in step with their sources on every run, whether or not that run
 * itself changed a category file: a run killed between its writes and the derived files left
 * them stale (a forgotten conversation's lines in the digest, then in a commit and an agent's
 * context), and the re-run, finding nothing left to remove, used to write nothing.
 *
 * Each file is written only when its text differs, so the agents' cached prefix stays the same
 * when nothing changed; a deleted digest stays deleted ("delete to turn off"); only instruction
 * files that already hold Lore's block are touched.
 */
import { readAgentDigest } from './heldItems';
import { regenerateDigest } from './digest';
import { loadStoreConfig } from './storeConfig';
import type { StorePaths } from './storePaths';
import { instructionFilesWithBlock, syncInstructionFiles } from './instructionSync';

export interface DerivedRefresh {
  /** Whether digest.md was rewritten (or removed). */
  digest: boolean;
  /** Workspace-relative instruction files whose block was rewritten. */
  instructionFiles: string[];
}

/** Rewrites the derived files that no longer match the category files (see the module comment). */
export function refreshDerivedFiles(paths: StorePaths): DerivedRefresh {
  const digest = regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true }).changed;
  const files = instructionFilesWithBlock(paths.workspace);
  const synced = files.length ? syncInstructionFiles(paths.workspace, files, readAgentDigest(paths)) : [];
  return { digest, instructionFiles: synced.filter((r) => r.action === 'written').map((r) => r.file) };
}
