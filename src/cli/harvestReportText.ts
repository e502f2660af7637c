/**
 * Human-readable harvest reports: the dry-run summary (as nagent prints it), the plan as a
 * unified diff for `--preview`, and the apply summary.
 */
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { CONVERSATION_CLASSES, type HarvestPlan } from '../core/store/harvestPlan';
import type { HarvestReport } from '../core/services/harvest/runHarvest';
import { keptDuplicates, NO_TURNS } from '../core/services/harvest/classify';
import type { DefaultSources } from '../core/services/harvest/agentSources';
import type { ProviderErrorKind } from '../core/services/providers/provider';
import { ITEM_CATEGORIES, type ItemCategory, type ItemCounts } from '../core/model/categories';
import { TRANSCRIPTS_DIR } from '../core/store/transcriptFiles';
import { historyText } from './historyText';
import { hasCaps } from '../core/services/spending/budget';
import { harvestSpendingLines } from '../core/services/spending/spendingText';
import { formatBytes, formatTokens, humanTime, itemCountsText, printable, printablePath } from '../core/model/format';
import { heldText } from '../core/model/reviewFile';

function counts(record: Record<string, number>, keys: readonly string[], skipZero = false): string {
  return keys
    .filter((k) => !skipZero || record[k] > 0)
    .map((k) => `${k}:${record[k] ?? 0}`)
    .join(', ');
}

const ZERO_ITEMS = Object.fromEntries(ITEM_CATEGORIES.map((k) => [k, 0])) as ItemCounts;

/** How many harvest candidates the dry run names; the counts above cover the rest. */
const NAMED_CANDIDATES = 20;

/**
 * The conversations a harvest would read, by title (what was asked, or the name the tool gave
 * it) and when, then the file, where a person needs it to act (lore forget, --from).
 */
function candidateLines(report: HarvestReport, now = Date.now()): string[] {
  const candidates = report.conversations.filter((c) => c.class === 'harvest' || c.class === 'retry');
  const lines = candidates.slice(0, NAMED_CANDIDATES).map((c) => {
    const facts = [c.started ? humanTime(c.started, { now }) : '', `${formatBytes(c.renderedBytes ?? 0)} to read`].filter(Boolean);
    return `  ${c.class === 'retry' ? 'again' : 'new'}: ${printable(c.title ?? '(untitled)')} (${facts.join(', ')}): ${printablePath(c.path)}`;
  });
  if (candidates.length > NAMED_CANDIDATES) lines.push(`  … and ${candidates.length - NAMED_CANDIDATES} more`);
  return lines;
}

