/**
 * Optional per-store settings in `<store>/config.json`, so the CLI honours the same choices as
 * the VS Code settings (which pass them explicitly). Unknown keys are ignored; a malformed file
 * is reported, not fatal.
 */
import * as fs from 'node:fs';

export type ReclaimMode = 'delete' | 'archive' | 'keep';
export const RECLAIM_MODES: readonly ReclaimMode[] = ['delete', 'archive', 'keep'];

export interface StoreConfig {
  /** What happens to an inbox conversation after a proven harvest. */
  reclaim: ReclaimMode;
  /** When false the digest is not written (and an existing one is removed). */
  digestEnabled: boolean;
}

export const DEFAULT_STORE_CONFIG: StoreConfig = { reclaim: 'delete', digestEnabled: true };

export interface LoadedConfig {
  config: StoreConfig;
  warning?: string;
}

export function loadStoreConfig(file: string): LoadedConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { config: { ...DEFAULT_STORE_CONFIG } };
  }
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    const config = { ...DEFAULT_STORE_CONFIG };
    const reclaim = (raw.reclaim ?? (raw.harvest as Record<string, unknown> | undefined)?.reclaim) as unknown;
    if (typeof reclaim === 'string' && (RECLAIM_MODES as string[]).includes(reclaim)) config.reclaim = reclaim as ReclaimMode;
    const digest = raw.digestEnabled ?? (raw.digest as Record<string, unknown> | undefined)?.enabled;
    if (typeof digest === 'boolean') config.digestEnabled = digest;
    return { config };
  } catch (error) {
    return {
      config: { ...DEFAULT_STORE_CONFIG },
      warning: `${file} is not valid JSON (${(error as Error).message}); using defaults`,
    };
  }
}
