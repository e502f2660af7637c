/**
 * `lore journal --summarize`: a model condenses one day of the journal into a few bullets, which
 * go into the journal's `## Summary` (replacing an older one). Only when a person asks, with the
 * provider they name; the reply is redacted and flattened like any text that enters the store
 * (it is not knowledge and reaches no agent: no reader lists journal/). The call is metered and
 * capped like a harvest's (meteredTask.ts), and the journal's local paths are hidden from the
 * provider as a conversation's are (localPaths.ts).
 */
import * as os from 'node:os';
import { loadPrompt } from './prompts';
import { recordStoreChange, type HistoryOutcome } from '../../store/history/storeHistory';
import type { Provider } from '../providers/provider';
import { redactSecrets } from '../../model/safety/redact';
import { acquireStoreLock } from '../../base/storeLock';
import { editStoreFile } from '../../base/storeText';
import type { StorePaths } from '../../store/storePaths';
import { journalEntries, parseJournal, renderJournal, type Journal } from '../../model/journalFormat';
import { journalPath } from '../../store/journal/journalFile';
import { maskLocalPaths } from '../../model/safety/localPaths';
import { meteredProvider, type TaskSpendingOptions } from '../spending/meteredTask';
import { readStoreFile } from '../../base/readText';

export const SUMMARIZE_JOURNAL_PROMPT = 'summarize-journal.md';

/** Lines of a summary kept at most (the prompt asks for 8). */
const MAX_SUMMARY_LINES = 20;

export interface JournalSummary {
  date: string;
  summary: string[];
  model?: string;
  history?: HistoryOutcome;
  /** A spending record that could not be written. */
  warnings?: string[];
}

/** Reads the journal of `date` (undefined when there is none). */
export function readJournal(paths: StorePaths, date: string): Journal | undefined {
  try {
    return parseJournal(date, readStoreFile(journalPath(paths, date), 'utf8'));
  } catch {
    return undefined;
  }
}

/** What the model reads: the day's bullets by source and category, without the old summary. */
export function journalForModel(journal: Journal): string {
  return renderJournal({ ...journal, summary: [] });
}

/**
 * The reply as summary lines: secrets redacted, no headings or frontmatter fences (so it cannot
 * restructure the journal), blank lines dropped, capped.
 */
export function summaryLines(reply: string): string[] {
  return redactSecrets(reply)
    .split(/\r?\n/)
    .map((line) =>
      line
        .replace(/^\s*#+\s*/, '')
        .replace(/^---+$/, '')
        .trimEnd(),
    )
    .filter((line) => line.trim())
    .slice(0, MAX_SUMMARY_LINES);
}

/** Summarizes the journal of `date` with `provider` and writes the summary into it. */
export async function summarizeJournal(
  paths: StorePaths,
  date: string,
  provider: Provider,
  options: { model?: string; timeoutMs?: number; signal?: AbortSignal; spending?: TaskSpendingOptions; home?: string } = {},
): Promise<JournalSummary | undefined> {
  const journal = readJournal(paths, date);
  if (!journal || journalEntries(journal).length === 0) return undefined;
  const metered = meteredProvider(paths, provider, 'journal', 'the journal summary', options.spending);
  const reply = await metered.provider.generate({
    task: 'summarize',
    instructions: loadPrompt(paths, SUMMARIZE_JOURNAL_PROMPT).text,
    content: maskLocalPaths(journalForModel(journal), { home: options.home ?? os.homedir(), workspace: paths.workspace }),
    model: options.model,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    cache: { mode: 'off' },
  });
  const summary = summaryLines(reply.text);
  const lock = await acquireStoreLock(paths.root);
  try {
    // Merged with the journal as it is now: an apply may have added to it while the model wrote.
    editStoreFile(journalPath(paths, date), (current) => renderJournal({ ...parseJournal(date, current), summary }));
    const history = await recordStoreChange(paths, {
      type: 'maintenance',
      subject: `journal: summary of ${date}`,
      body: [`Model: ${reply.model ?? provider.label}`],
    });
    return {
      date,
      summary,
      ...(reply.model ? { model: reply.model } : {}),
      ...(history ? { history } : {}),
      ...(metered.warnings.length ? { warnings: metered.warnings } : {}),
    };
  } finally {
    lock.release();
  }
}
