/** `lore undo`: puts the store back as it was before the last harvest applied. */
import { undoLastHarvest, type UndoOutcome } from '../../core/harvest/undoLastHarvest';
import { COMMON_OPTIONS, EXIT_FAILED, EXIT_OK, type Output, parseCommand, printable } from '../cliSupport';

export const UNDO_HELP = `lore undo [--root DIR] [--json]
Undoes the last harvest that was applied: the knowledge, note and review files, the digest and
the ledger go back to what they held before it, the transcripts it wrote are removed, and the
conversations it reclaimed from the inbox come back. One level, kept until the next apply.
Refuses, changing nothing, when a file was edited after the harvest (edit it back, or take the
harvest's lines out by hand). An undo that was interrupted finishes when run again.`;

/** One sentence for each outcome (the extension says the same in its own words). */
export function undoOutcomeText(outcome: UndoOutcome): string {
  switch (outcome.status) {
    case 'nothing':
      return 'nothing to undo: no harvest has been applied since the last undo';
    case 'unfinished':
      return `the harvest applied at ${outcome.at} did not finish; run the harvest again to complete it, then undo`;
    case 'refused':
      return `not undone: edited since the harvest of ${outcome.at}: ${outcome.edited.map((f) => printable(f)).join(', ')}. Nothing was changed; edit them back, or take the harvest's lines out by hand`;
    case 'undone': {
      const parts = [`restored ${outcome.restored.length} file(s)`, `removed ${outcome.removed.length} transcript(s)`, `returned ${outcome.returned.length} conversation(s) to the inbox`];
      return `undid the harvest of ${outcome.at}: ${parts.join(', ')}`;
    }
  }
}

export async function undoCommand(argv: string[], io: Output): Promise<number> {
  const parsed = parseCommand(argv, COMMON_OPTIONS, UNDO_HELP, io, { positionals: false });
  if (!parsed) return EXIT_OK;
  const outcome = await undoLastHarvest(parsed.paths);
  if (parsed.values.json) io.out(JSON.stringify(outcome, null, 2));
  else io.err(undoOutcomeText(outcome));
  return outcome.status === 'undone' || outcome.status === 'nothing' ? EXIT_OK : EXIT_FAILED;
}
