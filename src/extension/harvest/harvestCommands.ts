/**
 * The harvest commands: "Harvest Conversations…" (dry-run report, confirm, distill with
 * progress, show the plan), "Apply Harvest" (writes the plan shown, or says it went stale),
 * "Discard Harvest", "Review Harvest Changes", and the Ledger view's Retry. The commands take no
 * options: a command can be run from a link, so nothing there may skip the consent dialog or
 * choose where conversations are sent. The same flow without dialogs is on the exported API.
 */
import * as vscode from 'vscode';
import { DEFAULT_LIVE_WINDOW_MS, liveRuleText } from '../../core/services/harvest/liveWindow';
import type { ShownReport as HarvestReport } from '../../shared/protocol';
import { createProvider } from '../../core/services/providers/providerRegistry';
import type { Provider } from '../../core/services/providers/provider';
import { formatBytes, formatTokens, itemCountsText, reclaimText } from '../../core/model/format';
import { logger, runCommand } from '../log';
import type { DistillChoice } from '../providers/distillChoice';
import { resolveProvider } from '../providers/providerChoice';
import type { StoreService } from '../storeService';
import type { LedgerEntryNode } from '../views/ledgerTree';
import type { AgentCaches } from '../cache/agentCaches';
import type { HarvestController } from './harvestController';
import { applyWhenNoSessionIsWarm, DeferredApply } from './harvestCacheCost';
import { failedConversations, failuresSentence } from './harvestFailures';
import { dryRunConversations, planFileLabel, planWritesSomething, previewMessage } from './planTreeModel';
import { heldText, isInstructionHold } from '../../core/model/reviewFile';
import { chooseHarvestItemsCommand } from './chooseHarvestItems';
import { summarizeJournalCommand } from './summarizeJournalCommand';
import { harvestSpendingLines } from '../../core/services/spending/spendingText';
import { undoLastHarvestCommand } from './undoHarvestCommand';

const log = logger('harvest');

/** One run of the harvest flow. */
interface HarvestRequest {
  /** Use these files/folders instead of the configured sources (the Ledger view's Retry). */
  sources?: string[];
  /** No dialogs: the store is initialized, the configured provider used, the plan left pending. */
  withoutDialogs?: boolean;
  /** Open the diff of the first change (default: yes). */
  showDiff?: boolean;
}

/** The harvest flow without dialogs, as the exported API offers it (integration tests, other extensions). */
export type HarvestWithoutDialogs = (options?: { sources?: string[]; showDiff?: boolean }) => Promise<HarvestReport | undefined>;

function summary(report: HarvestReport): string {
  const c = report.totals.counts;
  const parts = [
    `${c.harvest + c.retry} to harvest (${formatBytes(report.totals.harvestBytes)}, ~${formatTokens(report.totals.estimatedTokens)} tokens)`,
  ];
  if (c.harvested + c.duplicate) parts.push(`${c.harvested + c.duplicate} already harvested`);
  if (c['too-large']) parts.push(`${c['too-large']} too long to send to a model (kept)`);
  if (c.binary) parts.push(`${c.binary} not text (skipped)`);
  if (c.live) parts.push(`${c.live} left for later because ${liveRuleText(DEFAULT_LIVE_WINDOW_MS, c.live)}`);
  if (c.deferred) parts.push(`${c.deferred} left for the next harvest`);
  return parts.join(', ');
}

/** The dry run's estimate and the month so far, for the dialog before anything is sent (nothing for the offline extractor). */
function spendingDetail(dry: HarvestReport): string {
  if (!dry.spending?.estimate) return '';
  const lines = harvestSpendingLines(dry.spending, 'dry-run');
  return `\n\n${lines.map((line) => line.charAt(0).toUpperCase() + line.slice(1)).join('.\n')}.`;
}

async function chooseProvider(
  context: vscode.ExtensionContext,
  distill: DistillChoice,
  request: HarvestRequest,
): Promise<Provider | undefined> {
  // Asked once, then remembered in settings: later harvests go straight to the dry run.
  if (!request.withoutDialogs && !distill.isChosen() && !(await distill.ask())) return undefined;
  const resolution = await resolveProvider(context.secrets);
  if (resolution.provider) return resolution.provider;
  if (request.withoutDialogs) {
    log.warn(`no provider: ${resolution.problem}`);
    return undefined;
  }
  const choice = await vscode.window.showWarningMessage(
    `Lore: ${resolution.problem}. Harvest with the offline extractor this time? It only picks up lines marked "Decision:", "TODO:" and questions.`,
    'Use Offline Extractor',
    'Choose How to Distill…',
  );
  if (choice === 'Choose How to Distill…') return (await distill.ask()) ? (await resolveProvider(context.secrets)).provider : undefined;
  return choice === 'Use Offline Extractor' ? createProvider('rules') : undefined;
}

