/**
 * "Lore: Install Agent Hooks…" and "Lore: Remove Agent Hooks": the same core code as `lore hooks
 * install|uninstall` (src/core/hooks/hookSettings.ts), with the tool and scope picked in a
 * QuickPick. "Harvest Now" (the Inbox view) harvests the inbox and the queued sessions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ShownReport as HarvestReport } from '../../shared/protocol';
import { currentHost } from '../../core/services/discovery/host';
import type { HookTool } from '../../core/services/hooks/hookCapture';
import { queuedTranscripts } from '../../core/store/captureQueue';
import { installHooks, loreHookCommand, uninstallHooks, type HookScope } from '../../core/services/hooks/hookSettings';
import { logger, runCommand } from '../log';
import type { StoreService } from '../storeService';

const log = logger('hooks');

interface Target {
  tool: HookTool;
  scope: HookScope;
}

const TARGETS: Array<vscode.QuickPickItem & Target> = [
  { label: 'Claude Code, this workspace', description: '.claude/settings.local.json', tool: 'claude', scope: 'workspace' },
  { label: 'Claude Code and VS Code, every project', description: '~/.claude/settings.json', tool: 'claude', scope: 'user' },
  { label: 'VS Code agent hooks, this workspace', description: '.github/hooks/lore.json', tool: 'vscode', scope: 'workspace' },
];

/** An executable named `name` on PATH, as an absolute path. */
function onPath(name: string): string | undefined {
  const names = process.platform === 'win32' ? [`${name}.exe`, `${name}.cmd`] : [name];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const candidate of names) {
      const file = path.join(dir, candidate);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return file;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

/**
 * The command the hooks run: a Node (the extension host's own when it is Node, as in
 * code-server; else `node` on PATH, since an Electron host's binary is not Node) and the
 * extension's bundled cli.js, by absolute path.
 */
function hookCommand(context: vscode.ExtensionContext): string | undefined {
  const node = process.versions.electron ? onPath('node') : process.execPath;
  if (!node) return undefined;
  return loreHookCommand(node, path.join(context.extensionPath, 'dist', 'cli.js'));
}

export function registerAgentHookCommands(
  context: vscode.ExtensionContext,
  store: StoreService,
  harvestSources: (sources: string[]) => Promise<HarvestReport | undefined>,
): vscode.Disposable[] {
  const host = () => currentHost();
  return [
    vscode.commands.registerCommand('lore.installHooks', () =>
      runCommand('Install Agent Hooks', async () => {
        const target = await vscode.window.showQuickPick(TARGETS, {
          title: "Lore: install agent hooks (queue sessions for harvest; add Lore's knowledge at session start and before each prompt)",
        });
        if (!target) return undefined;
        const command = hookCommand(context);
        if (!command) {
          void vscode.window.showErrorMessage(
            'Lore: no Node.js found on PATH to run the hooks with. Install Node.js, or run `lore hooks install` from a terminal.',
          );
          return undefined;
        }
        const change = installHooks(target.tool, target.scope, store.paths.workspace, host(), command);
        log.info(`${change.changed ? 'installed hooks in' : 'hooks already in'} ${change.file}: ${command}`);
        void vscode.window.showInformationMessage(
          change.changed ? `Lore: agent hooks written to ${change.file}.` : `Lore: ${change.file} already has Lore's hooks.`,
        );
        return change;
      }),
    ),
    vscode.commands.registerCommand('lore.removeHooks', () =>
      runCommand('Remove Agent Hooks', async () => {
        const target = await vscode.window.showQuickPick(TARGETS, { title: "Lore: remove Lore's agent hooks from" });
        if (!target) return undefined;
        const changes = uninstallHooks(target.tool, target.scope, store.paths.workspace, host()).filter((c) => c.changed);
        for (const change of changes) log.info(`removed hooks from ${change.file}`);
        void vscode.window.showInformationMessage(
          changes.length ? `Lore: removed its hooks from ${changes.map((c) => c.file).join(', ')}.` : 'Lore: no Lore hooks found there.',
        );
        return changes;
      }),
    ),
    // Arguments are ignored: what is harvested is what the Inbox view lists.
    vscode.commands.registerCommand('lore.harvestInbox', () =>
      runCommand('Harvest Inbox', () => harvestSources([store.paths.inbox, ...queuedTranscripts(store.paths)])),
    ),
  ];
}
