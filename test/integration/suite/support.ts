import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
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

/** Activates Lore in a workspace that has a store (made now if an earlier suite did not). */
export async function activateWithStore(): Promise<LoreApi> {
  const lore = await activateLore();
  if (!lore.store.exists) await vscode.commands.executeCommand('lore.initStore');
  return lore;
}

/** Before a harvest test: no plan pending, no model replies cached in the store, the offline extractor chosen. */
export async function startCleanHarvest(root: string): Promise<void> {
  await vscode.commands.executeCommand('lore.discardHarvest');
  fs.rmSync(path.join(root, '.cache'), { recursive: true, force: true });
  await useProvider('rules');
}

/** What a store's derived, machine-local and lock files are (.logs: what harvests spent, among others): left out of a snapshot of what a person sees. */
const DERIVED = ['.cache', '.index', '.logs', '.lock'];

/**
 * Every file under a store with its text, for before/after comparisons, leaving out the derived
 * files and any other names in `skip` (e.g. the private `.undo/`).
 */
/**
 * The store once Lore stopped reacting to a change a test made (the digest regenerated after a
 * category file changed on disk, say): the same snapshot twice, `quietMs` apart.
 */
export async function settledSnapshot(dir: string, quietMs = 1500, ms = 15_000): Promise<Record<string, string>> {
  const deadline = Date.now() + ms;
  let last = storeSnapshot(dir);
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    const now = storeSnapshot(dir);
    if (JSON.stringify(now) === JSON.stringify(last) || Date.now() > deadline) return now;
    last = now;
  }
}

export function storeSnapshot(dir: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (DERIVED.includes(e.name) || skip.includes(e.name)) continue;
      if (e.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}
