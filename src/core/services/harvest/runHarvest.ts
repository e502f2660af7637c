/**
 * The harvest, end to end: scan → classify → (dry run stops here) → distill → plan →
 * (preview stops here) → apply under the store lock. The CLI and the extension both call this.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { Conversation } from '../../model/conversation';
import { importConversation } from '../conversations/detect';
import { countItems } from '../../model/categories';
import { isCalendarDate, toIsoDate, type Provenance } from '../../model/provenance';
import { heldWarning } from '../../store/items/reviewQueue';
import { ProviderError, type Provider, type ProviderErrorKind } from '../providers/provider';
import { settleQueue } from '../../store/captureQueue';
import { inboxSources } from './agentSources';
import { redactSecrets } from '../../model/safety/redact';
import { readLedger } from '../../store/ledger';
import { checkStoreEntries, isStoreFault } from '../../store/storeErrors';
import { storeConfigForWrite, storePrivateMarkers } from '../../store/storeConfig';
import { type ReclaimMode } from '../../model/storeConfigFormat';
import type { PrivateMarkers } from '../../model/safety/privateSpans';
import type { StoreLock } from '../../base/storeLock';
import type { StorePaths } from '../../store/storePaths';
import { printable } from '../../model/format';
import { harvestChanges } from '../../store/changes/harvestChanges';
import { recordStoreChange, type HistoryOutcome } from '../../store/history/storeHistory';
import { applyPlan, lockStoreForApply, type ApplyResult } from '../../store/changes/applyPlan';
import { classifyConversations, dryRunTotals, NO_TURNS, type DryRunTotals } from './classify';
import { type ClassifiedConversation, type ConversationOutcome, type DistilledInput, type HarvestPlan } from '../../store/harvestPlan';
import { distillConversation } from './distill';
import { existingItemsBlock, loadExistingItems, relevantItems, type ExistingItem } from './existingItems';
import { TOO_MANY_ITEMS } from './parseReply';
import { buildIsolatedPlan } from './isolatedPlan';
import { KnownFiles } from './knownFiles';
import { MeasuredFiles } from './measuredFiles';
import { DEFAULT_LIVE_WINDOW_MS } from './liveWindow';
import { fileSha256 } from './previewStaleness';
import { HARVEST_PROMPT, SUMMARIZE_PROMPT, loadPrompt } from './prompts';
import { dropReplyMemos, readReplyMemo, replyMemoKey, writeReplyMemo } from './replyCache';
import { scanSources } from '../discovery/scanSources';
import { planTranscripts, renderForStore, type RenderedTranscript } from './transcriptPlan';
import { HarvestBudget, type HarvestSpending, type SpendingOptions } from '../spending/harvestSpending';
import { pushAll } from '../../base/bulkArrays';
import { readStoreFile } from '../../base/readText';

export type HarvestMode = 'dry-run' | 'preview' | 'apply';

export interface HarvestOptions {
  paths: StorePaths;
  /** Files or folders to read; none when empty (default: the store's inbox and the sessions hooks queued; agentSources.ts). */
  sources?: string[];
  mode: HarvestMode;
  /** Record `deleted-unharvested` and reclaim without calling a model. */
  noHarvest?: boolean;
  provider: Provider;
  model?: string;
  timeoutMs?: number;
  maxHarvestBytes?: number;
  /** Agent session logs outside the inbox modified within this window are `live` (default 5 min). */
  liveWindowMs?: number;
  /** Defaults to the store's config.json, then `delete`. */
  reclaim?: ReclaimMode;
  /** A marker pair around private text besides `<private>` and config.json's (the VS Code setting). */
  privateMarkers?: PrivateMarkers;
  /** Keep rendered transcripts in transcripts/ (default: config.json's `transcripts`, then true). */
  transcripts?: boolean;
  digestEnabled?: boolean;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  now?: Date;
  lockTimeoutMs?: number;
  /** Spending caps besides config.json's (VS Code's settings), and where the run came from (spendingLog.ts). */
  spending?: SpendingOptions;
  /** The person's home folder, written `~` in what a model provider is sent (default: this process's). */
  home?: string;
}

