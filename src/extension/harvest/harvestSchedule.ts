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
      vscode.window.setStatusBarMessage(`$(sparkle) ${text}`, 15_000);
      return report;
    } catch (error) {
      log.error('scheduled harvest failed', error);
      vscode.window.setStatusBarMessage('$(warning) Lore: scheduled harvest failed (see Output › Lore)', 15_000);
      return undefined;
    }
  }
}
