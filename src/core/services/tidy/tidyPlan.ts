/**
 * `lore tidy`: the store's duplicates merged and its corrected items marked superseded, as a plan
 * of the harvest's kind (plan.ts): shown before anything is written, applied by the harvest's
 * apply under the store lock (guarded atomic writes that re-apply each file's item ops on top of a
 * person's concurrent save, the digest regenerated) and undone by `lore undo` like a harvest.
 *
 * A merged-away line's id no longer names a line; an item marked superseded by it is re-pointed to
 * the line that absorbed it, so every `[superseded by …]` still leads somewhere.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { DIGEST_MAX_BYTES } from '../../model/constants';
import { CATEGORY_FILES, countItems, emptyItems, type CategoryFileKey } from '../../model/categories';
import { listItems } from '../../model/categoryFile';
import { agentItemFilter } from '../../store/heldItems';
import { lineIdentity } from '../../model/itemLines';
import { applyItemOps, type ItemOp } from '../../model/itemOps';
import { readSupersession } from '../../model/supersession';
import { toIsoDate } from '../../model/provenance';
import { applyPlan, lockStoreForApply, type ApplyResult } from '../../store/changes/applyPlan';
import type { HarvestPlan, PlanChange } from '../../store/harvestPlan';
import { fileSha256 } from '../harvest/previewStaleness';
import { readTextIfExists, readTextLossless } from '../../base/readText';
import { digestSectionsFromTexts, type CategoryTexts } from '../../store/digest';
import { renderDigest } from '../../model/digestFormat';
import { readLedger } from '../../store/ledger';
import { hasUnfinishedApply } from '../../store/undoRecord';
import { isNoteFileName } from '../../model/noteFile';
import { loadStoreConfig } from '../../store/storeConfig';
import type { StorePaths } from '../../store/storePaths';
import { listNames } from '../../base/walkTree';
import type { Provider } from '../providers/provider';
import { meteredProvider, type TaskSpendingOptions } from '../spending/meteredTask';
import { judgeItems } from './modelJudgment';
import { type Judged, addedSources, tidyItems, tidyProposals, type MergeProposal, type SupersedeProposal } from './tidyProposals';

export interface TidyOptions {
  /** The day written into supersession markers (default: today). */
  today?: Date;
  /** Only merge duplicates, or only mark supersessions (default: both). */
  merge?: boolean;
  supersede?: boolean;
  lockTimeoutMs?: number;
  /** A model to judge the items too (modelJudgment.ts); the rules provider is not one. */
  provider?: Provider;
  model?: string;
  timeoutMs?: number;
  /** How the model's calls are capped and named in the spending log (meteredTask.ts). */
  spending?: TaskSpendingOptions;
  /** The home folder hidden from the model as `~` (default: this user's). */
  home?: string;
}

export interface TidyReport {
  merges: MergeProposal[];
  supersessions: SupersedeProposal[];
  /** Items marked superseded by a line merged away, pointed at the line that absorbed it. */
  repointed: number;
  /** Lines that leave the store (merged into another). */
  removedLines: number;
  plan: HarvestPlan;
  applied?: ApplyResult;
  /** A spending record that could not be written. */
  warnings?: string[];
}

/** A model's judgment on the items of every file tidy reads. */
async function judgeStore(paths: StorePaths, provider: Provider, options: TidyOptions, warnings: string[]): Promise<Map<string, Judged>> {
  // Metered and capped request by request; item text loses the person's paths before it is sent.
  const metered = meteredProvider(paths, provider, 'tidy', "the tidy's next request", options.spending);
  const localPaths = { home: options.home ?? os.homedir(), workspace: paths.workspace };
  const judged = new Map<string, Judged>();
  try {
    for (const file of tidyFiles(paths)) {
      const text = readTextLossless(path.join(paths.root, file));
      if (text === undefined) continue;
      const items = tidyItems(text);
      if (items.length >= 2)
        judged.set(
          file,
          await judgeItems(paths, metered.provider, items, { model: options.model, timeoutMs: options.timeoutMs, localPaths }),
        );
    }
  } finally {
    warnings.push(...metered.warnings);
  }
  return judged;
}

/** Store-relative files tidy reads: the category files, then the note files by name. */
function tidyFiles(paths: StorePaths): string[] {
  const categories = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).map((k) => CATEGORY_FILES[k].file);
  const notes = listNames(paths.files)
    .filter(isNoteFileName)
    .sort()
    .map((n) => path.posix.join('files', n));
  return [...categories, ...notes];
}

