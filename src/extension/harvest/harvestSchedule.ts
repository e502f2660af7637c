/**
 * `lore.harvest.schedule`: a harvest in the background every hour or day (off by default). It is
 * the CLI's `harvest --apply` on the configured sources, through the same ledger and store lock,
 * with the configured provider (the offline rules extractor when none is set up), and it reports
 * quietly: a status bar message and the log, never a dialog. It does not run while a harvest is
 * running or a previewed plan waits for the person (applying would make that preview stale).
 */
import * as vscode from 'vscode';
import type { ShownReport as HarvestReport } from '../../shared/protocol';
import { createProvider } from '../../core/services/providers/providerRegistry';
import { itemCountsText } from '../../core/model/format';
import { runSpendingSentence } from '../../core/services/spending/spendingText';
import { Disposable } from '../lifecycle';
import { logger } from '../log';
import { resolveProvider } from '../providers/providerChoice';
import { readSettings, type HarvestSchedule as ScheduleSetting } from '../settings';
import type { StoreService } from '../storeService';
import type { HarvestController } from './harvestController';

const log = logger('schedule');

const PERIOD_MS: Record<Exclude<ScheduleSetting, 'off'>, number> = { hourly: 60 * 60_000, daily: 24 * 60 * 60_000 };

export class HarvestScheduler extends Disposable {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly store: StoreService,
    private readonly harvest: HarvestController,
  ) {
    super();
    this._register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('lore.harvest.schedule') && this.reschedule()));
    this._register({ dispose: () => clearTimeout(this.timer) });
    this.reschedule();
  }

  private reschedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const schedule = readSettings().harvestSchedule;
    if (schedule === 'off' || this.isDisposed) return;
    this.timer = setTimeout(() => void this.runNow().finally(() => this.reschedule()), PERIOD_MS[schedule]);
  }

  /** The cap and day last notified: an hourly schedule past a daily cap says so once, not every hour. */
  private notified: string | undefined;

  private notifyStop(cap: string, text: string): void {
    const key = `${cap} ${new Date().toDateString()}`;
    if (this.notified === key) return;
    this.notified = key;
    void vscode.window.showWarningMessage(`Lore: the scheduled harvest stopped. ${text}`, 'Open Settings').then((choice) => {
      if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'lore.budget');
    });
  }

  /** One scheduled run, now (the timer calls it; the API offers it for tests). Undefined when skipped. */
  async runNow(): Promise<HarvestReport | undefined> {
    if (!this.store.exists || this.harvest.isRunning || this.harvest.pending) {
      log.info('scheduled harvest skipped: no store, or a harvest is running or waiting to be applied');
      return undefined;
    }
    try {
      const resolution = await resolveProvider(this.context.secrets);
      const provider = resolution.provider ?? createProvider('rules');
      if (!resolution.provider) log.info(`scheduled harvest uses the rules extractor: ${resolution.problem}`);
      const report = await this.harvest.applyNow(provider, (message) => log.info(message));
      const harvested = report.conversations.filter((c) => c.status === 'harvested').length;
      const text = harvested
        ? `Lore: scheduled harvest took ${report.plan ? itemCountsText(report.plan.items) : 'no new items'} from ${harvested} conversation(s)`
        : 'Lore: scheduled harvest found nothing new';
      log.info(`${text}${report.failed ? `; ${report.failed} failed (kept for the next run)` : ''}`);
      const spent = runSpendingSentence(report.spending);
      if (spent) log.info(`scheduled harvest: ${spent}`);
      const stop = report.spending?.stop;
      if (stop) {
        // Never silent: the status bar, the log, and once per cap and day a notification.
        log.warn(`scheduled harvest: ${stop.text}`);
        vscode.window.setStatusBarMessage('$(warning) Lore: scheduled harvest stopped at a spending cap (see Output › Lore)', 15_000);
        this.notifyStop(stop.cap, stop.text);
      } else vscode.window.setStatusBarMessage(`$(sparkle) ${text}`, 15_000);
      return report;
    } catch (error) {
      log.error('scheduled harvest failed', error);
      vscode.window.setStatusBarMessage('$(warning) Lore: scheduled harvest failed (see Output › Lore)', 15_000);
      return undefined;
    }
  }
}