/** The classification summary every mode starts with; `read` says what the sources were, when not the paths typed. */
export function dryRunText(report: HarvestReport, read: SourcesRead = {}): string {
  const t = report.totals;
  const lines = [
    `store: ${printable(report.store)}`,
    `sources: ${sourcesText(report, read)}`,
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
    lines.push(`left for later (live): ${printablePath(c.path)}: ${printable(c.reason ?? '')}`);
  if (t.counts.deferred) lines.push(`deferred by --max-harvest-bytes: ${t.counts.deferred}`);
  for (const c of report.conversations.filter((c) => c.class === 'too-large')) {
    const rendered = c.renderedBytes !== undefined ? `${formatBytes(c.renderedBytes)} rendered from ` : '';
    lines.push(
      `too large to harvest (kept, never sent): ${printablePath(c.path)}: ${rendered}${formatBytes(c.bytes)} on disk (${printable(c.reason ?? '> 1 MB')})`,
    );
  }
  for (const c of report.conversations.filter((c) => c.class === 'forgotten'))
    lines.push(`skipped (${printable(c.reason ?? 'forgotten')}): ${printablePath(c.path)}`);
  for (const c of report.conversations.filter((c) => c.class === 'binary'))
    lines.push(`skipped (binary: ${printable(c.reason ?? '')}): ${printablePath(c.path)}`);
  // What --apply records as not read, the dry run says in the same words (an apply says it among its problems).
  for (const c of report.conversations.filter((c) => !c.status && c.class === 'unrecognized'))
    lines.push(`not read (kept, never sent): ${printablePath(c.path)}: ${printable(c.reason ?? NO_TURNS)}`);
  for (const c of keptDuplicates(report.conversations))
    lines.push(`kept (same content as ${printablePath(c.sameAs!)}, which is not harvested): ${printablePath(c.path)}`);
  for (const p of report.problems) lines.push(`problem: ${printablePath(p.path)}: ${printable(p.message)}`);
  for (const w of report.warnings) lines.push(`warning: ${printable(w)}`);
  lines.push(`provider: ${report.provider}`);
  const spending = report.spending;
  // Said whenever money is in play: a model provider, a cap, or spending this month.
  if (spending && (spending.estimate || spending.run.tokens || spending.reused || spending.month.tokens || hasCaps(spending.caps)))
    for (const line of harvestSpendingLines(spending, report.mode)) lines.push(`spending: ${line}`);
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
        `ledger: ${o.sha256.slice(0, 12)} ${o.status} ${printable(o.title ?? '')}${o.title ? ' (' : ''}${printablePath(path.basename(o.path))}${o.title ? ')' : ''}${o.error ? ` (${printable(o.error)})` : ''}`,
      );
  }
  // New, immutable files of the harvest's own rendering: named, not diffed in full.
  for (const t of plan.transcripts ?? []) out.push(`keep transcript: ${printable(t.file)} (${formatBytes(Buffer.byteLength(t.text))})`);
  for (const o of plan.outcomes) if (o.reclaim) out.push(`reclaim (${o.reclaim}): ${printablePath(o.path)}`);
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
  if (plan.held.length) lines.push(`held for review in review.md: ${heldText(plan.held)}; run "lore review" to accept or reject them`);
  const byModel = plan.relations?.merged.filter((m) => m.same !== 'statement').length;
  if (byModel) lines.push(`merged into existing items (same_as): ${byModel}`);
  const same = plan.duplicates;
  if (same?.folded) lines.push(`same statement from several conversations, one line with every source: ${same.folded} merged`);
  if (same?.merged) lines.push(`same statement as an existing item, its source added: ${same.merged}`);
  if (plan.relations?.superseded.length) lines.push(`existing items marked superseded: ${plan.relations.superseded.length}`);
  const reclaimedBytes = applied.reclaimed.reduce((n, r) => n + r.bytes, 0);
  const actions = [...new Set(applied.reclaimed.map((r) => (r.action === 'delete' ? 'deleted' : 'archived')))].join(', ');
  lines.push(`reclaimed: ${applied.reclaimed.length} conversation(s), ${formatBytes(reclaimedBytes)}${actions ? ` (${actions})` : ''}`);
  for (const e of applied.reclaimErrors) lines.push(`could not reclaim ${printablePath(e.path)}: ${printable(e.message)}`);
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

/** At most this many conversations are named under a reason; --json names them all. */
const NAMED_FAILURES = 5;

/**
 * The conversations that were not distilled, once per reason (an unreachable server gives every
 * one the same): what happened, that nothing was written for them, and when they are tried again.
 * `advice` is added under the reason that stopped the run (the CLI's options to check).
 */
export function failuresText(report: HarvestReport, advice?: (kind: ProviderErrorKind) => string | undefined): string {
  const failed = report.conversations.filter((c) => c.status === 'harvest-failed');
  if (!failed.length) return '';
  const byReason = new Map<string, string[]>();
  for (const c of failed) {
    const reason = c.error || 'no reason was recorded';
    byReason.set(reason, [...(byReason.get(reason) ?? []), c.path]);
  }
  const lines: string[] = [];
  for (const [reason, files] of byReason) {
    const many = files.length > 1;
    lines.push(
      `${files.length} conversation${many ? 's were' : ' was'} not distilled: ${printable(reason).replace(/[.\s]+$/, '')}.` +
        ` Nothing was written for ${many ? 'them' : 'it'}; the next harvest tries ${many ? 'them' : 'it'} again.`,
    );
    const extra = report.stoppedBy?.message === reason ? advice?.(report.stoppedBy.kind) : undefined;
    if (extra) lines.push(extra);
    for (const file of files.slice(0, NAMED_FAILURES)) lines.push(`  ${printablePath(file)}`);
    if (files.length > NAMED_FAILURES) lines.push(`  and ${files.length - NAMED_FAILURES} more (--json lists them)`);
  }
  return lines.join('\n');
}

