/**
 * `lore sync`: the digest block in the agents' instruction files, as the extension's "Lore: Sync
 * Agent Instruction Files" writes it (the same core function, src/core/context/instructionSync.ts):
 * a delimited block, rewritten only when the digest changed, everything outside it left byte for
 * byte, items held for review left out.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { syncInstructionFiles } from '../../core/store/instructionSync';
import { readAgentDigest } from '../../core/store/heldItems';
import { isInside } from '../../core/store/storePaths';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, printable, resolveArg, type Output } from '../cliSupport';

/** The instruction files the agents read, as the extension offers them. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'] as const;

const OPTIONS = { 'dry-run': { type: 'boolean', help: 'say what would change and write nothing' } } as const;

export const syncCommand = command({
  name: 'sync',
  usage: ['[FILE...] [--root DIR] [--dry-run] [--json]'],
  description: `Writes the knowledge digest (without items held for review) into agent instruction files as a
block between <!-- lore:knowledge:start … --> and <!-- lore:knowledge:end -->, as the VS Code
command "Lore: Sync Agent Instruction Files" does. Text outside the block is never changed; the
block is rewritten only when the digest changed; without a digest the block is removed.`,
  args: {
    'FILE...': `the files to keep in step (created when missing), inside the store's workspace;\ndefault: those of ${INSTRUCTION_FILES.join(', ')} that exist`,
  },
  options: OPTIONS,
  run: sync,
});

async function sync(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, positionals, paths } = parsed;
  const workspace = paths.workspace;
  // Files typed on the command line are relative to where the user stands; the core takes them relative to the workspace.
  const files = positionals.length
    ? positionals.map((f) => {
        const absolute = resolveArg(io, f);
        if (!isInside(workspace, absolute)) throw new UsageError(`${f} is outside the workspace ${workspace}`);
        return path.relative(workspace, absolute).split(path.sep).join('/');
      })
    : INSTRUCTION_FILES.filter((f) => fs.existsSync(path.join(workspace, f)));
  if (!files.length) {
    io.err(`no instruction file in ${printable(workspace)} yet; name the ones to create, e.g. lore sync AGENTS.md CLAUDE.md`);
    return EXIT_OK;
  }
  const digest = readAgentDigest(paths);
  const dryRun = values['dry-run'] === true;
  const results = syncInstructionFiles(workspace, files, digest, { dryRun });
  if (values.json) {
    io.out(JSON.stringify({ dryRun, digest: digest !== undefined, results }, null, 2));
  } else {
    for (const r of results) {
      const verb = r.action === 'written' ? (dryRun ? 'would update' : 'updated') : r.action === 'unchanged' ? 'up to date' : 'skipped';
      io.out(`${printable(r.file)}: ${verb}${r.reason ? ` (${printable(r.reason)})` : ''}`);
    }
    if (digest === undefined) io.err(`note: no digest at ${printable(paths.digest)}, so the Lore block is removed (lore digest makes one)`);
  }
  for (const r of results) if (r.warning) io.err(`warning: ${printable(r.warning)}`);
  return results.some((r) => r.action === 'skipped') ? EXIT_FAILED : EXIT_OK;
}
