/** Cache view actions and the agent-instruction sync command. */
import * as vscode from 'vscode';
import { disable, enable, invalidate } from '../../core/services/promptCache/cacheState';
import { INSTRUCTION_FILES } from '../../core/model/instructionFiles';
import { SyncInstructionsRequest } from '../../shared/protocol';
import { logger, runCommand } from '../log';
import { readSettings, updateInstructionsSync } from '../settings';
import type { StoreService } from '../storeService';
import type { CacheDiscussionNode } from '../views/cacheTree';
import type { CacheStates } from './cacheStates';
import type { ResultOf } from '../../shared/declareMessage';

const log = logger('cache');

/**
 * Writes the digest block (without items held for review) into the opted-in instruction files,
 * only when it changed: the language server writes them, as it writes the store.
 */
export async function syncInstructions(
  store: StoreService,
  files = readSettings().instructionsSync,
): Promise<ResultOf<typeof SyncInstructionsRequest>> {
  if (!files.length || !store.exists) return [];
  const results = await store.request(SyncInstructionsRequest, { files: [...files] });
  for (const r of results) if (r.action !== 'unchanged') log.info(`instructions: ${r.file} ${r.action}${r.reason ? ` (${r.reason})` : ''}`);
  for (const r of results) if (r.warning) log.warn(`instructions: ${r.warning}`);
  return results;
}

export function registerCacheCommands(store: StoreService, states: CacheStates): vscode.Disposable[] {
  const update = (
    node: CacheDiscussionNode | undefined,
    change: (s: NonNullable<ReturnType<CacheStates['get']>>) => ReturnType<typeof enable>,
  ) =>
    runCommand('Cache', async () => {
      const state = node && states.get(node.discussionId);
      if (state) await states.put(change(state), false);
    });
  return [
    vscode.commands.registerCommand('lore.cache.invalidate', (node?: CacheDiscussionNode) =>
      update(node, (s) => invalidate(s, Date.now())),
    ),
    vscode.commands.registerCommand('lore.cache.disable', (node?: CacheDiscussionNode) => update(node, (s) => disable(s, Date.now()))),
    vscode.commands.registerCommand('lore.cache.enable', (node?: CacheDiscussionNode) => update(node, (s) => enable(s))),
    vscode.commands.registerCommand('lore.syncInstructions', () =>
      runCommand('Sync Agent Instructions', async () => {
        let files = readSettings().instructionsSync;
        if (!files.length) {
          const picks = await vscode.window.showQuickPick([...INSTRUCTION_FILES], {
            canPickMany: true,
            title: 'Lore: keep the digest in these agent instruction files',
          });
          if (!picks?.length) return [];
          files = picks;
          await updateInstructionsSync(files);
        }
        const results = await syncInstructions(store, files);
        const written = results.filter((r) => r.action === 'written').map((r) => r.file);
        void vscode.window.showInformationMessage(
          written.length ? `Lore: updated the knowledge block in ${written.join(', ')}.` : 'Lore: agent instruction files are up to date.',
        );
        return results;
      }),
    ),
  ];
}
