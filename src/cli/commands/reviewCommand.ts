/**
 * `lore review`: lists the knowledge items held for a person's review (they read as
 * instructions to an agent) and agents' writes waiting to be accepted (the pending queue), and
 * accepts, rejects or edits them by number.
 */
import { itemId } from '../../core/model/itemId';
import { editReviewItem } from '../../core/store/items/reviewEdit';
import { decideReview, listReview, targetDisplayName, type ReviewDecision, type ReviewItem } from '../../core/store/items/reviewQueue';
import { isInstructionHold } from '../../core/model/reviewFile';
import type { StorePaths } from '../../core/store/storePaths';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, printable, type Output } from '../cliSupport';
import { reportHistory } from '../historyText';

const REVIEW_OPTIONS = { personal: { type: 'boolean' } } as const;

export const reviewCommand = command({
  name: 'review',
  usage: [
    { usage: '[--root DIR] [--json]', does: "list items held for review and agents' pending writes, numbered" },
    {
      usage: 'accept N... | all [--personal]',
      does: 'let items through: queued ones move to their file, pending changes are made\n(all: only items not flagged; a flagged item is accepted only by its number;\n--personal: into your personal layer, .lore/personal/, never committed)',
    },
    { usage: 'reject N... | all', does: 'delete items (all: the queue; items already in your files only by number)' },
    { usage: 'edit N TEXT', does: 'change the text of a queued item before accepting it' },
  ],
  description: `Items that read as instructions to an agent (remote scripts piped to a shell, "ignore previous
instructions", sending keys or credentials, turning security checks off, orders addressed to the
assistant in any language, destructive commands such as rm -rf ~ or a force-push) wait in review.md, or in their file when they were already there, and stay out of the
digest, the context and the instruction files until accepted. So do agents' writes (MCP remember,
change_item) unless the store's config.json says "agentWrites": "direct".`,
  options: REVIEW_OPTIONS,
  run: review,
});

/** What accepting a pending agent write does, as a person reads it. */
function pendingLabel(item: ReviewItem): string {
  const { op, id } = item.pending!;
  const from =
    item.provenance && (op === 'remember' || op === 'update' || op === 'supersede') ? `, from ${printable(item.provenance.source)}` : '';
  return `pending ${op}${id ? ` of ${id}` : ''}${from}`;
}

function describeItem(item: ReviewItem, n: number): string {
  const where =
    item.where === 'in-place' ? " (already in the file; held out of agents' context)" : item.pending ? ` (${pendingLabel(item)})` : '';
  // The item's id after its number, as lore search prints it: lore item ID shows it in full.
  const lines = [`${n}. ${itemId(item.line)}  ${printable(targetDisplayName(item.target))}${where}: ${printable(item.text)}`];
  if (isInstructionHold(item.kinds)) lines.push(`   flagged: ${item.kinds.map((k, i) => `${k} (${item.reasons[i]})`).join('; ')}`);
  else if (item.kinds.length) lines.push(`   suggested: ${item.reasons.join('; ')}`);
  if (item.provenance) lines.push(`   from: ${printable(item.provenance.source)}, ${item.provenance.date}`);
  return lines.join('\n');
}

