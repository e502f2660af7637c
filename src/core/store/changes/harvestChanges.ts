/**
 * The history entries of an applied harvest: the transcripts it kept (`conversation:`, committed
 * first and on their own, as the Autopoiesis spec's two cadences have it) and the knowledge it
 * extracted (`extract:`), whose body names each conversation and its transcript. An apply that
 * extracted nothing but recorded conversations in the ledger is `maintenance:`.
 */
import { countItems, emptyItems, ITEM_CATEGORIES, type ItemCounts } from '../../model/categories';
import type { HarvestPlan } from '../harvestPlan';
import type { ApplyResult } from './applyPlan';
import { conversationLine, describeCounts, type StoreChange } from '../history/commitMessage';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The changes to record for an applied plan (none when it wrote nothing). */
export function harvestChanges(plan: HarvestPlan, applied: ApplyResult): StoreChange[] {
  if (applied.written.length === 0 && applied.reclaimed.length === 0) return [];
  const transcriptOf = new Map((plan.transcripts ?? []).map((t) => [t.sha256, t.file]));
  const harvested = plan.outcomes.filter((o) => o.status === 'harvested');
  const recorded = plan.outcomes.filter((o) => o.status && o.status !== 'harvested');
  const names = harvested.map((o) => conversationLine(o.id ?? o.sha256.slice(0, 12), transcriptOf.get(o.sha256)));
  const changes: StoreChange[] = [];
  const kept = (plan.transcripts ?? []).map((t) => t.file).filter((f) => applied.written.includes(f));
  if (kept.length) {
    const ids = plan.outcomes.filter((o) => transcriptOf.has(o.sha256) && kept.includes(transcriptOf.get(o.sha256)!));
    changes.push({
      type: 'conversation',
      subject: kept.length === 1 ? `${ids[0]?.id ?? 'transcript'} kept` : `${plural(kept.length, 'transcript')} kept`,
      body: ids.map((o) => conversationLine(o.id ?? o.sha256.slice(0, 12), transcriptOf.get(o.sha256))),
      paths: kept,
    });
  }
  const total = ITEM_CATEGORIES.reduce((n, c) => n + plan.items[c], 0);
  if (total > 0 || plan.held.length > 0) {
    const counts: ItemCounts = plan.items ?? countItems(emptyItems());
    const held = plan.held.length ? [`${plural(plan.held.length, 'item')} held for review`] : [];
    changes.push({
      type: 'extract',
      subject: `${plural(total, 'item')} from ${plural(harvested.length, 'conversation')}`,
      body: [...[describeCounts(counts)].filter(Boolean), ...held, ...names],
    });
  } else if (harvested.length || recorded.length || applied.reclaimed.length) {
    changes.push({
      type: 'maintenance',
      subject: `ledger: ${plural(harvested.length + recorded.length, 'conversation')} recorded, nothing new learned`,
      body: names,
    });
  }
  return changes;
}
