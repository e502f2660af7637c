/**
 * The harvest's plan, built so that one conversation whose items cannot be planned does not stop
 * the others. Before, a plan that failed on one conversation's reply (a reply of 100,000 items
 * overflowed the call stack) failed the whole run: no conversation was harvested, and the cached
 * reply failed every later run the same way.
 *
 * When the plan of every conversation together fails, each conversation's plan is tried alone to
 * find the ones at fault; those are left out (the caller records them as failed, so the next
 * harvest tries them again) and the plan is built from the rest. A failure no single conversation
 * explains (the store's own files, or conversations only together) is thrown as it was.
 */
import type { Ledger } from '../../model/ledgerFormat';
import type { ConversationOutcome, DistilledInput, HarvestPlan } from '../../store/harvestPlan';
import type { StorePaths } from '../../store/storePaths';
import { isStoreFault } from '../../store/storeErrors';
import { buildPlan, type PlanOptions } from './plan';

export interface IsolatedPlan {
  plan: HarvestPlan;
  /** Conversations whose items could not be planned, with the error their plan alone threw. */
  failed: Array<{ input: DistilledInput; error: unknown }>;
}

/**
 * buildPlan over `distilled`, leaving out conversations whose plan alone fails. `leaveOut` is
 * called for each before the plan is built without it: it records the conversation as failed in
 * its outcome, which the plan's ledger then says.
 */
export function buildIsolatedPlan(
  paths: StorePaths,
  ledger: Ledger,
  outcomes: ConversationOutcome[],
  distilled: DistilledInput[],
  options: PlanOptions,
  leaveOut: (input: DistilledInput, error: unknown) => void,
): IsolatedPlan {
  try {
    return { plan: buildPlan(paths, ledger, outcomes, distilled, options), failed: [] };
  } catch (error) {
    // A failure of the disk or the store's files is no conversation's.
    if (isStoreFault(error)) throw error;
    // Trial plans are thrown away: each gets copies of the outcomes, since a plan marks the ones it reclaims.
    const fails = (inputs: DistilledInput[]): unknown => {
      try {
        buildPlan(
          paths,
          ledger,
          outcomes.map((o) => ({ ...o })),
          inputs,
          options,
        );
        return undefined;
      } catch (trialError) {
        return trialError ?? new Error('the plan failed');
      }
    };
    if (distilled.length === 0 || fails([])) throw error;
    const failed: IsolatedPlan['failed'] = [];
    for (const input of distilled) {
      const alone = fails([input]);
      if (alone) failed.push({ input, error: alone });
    }
    if (failed.length === 0) throw error;
    for (const { input, error: why } of failed) leaveOut(input, why);
    const rest = distilled.filter((input) => !failed.some((f) => f.input === input));
    return { plan: buildPlan(paths, ledger, outcomes, rest, options), failed };
  }
}