export interface HarvestReport {
  mode: HarvestMode;
  store: string;
  provider: string;
  sources: string[];
  conversations: ConversationOutcome[];
  totals: DryRunTotals;
  plan?: HarvestPlan;
  applied?: ApplyResult;
  /** Why a previewed plan was not applied (it no longer matches its sources or the ledger). */
  stale?: string[];
  /** What the store's git history did after the apply (undefined: history is off or there is no repository). */
  history?: HistoryOutcome;
  problems: Array<{ path: string; message: string }>;
  warnings: string[];
  failed: number;
  /** The provider error after which no more conversations were sent (unreachable, or refused the key). */
  stoppedBy?: { kind: ProviderErrorKind; message: string };
  modelCalls: number;
  cancelled: boolean;
  /** What the run spent and may spend (harvestSpending.ts); absent when the store could not be read. */
  spending?: HarvestSpending;
}

// Defined with the words that explain it; callers of the harvest import it from here too.
export { DEFAULT_LIVE_WINDOW_MS };

function provenanceFor(conversation: Conversation, item: ClassifiedConversation): Provenance {
  const started = conversation.startedAt?.slice(0, 10);
  const date = started && isCalendarDate(started) ? started : toIsoDate(new Date(item.mtimeMs || Date.now()));
  return { source: conversation.id, date };
}

/** Errors after which calling the provider again for the next conversation is pointless. */
function isFatalForRun(error: unknown): boolean {
  return error instanceof ProviderError && (error.kind === 'unavailable' || error.kind === 'auth');
}

function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(message).slice(0, 500);
}