/** Tells the user the preview went stale and offers to make it again from the same sources. */
function offerPreviewAgain(stale: readonly string[], again: () => unknown): void {
  const shown = stale.slice(0, 3).join('; ') + (stale.length > 3 ? `; and ${stale.length - 3} more` : '');
  void vscode.window
    .showWarningMessage(
      `Lore: the harvest preview is out of date, so nothing was written (${shown}). Preview again to see what a harvest would write now.`,
      'Preview Again',
    )
    .then((choice) => {
      if (choice === 'Preview Again') void again();
    });
}

/** What an apply wrote: "3 facts, 1 decision into facts.md, decisions.md". */
function appliedText(report: HarvestReport): string {
  const files = report.plan!.changes.map(planFileLabel);
  const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? ` and ${files.length - 3} more` : '');
  return files.length ? `${itemCountsText(report.plan!.items)} into ${shown}` : itemCountsText(report.plan!.items);
}

/** Nothing to apply because conversations failed: why, in words, and the two ways on. */
function offerAfterFailure(why: string): void {
  void vscode.window.showWarningMessage(`Lore: nothing was written. ${why}`, 'Choose How to Distill…', 'Show Log').then((choice) => {
    if (choice === 'Choose How to Distill…') void vscode.commands.executeCommand('lore.chooseDistiller');
    else if (choice === 'Show Log') void vscode.commands.executeCommand('lore.showLog');
  });
}

