/** How the CLI reports what the store's git history did after a write. */
import type { HistoryOutcome } from '../core/store/history/storeHistory';
import { printable } from '../core/model/format';
import type { Output } from './cliSupport';

/** The commits made, or how many changes wait for the next commit (undefined: nothing to say). */
export function historyText(history: HistoryOutcome | undefined): string | undefined {
  if (!history) return undefined;
  const lines = history.commits.map((c) => `committed ${c.commit.slice(0, 12)} ${printable(c.subject)}`);
  if (history.pending && !history.warning)
    lines.push(
      `git: ${history.pending} change(s) wait for the next ${history.mode === 'interval' ? 'interval' : ''} commit`.replace('  ', ' '),
    );
  return lines.join('\n') || undefined;
}

/** Prints the commits on stderr (stdout stays the command's answer) and any warning. */
export function reportHistory(io: Output, history: HistoryOutcome | undefined): void {
  const text = historyText(history);
  if (text) io.err(text);
  if (history?.warning) io.err(`warning: ${printable(history.warning)}`);
}