export async function runHarvest(options: HarvestOptions): Promise<HarvestReport> {
  const { paths } = options;
  const now = options.now ?? new Date();
  const { config, warning } = storeConfigForWrite(paths.config);
  const reclaim = options.reclaim ?? config.reclaim;
  const digestEnabled = options.digestEnabled ?? config.digestEnabled;
  const keepTranscripts = options.transcripts ?? config.transcripts;
  const privateMarkers = storePrivateMarkers(paths.config, options.privateMarkers);
  // By default: the inbox, and the sessions agent hooks queued where their tools keep them.
  const sources = options.sources ?? inboxSources(paths);
  const report: HarvestReport = {
    mode: options.mode,
    store: paths.root,
    provider: options.provider.label,
    sources,
    conversations: [],
    totals: dryRunTotals([]),
    problems: [],
    warnings: warning ? [warning] : [],
    failed: 0,
    modelCalls: 0,
    cancelled: false,
  };

  let lock: StoreLock | undefined;
  if (options.mode === 'apply') lock = await lockStoreForApply(paths, options.lockTimeoutMs);
  try {
    // A folder where facts.md or ledger.json should be stops here, named, before anything is written.
    checkStoreEntries(paths);
    // Under the lock the ledger read here is the one the plan merges into; its hash lets a later
    // apply of this plan (a preview's) see whether it still is. Hashed before it is read, so a
    // write in between makes the preview look stale rather than current.
    const ledgerSha256 = fileSha256(paths.ledger);
    const ledger = readLedger(paths.ledger);
    const scan = scanSources(paths, sources);
    pushAll(report.problems, scan.problems);
    const conversations = new Map<string, Conversation>();
    const knownFiles = KnownFiles.open(paths);
    // A dry run reuses what earlier dry runs learned, and records what it learns.
    const measuredFiles = options.mode === 'dry-run' ? MeasuredFiles.open(paths, privateMarkers) : undefined;
    const readAt = Date.now(); // The real clock: compared with the files' ctime, not a report date.
    const classified = classifyConversations(scan.files, ledger, {
      knownFiles,
      measuredFiles,
      privateMarkers,
      conversations: options.mode === 'dry-run' ? undefined : conversations,
      maxHarvestBytes: options.maxHarvestBytes,
      now: now.getTime(),
      liveWindowMs: options.liveWindowMs ?? DEFAULT_LIVE_WINDOW_MS,
    });
    report.conversations = classified.map((c) => ({ ...c }));
    report.totals = dryRunTotals(classified);
    for (const c of classified) if (c.class === 'unreadable') report.problems.push({ path: c.path, message: c.reason ?? 'unreadable' });
    const harvestPrompt = loadPrompt(paths, HARVEST_PROMPT).text;
    const summarizePrompt = loadPrompt(paths, SUMMARIZE_PROMPT).text;
    // Every model call goes through the budget's provider: counted, and refused past a cap.
    const budget = new HarvestBudget(paths, options.provider, config.budget, {
      ...options.spending,
      model: options.model,
      now,
      // Each call is logged when it ends; a run given its date (a test's) logs on that day.
      ...(options.now ? {} : { clock: () => new Date() }),
      prompts: { harvest: Buffer.byteLength(harvestPrompt), summarize: Buffer.byteLength(summarizePrompt) },
    });
    const provider = budget.provider;
    if (measuredFiles) {
      const unsaved = measuredFiles.save();
      if (unsaved) report.warnings.push(unsaved);
      const sizes = classified.filter((c) => c.class === 'harvest' || c.class === 'retry').map((c) => c.renderedBytes ?? 0);
      report.spending = budget.finish(budget.estimate(sizes));
      return report;
    }

    const distilled: DistilledInput[] = [];
    /** The reply cache entry each conversation used (see the plan below). */
    const replyKeys = new Map<ConversationOutcome, string>();
    // By raw sha256: rendered when the conversation is at hand, planned once the plan says what is kept.
    const transcripts = new Map<string, RenderedTranscript>();
    const keepTranscript = (outcome: ConversationOutcome, conversation: Conversation | undefined) => {
      if (keepTranscripts && conversation?.turns.length)
        transcripts.set(outcome.sha256, renderForStore(conversation, outcome.sha256, outcome.mtimeMs));
    };
    const candidates = report.conversations.filter((c) => c.class === 'harvest' || c.class === 'retry');
    /** Nothing to distill: never sent to a model, never recorded as harvested, never reclaimed. */
    const notRead = (outcome: ConversationOutcome, why: string | undefined) => {
      outcome.status = 'unrecognized';
      outcome.error = why ?? NO_TURNS;
      report.problems.push({ path: outcome.path, message: `not harvested, kept: ${outcome.error}` });
    };
    let fatal: string | undefined;
    let index = 0;
    let storeItems: ExistingItem[] | undefined; // Read once, when a model is first asked.
    for (const outcome of report.conversations) {
      if (outcome.class === 'too-large' && !outcome.ledger) outcome.status = 'too-large';
      if (outcome.class === 'unrecognized') notRead(outcome, outcome.reason);
      if (outcome.class !== 'harvest' && outcome.class !== 'retry') continue;
      index++;
      if (options.noHarvest) {
        outcome.status = 'deleted-unharvested';
        keepTranscript(outcome, conversations.get(outcome.path));
        continue;
      }
      if (options.signal?.aborted) {
        report.cancelled = true;
        break;
      }
      if (fatal) {
        outcome.status = 'harvest-failed';
        outcome.error = fatal;
        continue;
      }
      const label = printable(redactSecrets(path.relative(process.cwd(), outcome.path) || outcome.path));
      // The size the model reads (the rendered transcript), not the file's.
      options.onProgress?.(
        `distilling ${index}/${candidates.length}: ${label} (${Math.ceil((outcome.renderedBytes ?? outcome.bytes) / 1024)} KB)`,
      );
      try {
        // Imported when classified, from the bytes whose sha256 the ledger records; released once used.
        const conversation =
          conversations.get(outcome.path) ?? importConversation(outcome.path, readStoreFile(outcome.path, 'utf8'), { privateMarkers });
        conversations.delete(outcome.path);
        if (conversation.turns.length === 0) {
          notRead(outcome, conversation.unrecognized); // the file changed since it was classified
          continue;
        }
        outcome.id = conversation.id;
        // The label names the model and endpoint too, so switching models never reuses another model's reply.
        const key = replyMemoKey(outcome.sha256, provider.label, options.model, harvestPrompt, privateMarkers);
        replyKeys.set(outcome, key);
        let cached = provider.offline ? undefined : readReplyMemo(paths, key);
        if (cached) {
          outcome.calls = 0;
          budget.reused();
        } else if (!budget.admit(outcome.renderedBytes ?? outcome.bytes)) {
          // Past a cap: left as it is, for a later harvest (no ledger status, nothing spent).
          options.onProgress?.(`left for a later harvest (spending cap): ${label}`);
          continue;
        } else {
          // A model is shown the store's items that bear on the conversation (same_as, supersedes);
          // the offline extractor reads only the conversation.
          const existingItems = provider.offline
            ? undefined
            : (input: string) => existingItemsBlock(relevantItems((storeItems ??= loadExistingItems(paths)), input));
          const result = await distillConversation(conversation, {
            provider,
            harvestPrompt,
            summarizePrompt,
            model: options.model,
            timeoutMs: options.timeoutMs,
            signal: options.signal,
            existingItems,
            localPaths: provider.offline ? undefined : { home: options.home ?? os.homedir(), workspace: paths.workspace },
          });
          outcome.calls = result.calls;
          report.modelCalls += result.calls;
          // The rest of the reply is kept; the user hears which items were not and why.
          if (result.dropped > 0) report.warnings.push(droppedItemsWarning(label, result.dropped, result.problems));
          cached = { items: result.items, summarized: result.summarized, id: conversation.id, at: now.toISOString() };
          if (!provider.offline) writeReplyMemo(paths, key, cached);
        }
        outcome.summarized = cached.summarized;
        outcome.items = countItems(cached.items);
        outcome.status = 'harvested';
        keepTranscript(outcome, conversation);
        distilled.push({ outcome, items: cached.items, provenance: provenanceFor(conversation, outcome), cwd: conversation.cwd });
      } catch (error) {
        if (options.signal?.aborted || (error instanceof ProviderError && error.kind === 'cancelled')) {
          report.cancelled = true;
          break;
        }
        outcome.status = 'harvest-failed';
        outcome.error = errorMessage(error);
        if (isFatalForRun(error)) {
          fatal = outcome.error;
          report.stoppedBy = { kind: (error as ProviderError).kind, message: fatal };
        }
      }
    }
    report.failed = report.conversations.filter((c) => c.status === 'harvest-failed').length;
    // Recorded whatever happens next: the calls were paid for even if no plan comes of them.
    report.spending = budget.finish();
    if (report.spending.stop) report.warnings.push(report.spending.stop.text);
    pushAll(report.warnings, report.spending.warnings);
    // A cancelled run writes nothing: the user asked to stop, not to keep half a harvest.
    if (report.cancelled) return report;

    // Replies the plan could not be made from are not kept: cached, they would fail every later run the same way.
    const planOptions = { reclaim, digestEnabled, now, ledgerSha256 };
    try {
      // A conversation whose items cannot be planned is left for the next harvest; the others are harvested.
      report.plan = buildIsolatedPlan(paths, ledger, report.conversations, distilled, planOptions, ({ outcome }, error) => {
        outcome.status = 'harvest-failed';
        outcome.error = `its items could not be written: ${errorMessage(error)}`;
        delete outcome.items;
        transcripts.delete(outcome.sha256);
        dropReplyMemos(
          paths,
          [replyKeys.get(outcome)].filter((key): key is string => key !== undefined),
        );
      }).plan;
    } catch (error) {
      if (!isStoreFault(error)) dropReplyMemos(paths, [...replyKeys.values()]);
      throw error;
    }
    report.failed = report.conversations.filter((c) => c.status === 'harvest-failed').length;
    if (keepTranscripts) planTranscripts(paths, report.plan, transcripts, privateMarkers);
    const forgotten = report.plan.forgotten?.length;
    if (forgotten)
      report.warnings.push(
        `${forgotten === 1 ? '1 item was' : `${forgotten} items were`} left out: forgotten for good (lore forget), see the ledger's "forgotten"`,
      );
    const held = heldWarning(report.plan.held);
    if (held) report.warnings.push(held);
    if (options.mode === 'preview') return report;
    try {
      report.applied = applyPlan(paths, report.plan);
    } catch (error) {
      // A reply whose items could not be written is asked for again; a full disk or a busy file is not the reply's fault.
      if (!isStoreFault(error)) dropReplyMemos(paths, [...replyKeys.values()]);
      throw error;
    }
    settleQueue(paths, report.conversations);
    const unsaved = knownFiles.rememberProven(report.conversations, report.plan.ledger, readAt);
    if (unsaved) report.warnings.push(unsaved);
    // Still under the lock: the commit takes the store as this apply left it.
    report.history = await recordStoreChange(paths, harvestChanges(report.plan!, report.applied));
    if (report.history?.warning) report.warnings = [...report.warnings, report.history.warning];
    return report;
  } finally {
    lock?.release();
  }
}

/** One line naming the conversation, how many of the model's items were dropped, and the first reasons. */
function droppedItemsWarning(label: string, dropped: number, problems: string[]): string {
  const shown = problems.slice(0, 3).join('; ');
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
  const counted = dropped === 1 ? "1 item in the model's reply was" : `${dropped} items in the model's reply were`;
  const why = problems[0]?.startsWith(TOO_MANY_ITEMS) ? 'left out' : 'malformed and left out';
  return `${label}: ${counted} ${why} (${shown}${more})`;
}