export function registerHarvestCommands(
  context: vscode.ExtensionContext,
  store: StoreService,
  harvest: HarvestController,
  distill: DistillChoice,
  agents?: AgentCaches,
): {
  disposables: vscode.Disposable[];
  harvestWithoutDialogs: HarvestWithoutDialogs;
  harvestSources: (sources: string[]) => Promise<HarvestReport | undefined>;
  deferredApply: DeferredApply;
} {
  const deferredApply = new DeferredApply(harvest, agents, () => vscode.commands.executeCommand('lore.applyHarvest'));

  const harvestConversations = (options: HarvestRequest = {}) =>
    runCommand('Harvest Conversations', async () => {
      // Harvesting is how a store begins: the person asked for it, so no separate step to make one
      // (the dry run's dialog still comes before anything is read or sent).
      if (!store.exists) await vscode.commands.executeCommand('lore.initStore', { quiet: true });
      const provider = await chooseProvider(context, distill, options);
      if (!provider) return undefined;
      const sources = options.sources ?? harvest.sources();
      const dry = await harvest.dryRun(provider, sources);
      const candidates = dry.totals.counts.harvest + dry.totals.counts.retry;
      log.info(`dry run: ${summary(dry)}`);
      if (candidates === 0 && dry.totals.reclaimable === 0) {
        if (!options.withoutDialogs) void vscode.window.showInformationMessage(`Lore: nothing to harvest. ${summary(dry)}.`);
        return dry;
      }
      if (!options.withoutDialogs) {
        const go = await vscode.window.showInformationMessage(
          `Lore harvest: ${summary(dry)}.`,
          {
            modal: true,
            detail: `${dryRunConversations(dry)}\n\nThey will be distilled with ${provider.label}. You will see every change before anything is written.${spendingDetail(dry)}`,
          },
          'Distill and Preview',
        );
        if (go !== 'Distill and Preview') return undefined;
      }
      const pending = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Lore: distilling conversations', cancellable: true },
        (progress, token) =>
          harvest.preview(provider, sources, token, (message) =>
            progress.report({ message, increment: candidates ? 100 / candidates : undefined }),
          ),
      );
      if (!pending) {
        if (!options.withoutDialogs) void vscode.window.showInformationMessage('Lore: harvest cancelled; nothing was written.');
        return undefined;
      }
      const plan = pending.report.plan!;
      const failures = failuresSentence(pending.report.conversations);
      for (const c of failedConversations(pending.report.conversations)) log.warn(`not distilled: ${c.path}: ${c.error ?? ''}`);
      if (!planWritesSomething(plan)) {
        // Failures only: no Apply, since it would write nothing; the reason and what to do instead.
        harvest.discard();
        const why = [failures.text, pending.report.spending?.stop?.text].filter(Boolean).join(' ');
        if (!options.withoutDialogs) offerAfterFailure(why || 'Nothing to keep was found.');
        return pending.report;
      }
      if (plan.changes.length && options.showDiff !== false) await harvest.showChange(plan.changes[0].file);
      if (!options.withoutDialogs) {
        // One short line and two buttons; the Harvest Plan view (shown now) has the rest and stays.
        void vscode.window.showInformationMessage(previewMessage(pending.report), 'Apply', 'Open Plan').then((choice) => {
          if (choice === 'Apply') void vscode.commands.executeCommand('lore.applyHarvest');
          else if (choice === 'Open Plan') void vscode.commands.executeCommand('lore.plan.focus');
        });
      }
      return pending.report;
    });

  const disposables = [
    deferredApply,
    vscode.commands.registerCommand('lore.applyHarvestWhenCold', () =>
      runCommand('Apply Harvest When No Session Is Warm', () => applyWhenNoSessionIsWarm(deferredApply)),
    ),
    // Arguments are ignored: menus pass a resource, and nothing from outside may steer the harvest.
    vscode.commands.registerCommand('lore.harvest', () => harvestConversations()),
    vscode.commands.registerCommand('lore.applyHarvest', () =>
      runCommand('Apply Harvest', async () => {
        const pending = harvest.pending;
        if (!pending) {
          void vscode.window.showInformationMessage('Lore: there is no harvest plan to apply. Run "Lore: Harvest Conversations…" first.');
          return undefined;
        }
        const report = await harvest.apply();
        if (report?.stale) offerPreviewAgain(report.stale, () => harvestConversations({ sources: pending.sources }));
        else if (report?.applied) {
          const reclaimed = reclaimText(report.applied.reclaimed.map((r) => r.action));
          const done = `Lore: wrote ${appliedText(report)}${reclaimed ? `; ${reclaimed}` : ''}.`;
          const held = report.plan!.held;
          if (held.length) {
            // A planted instruction is a warning; suggestions of the offline extractor are news.
            const show = held.some((h) => isInstructionHold(h.kinds))
              ? vscode.window.showWarningMessage
              : vscode.window.showInformationMessage;
            void show(`${done} Waiting for your review: ${heldText(held)}.`, 'Show Review').then((choice) => {
              if (choice === 'Show Review') void vscode.commands.executeCommand('lore.review.focus');
            });
          } else {
            void vscode.window.showInformationMessage(done, 'Undo').then((choice) => {
              if (choice === 'Undo') void vscode.commands.executeCommand('lore.undoHarvest');
            });
          }
        }
        return report;
      }),
    ),
    vscode.commands.registerCommand('lore.discardHarvest', () => harvest.discard()),
    vscode.commands.registerCommand('lore.undoHarvest', () => undoLastHarvestCommand(harvest)),
    // The editor title passes the journal file's URI: only its day is taken from it.
    vscode.commands.registerCommand('lore.summarizeJournal', (uri?: unknown) => summarizeJournalCommand(context, store, harvest, uri)),
    vscode.commands.registerCommand('lore.chooseHarvestItems', () => chooseHarvestItemsCommand(harvest)),
    vscode.commands.registerCommand('lore.cancelHarvest', () => harvest.cancel()),
    vscode.commands.registerCommand('lore.reviewHarvest', () =>
      runCommand('Review Harvest Changes', async () => {
        const plan = harvest.pending?.report.plan;
        if (!plan) return;
        const pick = await vscode.window.showQuickPick(
          plan.changes.map((c) => ({
            label: planFileLabel(c),
            description: c.after === undefined ? 'removed' : `+${c.added} line(s)`,
            file: c.file,
          })),
          { title: 'Lore harvest: review a change' },
        );
        if (pick) await harvest.showChange(pick.file);
      }),
    ),
    vscode.commands.registerCommand('lore.retryHarvest', (node?: LedgerEntryNode) => {
      const path = node?.entry.archived ?? node?.entry.path;
      return harvestConversations(path ? { sources: [path] } : {});
    }),
  ];
  return {
    disposables,
    harvestWithoutDialogs: (options = {}) => harvestConversations({ ...options, withoutDialogs: true }),
    // Import Conversations… harvests the sessions the person chose, with every dialog.
    harvestSources: (sources) => harvestConversations({ sources }),
    deferredApply,
  };
}
