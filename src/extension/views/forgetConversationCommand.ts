/**
 * "Forget This Conversation…" on a Ledger view entry: asks the language server for the plan
 * (what `lore forget ID` previews), shows it in a modal confirmation that lists what goes, and
 * only on "Forget" has the server apply it (under the store lock; the server's search index is
 * purged there, off the extension host).
 */
import * as vscode from 'vscode';
import type { ForgetPlan, ForgetResult } from '../../core/store/forget/forgetConversation';
import { ForgetConversationRequest, PlanForgetRequest } from '../../shared/protocol';
import { runCommand } from '../log';
import type { LoreServerClient } from '../loreServerClient';
import type { StoreService } from '../storeService';
import type { LedgerEntryNode } from './ledgerTree';

/** Lines of each list shown in the confirmation before "and N more". */
const SHOWN = 8;

function listed<T>(title: string, items: readonly T[], show: (item: T) => string): string[] {
  if (items.length === 0) return [];
  const lines = items.slice(0, SHOWN).map((item) => `  ${show(item)}`);
  if (items.length > SHOWN) lines.push(`  … and ${items.length - SHOWN} more`);
  return [`${title} (${items.length}):`, ...lines];
}

/** The confirmation's detail text: everything that goes, and what stays. */
export function forgetPlanDetail(plan: ForgetPlan): string {
  return [
    ...listed('Items removed', plan.removed, (r) => `${r.file}: ${r.line}`),
    ...listed('Items other conversations taught too, kept without its provenance', plan.trimmed, (t) => `${t.file}: ${t.after}`),
    ...listed('Waiting in review.md, removed', plan.review, (line) => line),
    ...listed("Journal days, its section removed (and the day's summary)", plan.journals, (file) => file),
    ...listed('Files removed', plan.files, (f) => `${f.file} (${f.kind})`),
    'Its rows leave the search index.',
    ...listed('Left where they are (outside the store; never harvested again)', plan.outside, (o) => o),
    'The ledger keeps a tombstone, so a harvest never brings this conversation or these items back. This cannot be undone.',
  ].join('\n');
}

async function runningClient(notes: LoreServerClient) {
  const client = await notes.ready();
  if (!client?.isRunning()) throw new Error('the Lore language server is not running (see the Lore log)');
  return client;
}

/** What forgetting the conversation would do (the server plans; nothing is written). */
export async function planForgetting(notes: LoreServerClient, conversation: string): Promise<ForgetPlan> {
  return (await runningClient(notes)).sendRequest(PlanForgetRequest.type, { conversation });
}

/** Forgets the conversation, as the command does once the person said "Forget" (also the extension API's). */
export async function forgetConversation(notes: LoreServerClient, store: StoreService, conversation: string): Promise<ForgetResult> {
  const result = await (await runningClient(notes)).sendRequest(ForgetConversationRequest.type, { conversation });
  store.fireChanged();
  return result;
}

export function registerForgetConversationCommand(notes: LoreServerClient, store: StoreService): vscode.Disposable {
  return vscode.commands.registerCommand('lore.forgetConversation', (node?: LedgerEntryNode) =>
    runCommand('Forget This Conversation', async () => {
      const conversation = node?.entry.id;
      if (!conversation) {
        void vscode.window.showInformationMessage(
          'Lore: this ledger entry does not name a conversation id (it was never harvested into items).',
        );
        return undefined;
      }
      const plan = await planForgetting(notes, conversation);
      const choice = await vscode.window.showWarningMessage(
        `Lore: forget conversation ${conversation} for good?`,
        { modal: true, detail: forgetPlanDetail(plan) },
        'Forget',
      );
      if (choice !== 'Forget') return undefined;
      const result = await forgetConversation(notes, store, conversation);
      const problems = result.problems.length ? `; ${result.problems.length} files could not be removed (see the Lore log)` : '';
      void vscode.window.showInformationMessage(
        `Lore: forgot ${conversation}: ${result.plan.removed.length} items and ${result.removedFiles.length} files removed${problems}.`,
      );
      return result;
    }),
  );
}
