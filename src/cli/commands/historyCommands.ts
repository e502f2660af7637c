/**
 * `lore history ID`: who added an item and when it was learned, and every change since, from git.
 * `lore journal`: the day's journal, and its summary by a model on request.
 * `lore commit`: commits what the store's history holds back (interval mode) now.
 */
import { flushStoreHistory } from '../../core/store/history/storeHistory';
import { itemHistory, type ItemHistory } from '../../core/store/items/itemHistory';
import { addedByText } from '../../core/store/history/lineAuthors';
import { JOURNAL_DATE, journalEntries, journalFile, renderJournal } from '../../core/model/journalFormat';
import { readJournal, summarizeJournal } from '../../core/services/harvest/summarizeJournal';
import { toIsoDate } from '../../core/model/provenance';
import { humanTime } from '../../core/model/format';
import { isItemId } from '../../core/model/itemId';
import { createProvider, PROVIDER_NAMES } from '../../core/services/providers/providerRegistry';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, envOf, printable, type Output } from '../cliSupport';
import { historyText, reportHistory } from '../historyText';

export const historyCommand = command({
  name: 'history',
  usage: [{ usage: 'ID [--root DIR] [--json]', does: 'when an item was learned (commit, conversation) and every change since, from git' }],
  options: {},
  run: history,
});
const JOURNAL_OPTIONS = {
  date: { type: 'string' },
  summarize: { type: 'boolean' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
} as const;

export const journalCommand = command({
  name: 'journal',
  usage: ['[--date YYYY-MM-DD] [--summarize [--provider P] [--model M] [--base-url URL]] [--root DIR] [--json]'],
  description: `The day's journal (journal/YYYY-MM-DD.md, default today, UTC): what the day taught the store
(harvests, review accepts, agents' direct writes, notes), by source and category. --summarize
has the model write a short summary into it.`,
  options: JOURNAL_OPTIONS,
  takes: { positionals: false },
  run: journal,
});
export const commitCommand = command({
  name: 'commit',
  usage: [{ usage: '[--root DIR] [--json]', does: "commit the store's changes to git now (what interval mode holds back)" }],
  options: {},
  takes: { positionals: false },
  run: commit,
});

/** `by Ana <ana@example.com>`: a commit's author as the history lists it. */
function byWhom(e: { author: string; email: string }): string {
  return `by ${e.author || 'an unnamed author'}${e.email ? ` <${e.email}>` : ''}`;
}

/** The history as lines: the conversation, who added the item, then each commit, oldest first. */
export function historyLines(history: ItemHistory): string[] {
  const item = history.item!;
  const lines = [`${history.id}  ${printable(item.file)}:${item.line}  ${printable(item.text)}`];
  if (history.conversation) {
    const c = history.conversation;
    // Named as the person knows it ("Fix the flaky login test"), the id after it for lore forget.
    const name = c.title ? `"${printable(c.title)}" (${printable(c.source)})` : printable(c.source);
    lines.push(`from conversation ${name}, ${humanTime(c.date)}${c.transcript ? ` (${printable(c.transcript)})` : ''}`);
  }
  if (item.layer === 'personal') {
    lines.push('personal: it is in your personal layer (.lore/personal/), which git never holds');
    return lines;
  }
  if (!history.git) {
    lines.push('no git history: the store is not in a git repository (lore init --git)');
    return lines;
  }
  if (history.events.length === 0) lines.push('not in any commit yet');
  // Who added it first, on a line of its own: the question a teammate's item raises.
  if (history.addedBy) lines.push(printable(addedByText(history.addedBy)));
  for (const e of history.events) {
    const from = e.conversations.length ? `  [${e.conversations.map((c) => printable(c)).join(', ')}]` : '';
    lines.push(
      `${e.kind === 'added' ? 'learned' : 'changed'} ${e.date.slice(0, 10)}  ${e.commit.slice(0, 12)}  ${printable(e.subject)}${from}  (${printable(byWhom(e))})`,
    );
  }
  if (history.uncommitted && history.events.length) lines.push('changed since, not committed yet');
  return lines;
}

async function history(parsed: Parsed, io: Output): Promise<number> {
  const [id, ...extra] = parsed.positionals;
  if (!id || extra.length || !isItemId(id))
    throw new UsageError('lore history takes one item id (8 characters, as `lore search` and `lore item` print them)');
  const history = await itemHistory(parsed.paths, id.toLowerCase());
  if (!history) {
    io.err(`no item ${printable(id)} in this store (an edited item has a new id)`);
    return EXIT_FAILED;
  }
  if (parsed.values.json) io.out(JSON.stringify(history, null, 2));
  else io.out(historyLines(history).join('\n'));
  return EXIT_OK;
}

async function journal(parsed: Parsed<typeof JOURNAL_OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  const date = values.date ?? toIsoDate(new Date());
  if (!JOURNAL_DATE.test(date)) throw new UsageError('--date takes a day as YYYY-MM-DD');
  const journal = readJournal(paths, date);
  if (!journal || journalEntries(journal).length === 0) {
    io.err(`no journal for ${date} (${journalFile(date)}): nothing was learned that day`);
    return values.summarize ? EXIT_FAILED : EXIT_OK;
  }
  if (!values.summarize) {
    if (values.json)
      io.out(JSON.stringify({ date, file: journalFile(date), summary: journal.summary, entries: journalEntries(journal) }, null, 2));
    else io.out(renderJournal(journal).trimEnd());
    return EXIT_OK;
  }
  const providerName = values.provider ?? envOf(io).LORE_PROVIDER ?? '';
  if (!providerName || providerName === 'rules')
    throw new UsageError(
      `summarizing needs a model: pass --provider (one of ${PROVIDER_NAMES.filter((p) => p !== 'rules').join(', ')}) or set LORE_PROVIDER`,
    );
  if (!(PROVIDER_NAMES as readonly string[]).includes(providerName))
    throw new UsageError(`unknown provider "${providerName}"; choose one of ${PROVIDER_NAMES.join(', ')}`);
  const provider = createProvider(providerName, { model: values.model, baseUrl: values['base-url'], env: envOf(io) });
  const result = await summarizeJournal(paths, date, provider, { model: values.model, spending: { via: 'cli' } });
  if (!result) return EXIT_FAILED;
  for (const warning of result.warnings ?? []) io.err(`warning: ${printable(warning)}`);
  if (values.json) io.out(JSON.stringify(result, null, 2));
  else {
    io.out(result.summary.map((l) => printable(l)).join('\n'));
    reportHistory(io, result.history);
  }
  return EXIT_OK;
}

async function commit(parsed: Parsed, io: Output): Promise<number> {
  const outcome = await flushStoreHistory(parsed.paths, { force: true });
  if (parsed.values.json) {
    io.out(JSON.stringify(outcome ?? { off: true }, null, 2));
    return outcome?.warning ? EXIT_FAILED : EXIT_OK;
  }
  if (!outcome) {
    io.err('git history is off for this store (no repository, or "git": {"commit": "off"}); lore init --git turns it on');
    return EXIT_OK;
  }
  io.out(historyText(outcome) ?? 'nothing to commit');
  if (outcome.warning) io.err(`warning: ${printable(outcome.warning)}`);
  return outcome.warning ? EXIT_FAILED : EXIT_OK;
}
