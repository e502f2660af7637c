/**
 * What the Harvest Plan view shows, as data: a pending plan (a harvest report as the client
 * holds it) turned into rows. One summary line in words ("3 facts, 1 decision into 2 files"), the
 * files that change (each opens its diff), the items (ticked: untick to leave one out), the items
 * held for review and why, and the conversations that failed or were skipped and why. Pure and
 * free of vscode, so the rows are tested without a window; planView.ts draws them.
 */
import * as path from 'node:path';
import { categoryWord, humanTime, itemCountsText, printable, reclaimText } from '../../core/model/format';
import { itemStatement } from '../../core/model/itemLines';
import { readCoreFrontmatter } from '../../core/model/noteFile';
import { targetDisplayName } from '../../core/model/reviewTargetName';
import { heldText, holdReason, INFERRED, isInstructionHold } from '../../core/model/reviewFile';
import type { PlanItem } from '../../core/services/harvest/planSelection';
import type { ConversationOutcome } from '../../core/store/harvestPlan';
import type { ShownPlan, ShownReport } from '../../shared/protocol';
import { plainMarkdown } from '../search/searchHitItem';
import { failureReason, failuresSentence, unreadableReason, type FailureReason } from './harvestFailures';
import { runSpendingSentence } from '../../core/services/spending/spendingText';

export type PlanSection = 'files' | 'items' | 'held' | 'problems';

export type PlanRow =
  | { kind: 'summary'; label: string; tooltip: string }
  | { kind: 'section'; section: PlanSection; label: string; children: PlanRow[] }
  /** A file that changes: `file` is store-relative (the diff's name), `label` what a person calls it. */
  | { kind: 'file'; file: string; label: string; description: string }
  /** A line or a reclaim the person may leave out (a choice of lore/harvestChoose). */
  | { kind: 'item'; choice: PlanItem; label: string; description: string; tooltip: string }
  | { kind: 'held'; label: string; description: string; tooltip: string }
  | { kind: 'problem'; path: string; label: string; description: string; tooltip: string };

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a person calls a store file: a note file by the file it is about, the rest by its name. */
export function planFileLabel(change: ShownPlan['changes'][number]): string {
  if (change.file.startsWith('files/')) {
    const meta = readCoreFrontmatter(change.after ?? change.before ?? '')?.meta;
    if (meta?.path) return `notes on ${printable(meta.path)}`;
  }
  return change.file;
}

/**
 * Whether applying the plan writes anything a person would miss: a change, a conversation removed
 * from the inbox, or one recorded as read (nothing to keep in it, so it is not read again). A plan
 * of failures only writes nothing worth an Apply, even when it brings an out-of-date digest up to
 * date (the digest is made from the other files, and Regenerate Digest does that on its own).
 */
export function planWritesSomething(plan: ShownPlan | undefined): boolean {
  return !!plan && (plan.changes.some((c) => c.file !== 'digest.md') || plan.outcomes.some((o) => o.reclaim || o.status === 'harvested'));
}

/**
 * "3 facts, 1 decision, 1 open task into 3 files; held for your review: 2 suggestions to confirm", or what there is when
 * nothing is written.
 */
export function planSummary(report: ShownReport): string {
  const plan = report.plan;
  if (!plan?.changes.length) {
    const read = plan?.outcomes.filter((o) => o.status === 'harvested').length ?? 0;
    return read ? `Nothing new to keep in ${plural(read, 'conversation')}` : 'Nothing to write';
  }
  const held = plan.held.length ? `held for your review: ${heldText(plan.held)}` : '';
  const kept = Object.values(plan.items).some((n) => n > 0);
  if (!kept && held) return held.charAt(0).toUpperCase() + held.slice(1);
  return `${itemCountsText(plan.items)} into ${plural(plan.changes.length, 'file')}${held ? `; ${held}` : ''}`;
}

/**
 * The one line shown when a preview is ready (its buttons: Apply, Open Plan): what will be written,
 * what is held, why conversations failed. The Harvest Plan view has the rest.
 */
export function previewMessage(report: ShownReport): string {
  const failures = failuresSentence(report.conversations).text;
  const spent = runSpendingSentence(report.spending);
  return `Lore harvest: ${planSummary(report)}. Nothing is written until you apply.${failures ? ` ${failures}` : ''}${spent ? ` ${spent}` : ''}`;
}

/** How many conversations the dry run's dialog names; "and N more" covers the rest. */
const NAMED_IN_DRY_RUN = 5;

/**
 * The conversations a harvest is about to read, one line each by title and date ("init · 14 Feb"),
 * for the dialog that asks before anything is sent: a person recognises what they asked, not a file
 * name. A conversation with no title is named by its file.
 */
export function dryRunConversations(report: ShownReport, now: number = Date.now()): string {
  const reading = report.conversations.filter((c) => c.class === 'harvest' || c.class === 'retry');
  const lines = reading.slice(0, NAMED_IN_DRY_RUN).map((c) => {
    const name = printable(c.title ?? path.basename(c.path));
    const shown = name.length > 70 ? `${name.slice(0, 69)}…` : name;
    return c.started ? `${shown} · ${humanTime(c.started, { now, withTime: false })}` : shown;
  });
  if (reading.length > NAMED_IN_DRY_RUN) lines.push(`and ${reading.length - NAMED_IN_DRY_RUN} more`);
  return lines.join('\n');
}

