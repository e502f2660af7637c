/**
 * "Import Conversations…": the agent sessions on this machine that belong to the workspace, per
 * tool with counts and sizes (discovery runs in the language server, `lore/sources`), chosen in
 * a multi-select QuickPick and harvested through the usual flow (dry run, consent, preview,
 * apply). Sessions of other workspaces are never offered. The command takes no arguments.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MeasuredSession, SourcesReport, ToolReport } from '../../core/services/harvest/measureSources';
import { formatBytes, formatTokens, humanTime } from '../../core/model/format';
import { SourcesRequest } from '../../shared/protocol';
import { runCommand } from '../log';
import type { LoreServerClient } from '../loreServerClient';
import type { ParamsOf } from '../../shared/declareMessage';

/** The sessions listed as the language server measures them, or null while it is not running. */
export async function listSources(notes: LoreServerClient, params: ParamsOf<typeof SourcesRequest> = {}): Promise<SourcesReport | null> {
  const client = await notes.ready();
  return client?.isRunning() ? client.sendRequest(SourcesRequest.type, params) : null;
}

/** File names that say nothing (`events.jsonl`, Cline's per-task file): the session's folder names it. */
const GENERIC_NAMES = new Set(['events.jsonl', 'api_conversation_history.json']);

/** New sessions an importer reads are offered picked; harvested and unreadable ones are shown, not picked. */
function isNew(item: MeasuredSession): boolean {
  return (item.status === 'harvest' || item.status === 'retry') && item.unrecognized === undefined;
}

type SessionPick = vscode.QuickPickItem & { file?: string };

/** What a harvest would do with it, in a few words. */
function describe(item: MeasuredSession): string {
  if (item.status === 'harvested' || item.status === 'duplicate') return 'already harvested';
  if (item.unrecognized !== undefined) return 'no importer reads it yet';
  if (isNew(item))
    return `new, ${formatBytes(item.renderedBytes ?? 0)} to read, ~${formatTokens(Math.ceil((item.renderedBytes ?? 0) / 4))} tokens`;
  return item.status ?? '';
}

/** The file's own name, or for a name that says nothing its folder's. */
function fileName(file: string): string {
  const name = path.basename(file);
  return GENERIC_NAMES.has(name) ? path.basename(path.dirname(file)) : name;
}

/**
 * One session as a person knows it: its title (what they asked, or the name its tool gave it),
 * when it was, its size; the file name last, for whoever needs to find the file.
 */
export function sessionPick(item: MeasuredSession, now = Date.now()): SessionPick {
  const when = item.started ?? item.modified;
  return {
    label: item.title ?? fileName(item.path),
    description: [when ? humanTime(when, { now }) : '', formatBytes(item.rawBytes)].filter(Boolean).join(' · '),
    detail: [describe(item), item.title ? fileName(item.path) : ''].filter(Boolean).join(' · '),
    picked: isNew(item),
    file: item.path,
  };
}

/** `Claude Code: 12 sessions, 3.1 MB, 3 new (~41K tokens)`: one tool's line, in the picker and the empty Ledger view. */
export function toolHeading(tool: ToolReport): string {
  const news = tool.toHarvest ? `, ${tool.toHarvest} new (~${formatTokens(tool.estimatedTokens)} tokens)` : '';
  return (
    `${tool.label}: ${tool.sessions} session${tool.sessions === 1 ? '' : 's'}, ${formatBytes(tool.rawBytes)}${news}` +
    (tool.noImporter ? ', no importer yet' : '')
  );
}

/** QuickPick entries: a separator per tool with its counts, then its sessions. */
export function sourcePicks(report: SourcesReport): SessionPick[] {
  const picks: SessionPick[] = [];
  for (const tool of report.tools) {
    const own = tool.items.filter((item) => item.matches);
    if (own.length === 0) continue;
    picks.push({ label: toolHeading(tool), kind: vscode.QuickPickItemKind.Separator });
    for (const item of own) picks.push(sessionPick(item));
  }
  return picks;
}

/** Registers `lore.importConversations`; `harvestSources` runs the harvest flow (with its dialogs) on the chosen files. */
export function registerImportCommand(notes: LoreServerClient, harvestSources: (sources: string[]) => Promise<unknown>): vscode.Disposable {
  return vscode.commands.registerCommand('lore.importConversations', () =>
    runCommand('Import Conversations', async () => {
      notes.requireStore(); // what is imported is harvested into the store: none here, nothing to list
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Lore: looking for agent sessions' },
        () => listSources(notes),
      );
      if (!report) {
        void vscode.window.showWarningMessage(
          'Lore: the Lore language server is not running, so agent sessions cannot be listed. See the Lore log.',
        );
        return;
      }
      const picks = sourcePicks(report);
      if (picks.length === 0) {
        const others = report.tools.reduce((sum, tool) => sum + tool.otherWorkspaces, 0);
        void vscode.window.showInformationMessage(
          `Lore: no agent sessions of this workspace were found on this machine` +
            (others ? ` (${others} belong to other workspaces and are not offered).` : '.'),
        );
        return;
      }
      const chosen = await vscode.window.showQuickPick(picks, {
        canPickMany: true,
        matchOnDetail: true,
        title: `Lore: import conversations of ${path.basename(report.workspace)} (${report.totals.toHarvest} new, ~${formatTokens(report.totals.estimatedTokens)} tokens)`,
        placeHolder: 'Choose the sessions to harvest; you will see the dry run and every change before anything is written',
      });
      const files = (chosen ?? []).flatMap((pick) => (pick.file ? [pick.file] : []));
      if (files.length > 0) await harvestSources(files);
    }),
  );
}
