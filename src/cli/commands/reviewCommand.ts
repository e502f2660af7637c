/**
 * `lore review`: lists the knowledge items held for a person's review (they read as
 * instructions to an agent), and accepts or rejects them by number.
 */
import { decideReview, listReview, targetDisplayName, type ReviewDecision, type ReviewItem } from '../../core/knowledge/reviewQueue';
import { COMMON_OPTIONS, EXIT_FAILED, EXIT_OK, UsageError, parseCommand, printable, type Output } from '../cliSupport';

export const REVIEW_HELP = `lore review [--root DIR] [--json]        list items held for review, numbered
lore review accept N... | all            let items through: queued ones move to their file
lore review reject N... | all            delete items (all: the queue; items already in your files only by number)
Items that read as instructions to an agent (remote scripts piped to a shell, "ignore previous
instructions", sending keys or credentials, turning security checks off, orders addressed to the
assistant) wait in review.md, or in their file when they were already there, and stay out of the
digest, the context and the instruction files until accepted.`;

function describeItem(item: ReviewItem, n: number): string {
  const where = item.where === 'in-place' ? ' (already in the file; held out of agents\' context)' : '';
  const lines = [`${n}. ${printable(targetDisplayName(item.target))}${where}: ${printable(item.text)}`];
  lines.push(`   flagged: ${item.kinds.map((k, i) => `${k} (${item.reasons[i]})`).join('; ')}`);
  if (item.provenance) lines.push(`   from: ${printable(item.provenance.source)}, ${item.provenance.date}`);
  return lines.join('\n');
}

function itemJson(item: ReviewItem, n: number) {
  return { n, where: item.where, file: item.target.file, section: item.target.section, notedPath: item.target.notedPath, text: item.text, line: item.line, kinds: item.kinds, reasons: item.reasons, provenance: item.provenance };
}

/** The items named by 1-based numbers (or all). */
function pick(items: ReviewItem[], args: string[]): ReviewItem[] | 'all' {
  if (args.length === 1 && args[0] === 'all') return 'all';
  if (args.length === 0) throw new UsageError('name the items by number (see "lore review"), or "all"');
  return args.map((arg) => {
    const n = Number(arg);
    if (!Number.isInteger(n) || n < 1 || n > items.length) {
      throw new UsageError(items.length ? `"${arg}" is not an item number (1–${items.length})` : 'nothing is held for review');
    }
    return items[n - 1];
  });
}

export async function reviewCommand(argv: string[], io: Output): Promise<number> {
  const parsed = parseCommand(argv, COMMON_OPTIONS, REVIEW_HELP, io);
  if (!parsed) return EXIT_OK;
  const { values, positionals, paths } = parsed;
  const [action, ...rest] = positionals;
  const items = listReview(paths);
  if (action === undefined || action === 'list') {
    if (values.json) io.out(JSON.stringify({ items: items.map((item, i) => itemJson(item, i + 1)) }, null, 2));
    else if (items.length === 0) io.out('nothing is held for review');
    else {
      io.out(items.map((item, i) => describeItem(item, i + 1)).join('\n'));
      io.out(`\n${items.length} item${items.length === 1 ? '' : 's'} held; "lore review accept N" lets one through, "lore review reject N" deletes it.`);
    }
    return EXIT_OK;
  }
  if (action !== 'accept' && action !== 'reject') throw new UsageError(`unknown action "${action}"; use accept or reject`);
  const chosen = pick(items, rest);
  const result = await decideReview(paths, action as ReviewDecision, chosen === 'all' ? 'all' : chosen.map((i) => i.id));
  if (values.json) {
    io.out(JSON.stringify({ decision: action, decided: result.decided.map((item) => itemJson(item, items.findIndex((i) => i.id === item.id) + 1)), missing: result.missing.length, written: result.written }, null, 2));
  } else {
    const verb = action === 'accept' ? 'accepted' : 'rejected';
    for (const item of result.decided) io.out(`${verb}: ${printable(targetDisplayName(item.target))}: ${printable(item.text)}`);
    if (result.decided.length === 0) io.out('nothing to decide');
    if (result.missing.length) io.err(`${result.missing.length} item(s) were decided by someone else meanwhile; run "lore review" again`);
  }
  return result.missing.length ? EXIT_FAILED : EXIT_OK;
}