function summaryTooltip(plan: ShownPlan): string {
  const reclaims = reclaimText(
    plan.outcomes.flatMap((o) => (o.reclaim ? [o.reclaim] : [])),
    true,
  );
  return [
    'Nothing is written until you apply. Apply writes exactly what this view shows, without asking a model again.',
    reclaims ? `Once written: ${reclaims}.` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** Why a conversation was not distilled, or undefined when it was (or was simply already harvested). */
export function conversationProblem(outcome: ConversationOutcome): FailureReason | undefined {
  if (outcome.status === 'harvest-failed') return failureReason(outcome.error);
  if (outcome.status === 'unrecognized') return unreadableReason(outcome);
  if (outcome.class === 'unrecognized') return unreadableReason({ error: outcome.reason });
  const why = outcome.reason ? ` (${printable(outcome.reason)})` : '';
  if (outcome.class === 'too-large')
    return { kind: 'other', reason: `Too long to send to a model${why}`, advice: 'it is kept; Lore never sends it' };
  if (outcome.class === 'binary') return { kind: 'unreadable', reason: `Not a text file${why}`, advice: 'it is kept and skipped' };
  if (outcome.class === 'unreadable') return { kind: 'unreadable', reason: `Could not be read${why}`, advice: 'it is kept' };
  return undefined;
}

function problemRow(outcome: ConversationOutcome, problem: FailureReason): PlanRow {
  const name = printable(path.basename(outcome.path));
  return {
    kind: 'problem',
    path: outcome.path,
    label: name,
    description: problem.reason,
    tooltip: `${printable(outcome.path)}\n\n${problem.reason}: ${problem.advice}.`,
  };
}

/** Whether two choices, of two versions of one plan, are the same line or reclaim (their ids are positions, not identities). */
export function sameChoice(a: PlanItem, b: PlanItem): boolean {
  if (a.kind === 'reclaim') return b.kind === 'reclaim' && a.path === b.path;
  return b.kind === 'line' && a.file === b.file && a.line === b.line;
}

function itemRows(plan: ShownPlan): PlanRow[] {
  const labels = new Map(plan.changes.map((c) => [c.file, planFileLabel(c)]));
  return plan.choices.map((choice) => {
    if (choice.kind === 'reclaim') {
      const verb = choice.action === 'delete' ? 'Remove from the inbox' : 'Move to the archive';
      return {
        kind: 'item',
        choice,
        label: `${verb}: ${printable(path.basename(choice.path))}`,
        description: 'after the harvest',
        tooltip: `${printable(choice.path)}\n\nUntick to keep this conversation in the inbox.`,
      };
    }
    const statement = printable(itemStatement(choice.line)) || printable(choice.line);
    return {
      kind: 'item',
      choice,
      // A tree row renders no markdown: the words, not `**CI**` (the tooltip keeps the line as written).
      label: plainMarkdown(statement),
      description: `${categoryWord(choice.category)} · ${labels.get(choice.file) ?? choice.file}`,
      tooltip: `${printable(choice.line)}\n\nUntick to leave it out: it is not written.`,
    };
  });
}

function heldRows(plan: ShownPlan): PlanRow[] {
  return plan.held.map((held) => {
    const label = printable(itemStatement(held.line)) || printable(held.line);
    const then = `Applying puts it in the Review view, not in ${targetDisplayName(held.target)}; accept it there to keep it.`;
    if (!isInstructionHold(held.kinds))
      return {
        kind: 'held',
        label,
        description: 'suggested: to confirm',
        tooltip: `${printable(held.line)}\n\nHeld for you to confirm: ${holdReason(INFERRED)}. ${then}`,
      };
    const why = held.kinds
      .filter((k) => k !== INFERRED)
      .map(holdReason)
      .join('; ');
    return {
      kind: 'held',
      label,
      description: `held: reads as ${held.kinds.length === 1 ? 'an instruction' : 'instructions'} to an agent`,
      tooltip: `${printable(held.line)}\n\nHeld for your review because it reads as ${why || 'an instruction to an agent'}. ${then}`,
    };
  });
}

/** The rows of the Harvest Plan view for a pending plan; [] when none is pending. */
export function planRows(report: ShownReport | undefined): PlanRow[] {
  const plan = report?.plan;
  if (!report || !plan) return [];
  const rows: PlanRow[] = [{ kind: 'summary', label: planSummary(report), tooltip: summaryTooltip(plan) }];
  const section = (s: PlanSection, label: string, children: PlanRow[]) => {
    if (children.length) rows.push({ kind: 'section', section: s, label, children });
  };
  section(
    'files',
    plan.changes.length === 1 ? 'File that changes' : 'Files that change',
    plan.changes.map((c) => ({
      kind: 'file',
      file: c.file,
      label: planFileLabel(c),
      description:
        c.after === undefined ? 'removed' : c.before === undefined ? `new, ${plural(c.added, 'line')}` : `+${plural(c.added, 'line')}`,
    })),
  );
  section('items', 'Items (untick to leave one out)', itemRows(plan));
  section('held', 'Held for your review', heldRows(plan));
  const problems = report.conversations.flatMap((c) => {
    const problem = conversationProblem(c);
    return problem ? [problemRow(c, problem)] : [];
  });
  section('problems', problems.length === 1 ? 'Conversation not distilled' : 'Conversations not distilled', problems);
  return rows;
}
