/**
 * Human-readable harvest reports: the dry-run summary (as nagent prints it), the plan as a
 * unified diff for `--preview`, and the apply summary.
 */
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { CONVERSATION_CLASSES, type HarvestPlan } from '../core/store/harvestPlan';
import type { HarvestReport } from '../core/services/harvest/runHarvest';
import { TRANSCRIPTS_DIR } from '../core/store/transcriptFiles';
import { historyText } from './historyText';
import { formatBytes, formatTokens, humanTime, itemCountsText, printable } from '../core/model/format';

function counts(record: Record<string, number>, keys: readonly string[], skipZero = false): string {
  return keys
    .filter((k) => !skipZero || record[k] > 0)
    .map((k) => `${k}:${record[k] ?? 0}`)
    .join(', ');
}

/** How many harvest candidates the dry run names; the counts above cover the rest. */
const NAMED_CANDIDATES = 20;

/**
 * The conversations a harvest would read, by title (what was asked, or the name the tool gave
 * it) and when, then the file, where a person needs it to act (lore forget, --from).
 */
function candidateLines(report: HarvestReport, now = Date.now()): string[] {
  const candidates = report.conversations.filter((c) => (c.class === 'harvest' || c.class === 'retry') && c.unrecognized === undefined);
  const lines = candidates.slice(0, NAMED_CANDIDATES).map((c) => {
    const facts = [c.started ? humanTime(c.started, { now }) : '', `${formatBytes(c.renderedBytes ?? 0)} to read`].filter(Boolean);
    return `  ${c.class === 'retry' ? 'again' : 'new'}: ${printable(c.title ?? '(untitled)')} (${facts.join(', ')}): ${printable(c.path)}`;
  });
  if (candidates.length > NAMED_CANDIDATES) lines.push(`  … and ${candidates.length - NAMED_CANDIDATES} more`);
  return lines;
}

/** The classification summary every mode starts with. */
export function dryRunText(report: HarvestReport): string {
  const t = report.totals;
  const lines = [
    `store: ${printable(report.store)}`,
    `sources: ${report.sources.map((s) => printable(s)).join(', ')}`,
    `conversations: ${counts(t.counts, CONVERSATION_CLASSES, true) || 'none found'}`,
    `harvest candidates: ${formatBytes(t.harvestBytes)} rendered from ${formatBytes(t.harvestRawBytes)} on disk` +
      ` (~${formatTokens(t.estimatedTokens)} input tokens, estimated as rendered bytes/4)` +
      (t.overSummarizeThreshold ? `; ${t.overSummarizeThreshold} over 64 KB rendered will be summarized first` : ''),
    ...candidateLines(report),
  ];
  if (t.reclaimable) lines.push(`reclaimable now (already harvested): ${t.reclaimable} (${formatBytes(t.reclaimableBytes)})`);
  if (t.counts.live)
    lines.push(`live (agent still writing, modified in the last minutes): ${t.counts.live}; they are left for a later run`);
  for (const c of report.conversations.filter((c) => c.class === 'live'))
    lines.push(`left for later (live): ${printable(c.path)}: ${printable(c.reason ?? '')}`);
  if (t.counts.deferred) lines.push(`deferred by --max-harvest-bytes: ${t.counts.deferred}`);
  for (const c of report.conversations.filter((c) => c.class === 'too-large')) {
    const rendered = c.renderedBytes !== undefined ? `${formatBytes(c.renderedBytes)} rendered from ` : '';
    lines.push(
      `too large to harvest (kept, never sent): ${printable(c.path)}: ${rendered}${formatBytes(c.bytes)} on disk (${printable(c.reason ?? '> 1 MB')})`,
    );
  }
  for (const c of report.conversations.filter((c) => c.class === 'forgotten'))
    lines.push(`skipped (${printable(c.reason ?? 'forgotten')}): ${printable(c.path)}`);
  for (const c of report.conversations.filter((c) => c.class === 'binary'))
    lines.push(`skipped (binary: ${printable(c.reason ?? '')}): ${printable(c.path)}`);
  // The ledger remembers what an earlier run could not read; the dry run's own import finds the new ones.
  for (const c of report.conversations.filter((c) => !c.status && c.ledger?.status === 'unrecognized')) {
    lines.push(
      `not read last time (kept; read again by --preview/--apply): ${printable(c.path)}: ${printable(c.ledger!.error ?? 'no conversation turns')}`,
    );
  }
  for (const c of report.conversations.filter((c) => !c.status && c.unrecognized !== undefined && c.ledger?.status !== 'unrecognized')) {
    lines.push(`no conversation turns (kept, never sent): ${printable(c.path)}: ${printable(c.unrecognized!)}`);
  }
  for (const p of report.problems) lines.push(`problem: ${printable(p.path)}: ${printable(p.message)}`);
  for (const w of report.warnings) lines.push(`warning: ${printable(w)}`);
  lines.push(`provider: ${report.provider}`);
  return lines.join('\n');
}

function diffHeader(file: string, exists: boolean): string {
  return exists ? `a/${file}` : '/dev/null';
}

