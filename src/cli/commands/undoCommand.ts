/** `lore undo`: puts the store back as it was before the last harvest applied. */
import { undoLastHarvest } from '../../core/store/changes/undoLastHarvest';
import { undoOutcomeText } from '../../core/store/changes/undoOutcome';
import { reportHistory } from '../historyText';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, type Output } from '../cliSupport';

export const undoCommand = command({
  name: 'undo',
  usage: ['[--root DIR] [--json]'],
  description: `Undoes the last harvest that was applied: the knowledge, note and review files, the digest and
the ledger go back to what they held before it, the transcripts it wrote are removed, and the
conversations it reclaimed from the inbox come back. One level, kept until the next apply.
Refuses, changing nothing, when a file was edited after the harvest (edit it back, or take the
harvest's lines out by hand). An undo that was interrupted finishes when run again.`,
  options: {},
  takes: { positionals: false, existingStore: true },
  run: undo,
});

async function undo(parsed: Parsed, io: Output): Promise<number> {
  const outcome = await undoLastHarvest(parsed.paths);
  if (parsed.values.json) io.out(JSON.stringify(outcome, null, 2));
  else {
    io.err(undoOutcomeText(outcome));
    if (outcome.status === 'undone') reportHistory(io, outcome.history);
  }
  return outcome.status === 'undone' || outcome.status === 'nothing' ? EXIT_OK : EXIT_FAILED;
}
