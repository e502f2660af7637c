/**
 * "Lore: Undo Last Harvest": asks first (an undo is not itself undone; the same conversations
 * can be harvested again), then puts the store back as it was before the last apply and says
 * what it did, or why it did nothing (core/harvest/undoLastHarvest.ts).
 */
import * as vscode from 'vscode';
import { humanTime } from '../../core/model/format';
import { undoOutcomeText } from '../../core/store/changes/undoOutcome';
import { runCommand } from '../log';
import type { HarvestController } from './harvestController';

export function undoLastHarvestCommand(harvest: HarvestController): Promise<unknown> {
  return runCommand('Undo Last Harvest', async () => {
    const go = await vscode.window.showWarningMessage(
      'Lore: undo the last harvest?',
      {
        modal: true,
        detail:
          'The knowledge files, notes, digest and ledger go back to what they held before it, its transcripts are removed and the conversations it reclaimed come back to the inbox. A file edited since the harvest stops the undo, and nothing is changed.',
      },
      'Undo Harvest',
    );
    if (go !== 'Undo Harvest') return undefined;
    const outcome = await harvest.undo();
    const text = `Lore: ${undoOutcomeText(outcome, (iso) => humanTime(iso))}.`;
    if (outcome.status === 'undone' || outcome.status === 'nothing') void vscode.window.showInformationMessage(text);
    else void vscode.window.showWarningMessage(text);
    return outcome;
  });
}
