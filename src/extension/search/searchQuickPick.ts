/**
 * "Lore: Search Knowledge": a quick pick with live results (snippets, category, provenance);
 * choosing one opens its line.
 */
import * as vscode from 'vscode';
import type { SearchHit } from '../../core/services/search/searchTypes';
import { logger, runCommand } from '../log';
import type { SearchClient } from './searchClient';
import { searchHitItem } from './searchHitItem';

const log = logger('search');

interface HitItem extends vscode.QuickPickItem {
  hit: SearchHit;
}

function toItem(hit: SearchHit): HitItem {
  return { ...searchHitItem(hit), hit };
}

export function registerSearchCommand(search: SearchClient): vscode.Disposable {
  return vscode.commands.registerCommand('lore.search', (initial?: string) =>
    runCommand(
      'Search Knowledge',
      () =>
        new Promise<SearchHit | undefined>((resolve) => {
          const pick = vscode.window.createQuickPick<HitItem>();
          pick.title = 'Lore: Search Knowledge';
          pick.placeholder = 'Search facts, decisions, questions, playbooks, tasks, file notes and conversations';
          pick.matchOnDescription = true;
          pick.matchOnDetail = true;
          let generation = 0;
          let timer: NodeJS.Timeout | undefined;
          const run = (query: string) => {
            const mine = ++generation;
            if (!query.trim()) {
              pick.items = [];
              return;
            }
            pick.busy = true;
            search.search(query, { limit: 50 }).then(
              (response) => {
                if (mine !== generation) return;
                pick.items = response.hits.map(toItem);
                pick.busy = false;
                if (response.warnings.length) log.warn(response.warnings.join('; '));
              },
              (error) => {
                log.error('search failed', error);
                pick.busy = false;
              },
            );
          };
          pick.onDidChangeValue((value) => {
            clearTimeout(timer);
            timer = setTimeout(() => run(value), 120);
          });
          pick.onDidAccept(async () => {
            const chosen = pick.selectedItems[0]?.hit;
            pick.hide();
            if (chosen) {
              const line = Math.max(0, (chosen.line ?? 1) - 1);
              await vscode.window.showTextDocument(vscode.Uri.file(chosen.absolutePath), { selection: new vscode.Range(line, 0, line, 0) });
            }
            resolve(chosen);
          });
          pick.onDidHide(() => {
            clearTimeout(timer);
            pick.dispose();
            resolve(undefined);
          });
          pick.show();
          if (initial) {
            pick.value = initial;
            run(initial);
          }
        }),
    ),
  );
}
