/**
 * What "Undo Last Harvest" did, and the sentence that says it: a pure format apart from the undo
 * itself (undoLastHarvest.ts), so the VS Code extension can say it without loading a writer.
 */
import type { HistoryOutcome } from '../history/storeHistory';
import { printable } from '../../model/format';

export type UndoOutcome =
  /** The store is back as it was before the last apply. */
  | { status: 'undone'; at: string; restored: string[]; removed: string[]; returned: string[]; history?: HistoryOutcome }
  /** No apply to undo (none yet, or its undo was done, or another apply cleared it). */
  | { status: 'nothing' }
  /** The last apply was interrupted: harvest again to finish it, then undo. */
  | { status: 'unfinished'; at: string }
  /** Files changed since the apply (store-relative): nothing was changed. */
  | { status: 'refused'; at: string; edited: string[] };

/** "of 2026-05-12T14:32:00.000Z" as the CLI says it, or "today 14:32": the moment as `time` words it. */
function at(iso: string, time: (iso: string) => string): string {
  const said = time(iso);
  return said === iso ? `of ${iso}` : `made ${said}`;
}

/**
 * One sentence for each outcome, for the CLI and the extension alike; `time` says when the apply
 * was (the CLI prints the ISO timestamp, the extension "today 14:32").
 */
export function undoOutcomeText(outcome: UndoOutcome, time: (iso: string) => string = (iso) => iso): string {
  switch (outcome.status) {
    case 'nothing':
      return 'nothing to undo: no harvest or tidy has been applied since the last undo';
    case 'unfinished':
      return `the apply ${at(outcome.at, time)} did not finish; run the harvest (or tidy) again to complete it, then undo`;
    case 'refused':
      return `not undone: edited since the apply ${at(outcome.at, time)}: ${outcome.edited.map((f) => printable(f)).join(', ')}. Nothing was changed; edit them back, or take its lines out by hand`;
    case 'undone': {
      const parts = [
        `restored ${outcome.restored.length} file(s)`,
        `removed ${outcome.removed.length} transcript(s)`,
        `returned ${outcome.returned.length} conversation(s) to the inbox`,
      ];
      return `undid the apply ${at(outcome.at, time)} (a harvest or lore tidy): ${parts.join(', ')}`;
    }
  }
}