function itemJson(item: ReviewItem, n: number) {
  return {
    n,
    id: itemId(item.line),
    where: item.where,
    file: item.target.file,
    section: item.target.section,
    notedPath: item.target.notedPath,
    text: item.text,
    line: item.line,
    kinds: item.kinds,
    reasons: item.reasons,
    provenance: item.provenance,
    pending: item.pending,
  };
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

async function review(parsed: Parsed<typeof REVIEW_OPTIONS>, io: Output): Promise<number> {
  const { values, positionals, paths } = parsed;
  const [action, ...rest] = positionals;
  const items = listReview(paths);
  if (action === undefined || action === 'list') {
    if (values.json) io.out(JSON.stringify({ items: items.map((item, i) => itemJson(item, i + 1)) }, null, 2));
    else if (items.length === 0) io.out('nothing is held for review');
    else {
      io.out(items.map((item, i) => describeItem(item, i + 1)).join('\n'));
      io.out(
        `\n${items.length} item${items.length === 1 ? '' : 's'} held; "lore review accept N" lets one through, "lore review reject N" deletes it.`,
      );
    }
    return EXIT_OK;
  }
  if (action === 'edit') return editCommand(paths, items, rest, io);
  if (action !== 'accept' && action !== 'reject') throw new UsageError(`unknown action "${action}"; use accept, reject or edit`);
  if (values.personal && action !== 'accept') throw new UsageError('--personal goes with accept: where an accepted item is kept');
  const chosen = pick(items, rest);
  const result = await decideReview(paths, action as ReviewDecision, chosen === 'all' ? 'all' : chosen.map((i) => i.id), {
    to: values.personal ? 'personal' : undefined,
  });
  // What "accept all" left held, numbered as "lore review" lists them now.
  const remaining = result.keptFlagged.length ? listReview(paths) : [];
  const kept = result.keptFlagged.map((item) => ({ item, n: remaining.findIndex((i) => i.id === item.id) + 1 }));
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          decision: action,
          decided: result.decided.map((item) => itemJson(item, items.findIndex((i) => i.id === item.id) + 1)),
          keptFlagged: kept.map(({ item, n }) => itemJson(item, n)),
          missing: result.missing.length,
          written: result.written,
        },
        null,
        2,
      ),
    );
  } else {
    const verb = action === 'accept' ? 'accepted' : 'rejected';
    const into = values.personal ? ' (kept personal)' : '';
    for (const item of result.decided) io.out(`${verb}${into}: ${printable(targetDisplayName(item.target))}: ${printable(item.text)}`);
    for (const { item, reason } of result.failed) io.err(`not applied, still pending: ${printable(item.text)}: ${printable(reason)}`);
    if (result.decided.length === 0 && result.failed.length === 0 && result.keptFlagged.length === 0) io.out('nothing to decide');
    if (kept.length) io.out(keptFlaggedText(kept.map(({ n }) => n)));
    if (result.missing.length) io.err(`${result.missing.length} item(s) were decided by someone else meanwhile; run "lore review" again`);
    reportHistory(io, result.history);
  }
  return result.missing.length || result.failed.length ? EXIT_FAILED : EXIT_OK;
}

/** What "accept all" says about the flagged items it left: how many, which, and how to let one through by its number. */
function keptFlaggedText(numbers: number[]): string {
  const one = numbers.length === 1;
  const count = one ? '1 flagged item' : `${numbers.length} flagged items`;
  return `${count} still held: item${one ? '' : 's'} ${numbers.join(', ')} read${one ? 's' : ''} as an instruction to an agent, which "accept all" never lets through; read ${one ? 'it' : 'each'} ("lore review"), then accept one by its number ("lore review accept ${numbers[0]}") or delete it ("lore review reject ${numbers[0]}")`;
}

/** `lore review edit N TEXT`: the queued item's text replaced, what accepting it does kept. */
async function editCommand(paths: StorePaths, items: ReviewItem[], args: string[], io: Output): Promise<number> {
  const [number, ...words] = args;
  const picked = pick(items, number === undefined ? [] : [number]);
  if (picked === 'all' || words.length === 0) throw new UsageError('name one item by number, then its new text: lore review edit N TEXT');
  const [item] = picked;
  if (item.where !== 'queue') throw new UsageError(`item ${number} is already in ${targetDisplayName(item.target)}: edit it there`);
  const result = await editReviewItem(paths, item.id, words.join(' '));
  if (!result.edited) {
    io.err(`not edited: ${result.reason}`);
    return EXIT_FAILED;
  }
  io.out(`edited ${number}: ${printable(result.line)}`);
  return EXIT_OK;
}