/** The plan of a tidy against the store as it is now (`judged`: a model's answers per file). Reads, never writes. */
export function planTidy(paths: StorePaths, options: TidyOptions = {}, judged?: ReadonlyMap<string, Judged>): TidyReport {
  const today = toIsoDate(options.today ?? new Date());
  const texts = new Map<string, string>();
  for (const file of tidyFiles(paths)) {
    const text = readTextLossless(path.join(paths.root, file));
    if (text !== undefined) texts.set(file, text);
  }
  const merges: MergeProposal[] = [];
  const supersessions: SupersedeProposal[] = [];
  const ops = new Map<string, ItemOp[]>();
  const add = (file: string, op: ItemOp) => ops.set(file, [...(ops.get(file) ?? []), op]);
  for (const [file, text] of texts) {
    const found = tidyProposals(file, text, judged?.get(file));
    if (options.supersede !== false) supersessions.push(...found.supersessions);
    if (options.merge !== false) merges.push(...found.merges);
  }
  for (const s of supersessions) add(s.file, { op: 'supersede', old: s.old.identity, by: s.by.id, date: today });
  const absorbedBy = new Map<string, string>();
  for (const m of merges) {
    add(m.file, { op: 'merge', keep: m.keep.identity, sources: addedSources(m.drop), drop: m.drop.map((d) => d.identity) });
    for (const d of m.drop) if (d.id !== m.keep.id) absorbedBy.set(d.id, m.keep.id);
  }
  let repointed = 0;
  if (absorbedBy.size) {
    for (const [file, text] of texts) {
      for (const item of listItems(text)) {
        const marker = readSupersession(item.raw);
        const to = marker && absorbedBy.get(marker.by);
        if (!to) continue;
        add(file, { op: 'supersede', old: lineIdentity(item.raw), by: to, date: marker.date ?? today });
        repointed++;
      }
    }
  }
  const changes: PlanChange[] = [];
  const after: CategoryTexts = {};
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) after[key] = texts.get(CATEGORY_FILES[key].file);
  let removedLines = 0;
  for (const [file, fileOps] of ops) {
    const before = texts.get(file)!;
    const next = applyItemOps(before, fileOps);
    if (next === before) continue;
    removedLines += Math.max(0, before.split('\n').length - next.split('\n').length);
    changes.push({ file, before, after: next, added: 0, edit: { kind: 'items', ops: fileOps } });
    const key = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).find((k) => CATEGORY_FILES[k].file === file);
    if (key) after[key] = next;
  }
  const digestEnabled = loadStoreConfig(paths.config).config.digestEnabled;
  // After an apply killed before its digest, the digest is checked even with nothing left to tidy.
  if ((changes.length || hasUnfinishedApply(paths)) && digestEnabled) {
    const digestBefore = readTextIfExists(paths.digest);
    const digestAfter = renderDigest(digestSectionsFromTexts(after, DIGEST_MAX_BYTES, agentItemFilter(paths)));
    if (digestAfter !== digestBefore) changes.push({ file: 'digest.md', before: digestBefore, after: digestAfter, added: 0 });
  }
  const plan: HarvestPlan = {
    changes,
    ledger: readLedger(paths.ledger),
    outcomes: [],
    items: countItems(emptyItems()),
    orphanNotes: 0,
    digestEnabled,
    held: [],
    ledgerSha256: fileSha256(paths.ledger),
  };
  return { merges, supersessions, repointed, removedLines, plan };
}

/**
 * Plans the tidy and, with `apply`, writes it: planned again under the store lock (so it acts on
 * the files as they are when it writes) and applied with the harvest's apply, which keeps an undo
 * record. Returns what was planned (and applied).
 */
export async function runTidy(paths: StorePaths, options: TidyOptions & { apply?: boolean } = {}): Promise<TidyReport> {
  // The model is asked before the lock is taken (it may take a while); its answers name items by
  // id, which the plan made under the lock resolves against the files as they are then.
  const warnings: string[] = [];
  const judged = options.provider && !options.provider.offline ? await judgeStore(paths, options.provider, options, warnings) : undefined;
  const withWarnings = (report: TidyReport): TidyReport => (warnings.length ? { ...report, warnings } : report);
  if (!options.apply) return withWarnings(planTidy(paths, options, judged));
  const lock = await lockStoreForApply(paths, options.lockTimeoutMs);
  try {
    const report = withWarnings(planTidy(paths, options, judged));
    // A tidy (or harvest) killed after its writes left its undo record unfinished, and planned
    // again it finds nothing left to do: applying the empty plan finishes the record, so
    // `lore undo` can take the interrupted apply back instead of asking for it to be run again.
    if (report.plan.changes.length || hasUnfinishedApply(paths)) report.applied = applyPlan(paths, report.plan);
    return report;
  } finally {
    lock.release();
  }
}
