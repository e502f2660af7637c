import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';

/** Activates Lore (the extension under test) and returns its test API. */
export async function activateLore(): Promise<LoreApi> {
  const ext = vscode.extensions.getExtension<LoreApi>('lore-dev.lore');
  assert.ok(ext, 'extension lore-dev.lore is installed');
  return ext.activate();
}

/** Waits until `check` holds (polling), failing with `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for: ${what}`);
}

/**
 * Points Lore's provider settings at `provider` (and `baseUrl`, e.g. a loopback stub); the
 * harvest commands take no options, so tests choose the provider the way a user does.
 */
export async function useProvider(provider: string | undefined, baseUrl?: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('lore');
  await config.update('provider', provider, vscode.ConfigurationTarget.Global);
  await config.update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
}
