/**
 * Builds the provider the settings ask for. Keys of direct providers live in SecretStorage
 * (set with "Lore: Set API Key"), never in settings; environment variables still work.
 */
import * as vscode from 'vscode';
import { KEYED_VENDORS } from '../../core/providers/endpoints';
import { createProvider } from '../../core/providers/providerRegistry';
import type { Provider } from '../../core/providers/provider';
import { readSettings, type ProviderSetting } from '../settings';
import { selectModel, VscodeLmProvider } from './vscodeLmProvider';

/** Providers whose key can be stored with "Lore: Set API Key". */
export const KEYED_PROVIDERS = KEYED_VENDORS;

export function secretKey(provider: string): string {
  return `lore.apiKey.${provider}`;
}

export interface ProviderResolution {
  provider?: Provider;
  /** Why no provider could be made (shown to the user with an offer to use `rules`). */
  problem?: string;
}

export async function resolveProvider(secrets: vscode.SecretStorage, override?: ProviderSetting): Promise<ProviderResolution> {
  const settings = readSettings();
  const name = override ?? settings.provider;
  const timeoutMs = settings.timeoutSeconds * 1000;
  if (name === 'vscode-lm') {
    const model = await selectModel(settings.model);
    if (!model) {
      return { problem: settings.model ? `no language model matches "${settings.model}" (lore.model)` : 'no language model is available in VS Code (install or sign in to a chat extension such as GitHub Copilot)' };
    }
    return { provider: new VscodeLmProvider(model) };
  }
  const apiKey = (KEYED_PROVIDERS as readonly string[]).includes(name) ? await secrets.get(secretKey(name)) : undefined;
  return {
    provider: createProvider(name, { model: settings.model || undefined, baseUrl: settings.baseUrl || undefined, apiKey: apiKey || undefined, timeoutMs }),
  };
}
