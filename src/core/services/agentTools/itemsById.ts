/**
 * Items in full by their ids (the `search` tool's `ids`): each item's whole line, where it is
 * written, its status, what waits for review about it, and, when the store keeps a git history,
 * who added it and when it was learned. One reply item per item found, each with the line the
 * other replies give (agentItemLine) and the history lines under it; ids not found are warnings.
 *
 * What no person reviewed stays out: an item held for review is named, its text withheld, and
 * an agent's write waiting in review.md is only said to wait (its id), never quoted.
 */
import * as path from 'node:path';
import { agentItemLine } from '../../model/agentItemLine';
import { categoryOfKind } from '../../model/itemKinds';
import { stripProvenance } from '../../model/provenance';
import { frameAsData } from '../../model/safety/dataFraming';
import { withoutBullet } from '../../model/itemLines';
import { addedByText } from '../../store/history/lineAuthors';
import { learnedSummary, type LearnedSummary } from '../../store/items/itemHistory';
import type { ItemHistoryMemo } from '../../store/items/itemHistoryCache';
import { readItem, type ItemReport } from '../../store/items/itemReport';
import type { StorePaths } from '../../store/storePaths';
import type { ToolResult } from './agentTool';
import { listReply, type ReplyItem } from './toolReply';

/** The reply for `ids`; `histories` remembers items' git histories between calls. */
export async function itemsByIdReply(
  paths: StorePaths,
  ids: string[],
  histories: ItemHistoryMemo,
  maxTokens?: number,
): Promise<ToolResult> {
  const items: ReplyItem[] = [];
  const details = new Map<ReplyItem, string[]>();
  const warnings: string[] = [];
  for (const id of [...new Set(ids.map((i) => i.toLowerCase()))]) {
    const report = readItem(paths, id);
    if (!report.found) {
      warnings.push(`no item ${id} in this store (an item whose text changed has a new id)`);
      continue;
    }
    if (report.status === 'held' || report.status === 'pending') {
      warnings.push(
        report.status === 'held'
          ? `item ${report.id} is held for a person's review (it reads as an instruction to an agent): not shown`
          : `item ${report.id} is pending: an agent's write waiting for a person's review, not shown until accepted`,
      );
      continue;
    }
    const item = itemOf(report);
    const history =
      report.lineNumber !== undefined && report.file
        ? await histories.get(paths, report.id, path.join(paths.root, report.file))
        : undefined;
    details.set(item, historyLines(report, history ? learnedSummary(history) : undefined));
    items.push(item);
  }
  return listReply({
    items,
    line: (item) => [agentItemLine(item), ...(details.get(item) ?? []).map((l) => `  ${l}`)].join('\n'),
    empty: frameAsData('no such items'),
    more: 'pass a larger max_tokens, or fewer ids',
    warnings,
    extra: {},
    maxTokens,
  });
}

/** An item as the other replies show it, its whole text (not cut). */
function itemOf(report: ItemReport): ReplyItem {
  return {
    id: report.id,
    category: report.kind ? categoryOfKind(report.kind) : 'facts',
    text: stripProvenance(withoutBullet(report.line ?? '')).trim(),
    source: report.provenance?.source,
    date: report.provenance?.date,
    file: report.file ?? '',
    line: report.lineNumber,
    path: report.notedPath,
    status: report.status === 'superseded' ? 'superseded' : 'current',
    supersededBy: report.supersededBy,
  };
}

/** What the text says under an item: its other places, pending changes (not quoted), who added it and when. */
function historyLines(report: ItemReport, summary: LearnedSummary | undefined): string[] {
  const lines: string[] = [];
  if (report.layer === 'personal') lines.push("in the user's personal layer, not shared with the team");
  if ((report.places?.length ?? 0) > 1)
    lines.push(
      `also in: ${report
        .places!.slice(1)
        .map((p) => `${p.file}:${p.line}`)
        .join(', ')}`,
    );
  for (const p of report.pending ?? []) lines.push(`pending ${p.op}${p.newId ? ` (new item ${p.newId})` : ''} waits for a person's review`);
  if (summary?.added) lines.push(addedByText({ author: summary.added.author, date: summary.added.date }));
  if (summary) lines.push(describeLearned(summary));
  return lines;
}

/** One line: when the item was learned, the way the hover says it. */
function describeLearned(summary: LearnedSummary): string {
  if (!summary.added) return 'learned: not committed yet';
  const from = summary.conversation ? ` from conversation ${summary.conversation}` : '';
  const since = summary.lastChange
    ? `; changed ${summary.changes} time${summary.changes === 1 ? '' : 's'} since, last ${summary.lastChange.date.slice(0, 10)}`
    : '';
  return `learned ${summary.added.date.slice(0, 10)}${from} — ${summary.added.subject} (${summary.added.commit.slice(0, 7)})${since}${summary.uncommitted ? '; changed since, not committed yet' : ''}`;
}
