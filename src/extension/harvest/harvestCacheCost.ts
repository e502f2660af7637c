/**
 * The cache cost of applying a harvest plan in VS Code (core/cache/prefixCost.ts): the sentence
 * the plan's message carries, and "Apply When No Session Is Warm", which waits until the last
 * warm agent session's cache has expired (re-checking then: a session still in use pushes its
 * expiry on) and applies the plan only if it is still the one pending.
 */
import * as vscode from 'vscode';
import { prefixChanges, recacheEstimate, recacheText, clockTime, type RecacheEstimate } from '../../core/services/promptCache/prefixCost';
import type { HarvestPlan } from '../../core/store/harvestPlan';
import type { AgentCaches } from '../cache/agentCaches';
import { Disposable, toDisposable } from '../lifecycle';
import { logger } from '../log';
import { readSettings } from '../settings';
import type { HarvestController, PendingHarvest } from './harvestController';

const log = logger('harvest');

/** The estimate for a plan against the agent sessions as the language server reads them now. */
export async function planCacheCost(
  plan: Pick<HarvestPlan, 'changes'>,
  agents: AgentCaches | undefined,
): Promise<{ estimate: RecacheEstimate; text: string }> {
  await agents?.refresh();
  const estimate = recacheEstimate(prefixChanges(plan, readSettings().instructionsSync), agents?.sessions() ?? []);
  return { estimate, text: recacheText(estimate) };
}

/** Applies the pending plan once no agent session of the workspace is warm. */
export class DeferredApply extends Disposable {
  private timer: NodeJS.Timeout | undefined;
  private waitingFor: PendingHarvest | undefined;
  /** When the deferred apply is due, epoch ms (undefined when none waits). */
  dueAt: number | undefined;

  constructor(
    private readonly harvest: HarvestController,
    private readonly agents: AgentCaches | undefined,
    private readonly apply: () => Thenable<unknown>,
  ) {
    super();
    this._register(toDisposable(() => this.cancel()));
    // A plan discarded, applied or replaced meanwhile is not applied later.
    this._register(
      harvest.onDidChangePending(() => {
        if (this.waitingFor && this.harvest.pending !== this.waitingFor) this.cancel();
      }),
    );
  }

  /** Waits for the warm sessions to expire, then applies; returns when it will (undefined: applied at once). */
  async schedule(): Promise<number | undefined> {
    const pending = this.harvest.pending;
    if (!pending?.report.plan) return undefined;
    this.cancel();
    const { estimate } = await planCacheCost(pending.report.plan, this.agents);
    if (estimate.warmUntil === undefined || estimate.warmUntil <= Date.now()) {
      await this.apply();
      return undefined;
    }
    this.waitingFor = pending;
    this.dueAt = estimate.warmUntil;
    // A second past the expiry, so the countdown has read 0:00.
    this.timer = setTimeout(() => void this.due(), Math.max(0, estimate.warmUntil - Date.now() + 1000));
    log.info(`harvest plan waits until ${clockTime(estimate.warmUntil)}, when no agent session's cache is warm`);
    return estimate.warmUntil;
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.waitingFor = undefined;
    this.dueAt = undefined;
  }

  private async due(): Promise<void> {
    const waited = this.waitingFor;
    this.timer = undefined;
    if (!waited || this.harvest.pending !== waited) return this.cancel();
    const when = await this.schedule();
    if (when !== undefined) log.info(`an agent session is still warm; the harvest plan now waits until ${clockTime(when)}`);
  }
}

/** The Apply When No Session Is Warm choice, with the message that says when it will apply. */
export async function applyWhenNoSessionIsWarm(deferred: DeferredApply): Promise<void> {
  const when = await deferred.schedule();
  if (when !== undefined)
    void vscode.window.showInformationMessage(
      `Lore: the harvest will be applied at ${clockTime(when)}, once no agent is in the middle of a session (so none has to read its context again). Discard Harvest cancels it.`,
    );
}
