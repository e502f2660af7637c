/**
 * The one "Lore" log channel, with component tags ("[harvest] …"). No console.log in the
 * extension: everything a user may need to diagnose goes here.
 */
import * as vscode from 'vscode';
import { describeFileError } from '../core/store/storeErrors';
import { NoStoreError, showNoStore } from './noStore';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
  debug(message: string): void;
}

let channel: vscode.LogOutputChannel | undefined;

export function initLog(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Lore', { log: true });
  return channel;
}

export function showLog(): void {
  initLog().show(true);
}

/** A logger for one component. */
export function logger(component: string): Logger {
  const tag = `[${component}] `;
  return {
    info: (m) => initLog().info(tag + m),
    warn: (m) => initLog().warn(tag + m),
    debug: (m) => initLog().debug(tag + m),
    error: (m, error) => {
      const detail = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : error !== undefined ? String(error) : '';
      initLog().error(tag + m + (detail ? `: ${detail}` : ''));
    },
  };
}

/**
 * Runs a command body, logging any error with its stack and showing it with an "Open Log"
 * action, so no command fails silently.
 */
export async function runCommand<T>(name: string, body: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await body();
  } catch (error) {
    // No store in this window: not a failure, the person is told how to get one.
    if (error instanceof NoStoreError) {
      logger('command').info(`${name}: no store (no folder open, the global store not chosen)`);
      void showNoStore();
      return undefined;
    }
    logger('command').error(`${name} failed`, error);
    const message = describeFileError(error) ?? (error instanceof Error ? error.message : String(error));
    void vscode.window.showErrorMessage(`Lore: ${message}`, 'Open Log').then((choice) => {
      if (choice === 'Open Log') showLog();
    });
    return undefined;
  }
}