/** The plan as unified diffs, one per changed file, plus the ledger and reclaim summary. */
export function planText(plan: HarvestPlan): string {
  const out: string[] = [];
  for (const change of plan.changes) {
    const patch = createTwoFilesPatch(
      diffHeader(change.file, change.before !== undefined),
      change.after === undefined ? '/dev/null' : `b/${change.file}`,
      change.before ?? '',
      change.after ?? '',
      undefined,
      undefined,
      { context: 3 },
    );
    // Drop the `Index:`/`===` preamble; keep a git-style header.
    out.push(
      patch
        .split('\n')
        .filter((l) => !l.startsWith('Index: ') && !/^=+$/.test(l))
        .join('\n')
        .trimEnd(),
    );
  }
  for (const o of plan.outcomes) {
    if (o.status)
      out.push(
        `ledger: ${o.sha256.slice(0, 12)} ${o.status} ${printable(o.title ? `${o.title} (${path.basename(o.path)})` : path.basename(o.path))}${o.error ? ` (${printable(o.error)})` : ''}`,
      );
  }
  // New, immutable files of the harvest's own rendering: named, not diffed in full.
  for (const t of plan.transcripts ?? []) out.push(`keep transcript: ${printable(t.file)} (${formatBytes(Buffer.byteLength(t.text))})`);
  for (const o of plan.outcomes) if (o.reclaim) out.push(`reclaim (${o.reclaim}): ${printable(o.path)}`);
  out.push(...relationLines(plan));
  if (plan.duplicates?.folded)
    out.push(`same statement from several conversations: ${plan.duplicates.folded} line(s) folded into one line with every source`);
  return out.join('\n');
}

/** The model's same_as and supersedes, one line each. */
function relationLines(plan: NonNullable<HarvestReport['plan']>): string[] {
  const r = plan.relations;
  if (!r) return [];
  return [
    ...r.merged.map(
      (m) =>
        `same ${m.same === 'statement' ? 'statement ' : ''}as ${m.id} (${printable(m.file)}): ${printable(m.source)} added to its sources, not written again: ${printable(m.line)}`,
    ),
    ...r.superseded.map((x) => `supersede ${x.id} (${printable(x.file)}) by ${x.by}: ${printable(x.line)}`),
  ];
}

/** What an apply did. */
export function applyText(report: HarvestReport): string {
  const lines: string[] = [];
  const plan = report.plan!;
  const applied = report.applied!;
  lines.push(`harvested items: ${itemCountsText(plan.items)}`);
  if (plan.orphanNotes) lines.push(`notes for files not in the workspace went to facts.md: ${plan.orphanNotes}`);
  if (plan.held.length)
    lines.push(
      `held for review (they read as instructions to an agent): ${plan.held.length} item(s) in review.md; run "lore review" to accept or reject them`,
    );
  const byModel = plan.relations?.merged.filter((m) => m.same !== 'statement').length;
  if (byModel) lines.push(`merged into existing items (same_as): ${byModel}`);
  const same = plan.duplicates;
  if (same?.folded) lines.push(`same statement from several conversations, one line with every source: ${same.folded} merged`);
  if (same?.merged) lines.push(`same statement as an existing item, its source added: ${same.merged}`);
  if (plan.relations?.superseded.length) lines.push(`existing items marked superseded: ${plan.relations.superseded.length}`);
  const reclaimedBytes = applied.reclaimed.reduce((n, r) => n + r.bytes, 0);
  const actions = [...new Set(applied.reclaimed.map((r) => (r.action === 'delete' ? 'deleted' : 'archived')))].join(', ');
  lines.push(`reclaimed: ${applied.reclaimed.length} conversation(s), ${formatBytes(reclaimedBytes)}${actions ? ` (${actions})` : ''}`);
  for (const e of applied.reclaimErrors) lines.push(`could not reclaim ${printable(e.path)}: ${printable(e.message)}`);
  // A harvest can keep hundreds of transcripts: counted, not listed (--json and the ledger name them).
  const transcripts = applied.written.filter((w) => w.startsWith(`${TRANSCRIPTS_DIR}/`)).length;
  const files = applied.written.filter((w) => !w.startsWith(`${TRANSCRIPTS_DIR}/`)).map((w) => printable(w));
  if (transcripts) files.unshift(`${transcripts} transcript${transcripts === 1 ? '' : 's'} in ${TRANSCRIPTS_DIR}/`);
  lines.push(`written: ${files.join(', ') || 'nothing'}`);
  const history = historyText(report.history);
  if (history) lines.push(history);
  return lines.join('\n');
}

/** Why a saved or pending preview was not applied, and what to do. */
export function staleText(reasons: readonly string[]): string {
  return [
    'the preview is out of date; nothing was written:',
    ...reasons.map((r) => `  ${printable(r)}`),
    'run lore harvest --preview again (replies already distilled are reused, not paid for twice)',
  ].join('\n');
}

export function failuresText(report: HarvestReport): string {
  const failed = report.conversations.filter((c) => c.status === 'harvest-failed');
  if (!failed.length) return '';
  return [
    `failed: ${failed.length} (kept; the next run tries again)`,
    ...failed.map((c) => `  ${printable(c.path)}: ${printable(c.error ?? '')}`),
  ].join('\n');
}
