/** `lore undo`: puts the store back as it was before the last harvest applied. */
import { undoLastHarvest, undoOutcomeText } from '../../core/store/changes/undoLastHarvest';
import { reportHistory } from '../historyText';
import { COMMON_OPTIONS, EXIT_FAILED, EXIT_OK, type Output, parseCommand } from '../cliSupport';

export const UNDO_HELP = `lore undo [--root DIR] [--json]
Undoes the last harvest that was applied: the knowledge, note and review files, the digest and
the ledger go back to what they held before it, the transcripts it wrote are removed, and the
conversations it reclaimed from the inbox come back. One level, kept until the next apply.
Refuses, changing nothing, when a file was edited after the harvest (edit it back, or take the
harvest's lines out by hand). An undo that was interrupted finishes when run again.`;

export async function undoCommand(argv: string[], io: Output): Promise<number> {
  const parsed = parseCommand(argv, COMMON_OPTIONS, UNDO_HELP, io, { positionals: false, existingStore: true });
  if (!parsed) return EXIT_OK;
  const outcome = await undoLastHarvest(parsed.paths);
  if (parsed.values.json) io.out(JSON.stringify(outcome, null, 2));
  else {
    io.err(undoOutcomeText(outcome));
    if (outcome.status === 'undone') reportHistory(io, outcome.history);
  }
  return outcome.status === 'undone' || outcome.status === 'nothing' ? EXIT_OK : EXIT_FAILED;
}