/** What the sources of a run were, when they are not the paths typed: the defaults, or typed folders with other projects left out. */
export interface SourcesRead {
  /** The default sources (no --from). */
  defaults?: DefaultSources;
  /** The --from paths as typed, when some held other projects' sessions. */
  named?: string[];
  /** Other projects' sessions left out of the named folders. */
  leftOut?: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `this workspace's sessions: 5 Claude Code, 3 Codex CLI; the inbox: 1 file`, for the `sources:` line. */
export function sourcesText(report: HarvestReport, read: SourcesRead): string {
  const parts: string[] = [];
  if (read.defaults) {
    const { tools, inbox, queued } = read.defaults;
    const found = tools.filter((t) => t.files.length > 0);
    if (found.length) parts.push(`this workspace's sessions: ${found.map((t) => `${t.files.length} ${t.label}`).join(', ')}`);
    else if (tools.length) parts.push(`no ${tools.map((t) => t.label).join(', ')} sessions of this workspace on this machine`);
    if (queued.length) parts.push(`sessions queued by agent hooks: ${queued.length}`);
    if (inbox) parts.push(`the inbox: ${plural(report.conversations.filter((c) => c.inInbox).length, 'file')}`);
    if (!parts.length) parts.push('nothing (every source is turned off in config.json "sources")');
  } else {
    parts.push((read.named ?? report.sources).map((s) => printable(s)).join(', '));
  }
  let text = parts.join('; ');
  if (read.leftOut)
    text += `\nleft out: ${plural(read.leftOut, 'session')} of other projects in those folders (--all-projects takes them too)`;
  return text;
}

/** Where each kind of item goes, for the closing sentence. */
const ITEM_FILES: Record<ItemCategory, string> = {
  facts: 'facts.md',
  decisions: 'decisions.md',
  tasks_open: 'tasks.md',
  tasks_done: 'tasks.md',
  questions: 'questions.md',
  playbooks: 'playbooks.md',
  files: 'files/',
};

/**
 * The sentence an apply ends with: what was written, where, and whether the digest agents get
 * changed (and if not, why: done tasks, notes on files and held items are not in it).
 */
export function writtenText(report: HarvestReport, workspace: string): string {
  const plan = report.plan!;
  const applied = report.applied!;
  const rel = path.relative(workspace, report.store);
  const where = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : report.store;
  const at = (file: string) => printable(path.join(where, file));
  // Notes on files not in the workspace went to facts.md (plan.orphanNotes), not to files/.
  const counts: ItemCounts = { ...plan.items, files: Math.max(0, plan.items.files - plan.orphanNotes) };
  const parts = ITEM_CATEGORIES.filter((k) => counts[k] > 0).map(
    (k) => `${itemCountsText({ ...ZERO_ITEMS, [k]: counts[k] })} to ${at(ITEM_FILES[k])}`,
  );
  if (plan.orphanNotes) parts.push(`${plural(plan.orphanNotes, 'note')} on files not in the workspace to ${at('facts.md')}`);
  const total = ITEM_CATEGORIES.reduce((n, k) => n + counts[k], 0) + plan.orphanNotes;
  const items = total ? `Wrote ${plural(total, 'item')}: ${parts.join(', ')}` : 'No new items';
  const held = plan.held.length
    ? ` (${plan.held.length} held in ${at('review.md')} until you accept ${plan.held.length === 1 ? 'it' : 'them'})`
    : '';
  if (!total && !applied.written.includes('digest.md')) return 'No new items were written.';
  let digest: string;
  if (applied.written.includes('digest.md'))
    digest = !plan.digestEnabled
      ? 'the digest is turned off and was removed'
      : plan.changes.some((c) => c.file === 'digest.md' && c.after === undefined)
        ? 'the digest has no items to show, so it was removed'
        : `the digest your agents get was updated (${at('digest.md')})`;
  else if (!plan.digestEnabled) digest = 'the digest is turned off in config.json';
  else
    digest = `the digest your agents get did not change (it lists open tasks, questions, decisions, facts and playbooks; not done tasks, notes on files or held items)`;
  return `${items}${held}; ${digest}.`;
}
