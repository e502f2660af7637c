/**
 * Context keys the "Get Started with Lore" walkthrough reads that no feature sets for itself.
 * (The store, the pending plan and the distill choice set theirs: `lore.storeExists`,
 * `lore.harvestPending`, `lore.distillChosen`.)
 */
import * as vscode from 'vscode';

/** Shows the hooks step only when a Lore that has "Install Agent Hooks" runs, so the walkthrough never links to a missing command. */
export async function setWalkthroughContext(): Promise<void> {
  const commands = await vscode.commands.getCommands(true);
  await vscode.commands.executeCommand('setContext', 'lore.hooksAvailable', commands.includes('lore.installHooks'));
}
