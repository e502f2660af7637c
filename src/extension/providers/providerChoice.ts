/**
 * Builds the provider the settings ask for. Keys of direct providers live in SecretStorage
 * (set with "Lore: Set API Key"), never in settings; environment variables still work.
 */
import * as vscode from 'vscode';
import {
  KEYED_VENDORS,
  VENDOR_ENDPOINTS,
  hasKey,
  isNetworkVendor,
  resolveEndpoint,
  type NetworkVendor,
} from '../../core/services/providers/endpoints';
import type { Provider } from '../../core/services/providers/provider';
import { createAdapter, createProvider, type AnyAdapterOptions } from '../../core/services/providers/providerRegistry';
import { readSettings, type LoreSettings, type ProviderSetting } from '../settings';
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

/**
 * What the settings and the stored key say for a vendor's adapter; the environment still
 * supplies what they leave out (endpoints.ts). Shared by the harvest and the chat participant.
 */
export async function adapterOptions(
  secrets: vscode.SecretStorage,
  vendor: NetworkVendor,
  settings: LoreSettings = readSettings(),
): Promise<AnyAdapterOptions> {
  const apiKey = (KEYED_PROVIDERS as readonly string[]).includes(vendor) ? await secrets.get(secretKey(vendor)) : undefined;
  return {
    model: settings.model || undefined,
    baseUrl: settings.baseUrl || undefined,
    apiKey: apiKey || undefined,
    timeoutMs: settings.timeoutSeconds * 1000,
  };
}

export async function resolveProvider(secrets: vscode.SecretStorage, override?: ProviderSetting): Promise<ProviderResolution> {
  const settings = readSettings();
  const name = override ?? settings.provider;
  if (name === 'vscode-lm') {
    const model = await selectModel(settings.model);
    if (!model) {
      return {
        problem: settings.model
          ? `no language model matches "${settings.model}" (lore.model)`
          : 'no language model is available in VS Code (install or sign in to a chat extension such as GitHub Copilot)',
      };
    }
    return { provider: new VscodeLmProvider(model) };
  }
  if (!isNetworkVendor(name)) return { provider: createProvider(name) };
  const options = await adapterOptions(secrets, name, settings);
  // Asked before any conversation is sent, so the user can choose instead of getting one auth error per conversation.
  if (!hasKey(resolveEndpoint(name, options))) {
    return {
      problem: `no API key for ${name} (store one with "Lore: Set API Key…", or set ${VENDOR_ENDPOINTS[name].keyVars.join(' or ')})`,
    };
  }
  return { provider: createAdapter(name, options) };
}
