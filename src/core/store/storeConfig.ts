/**
 * Optional per-store settings in `<store>/config.json`, so the CLI honours the same choices as
 * the VS Code settings (which pass them explicitly). Unknown keys are ignored; a wrong field is
 * reported (naming the file and the field) and left at its default. A file that is not JSON, or
 * whose privateMarkers cannot be read, is `broken`: writes that depend on it stop. Values that
 * widen what agents write or what Lore commits apply only in a store the person trusts.
 */
import * as path from 'node:path';
import { isStoreTrusted } from './storeTrust';
import { privateMarkerList, type PrivateMarkers } from '../model/safety/privateSpans';
import { DEFAULT_STORE_CONFIG, type StoreConfig } from '../model/storeConfigFormat';
import { lazy } from '../base/lazy';
import { readStoreFile } from '../base/readText';

const configSchemaModule = lazy(() => require('../model/configSchema') as typeof import('../model/configSchema'));

export interface LoadedConfig {
  config: StoreConfig;
  warning?: string;
  /**
   * Why the file cannot be used (not JSON, or a `privateMarkers` Lore cannot read): what stays
   * private and where writes go are unknown, so writes stop (`storeConfigForWrite`).
   */
  broken?: string;
  /** Widening values of a store the person does not trust, left at their defaults (storeTrust.ts). */
  ignored?: string[];
}

/** A config.json that writes depend on and that cannot be read: nothing is written until it is fixed. */
export class StoreConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConfigError';
  }
}

/** The line of `text` that a JSON.parse error's "position N" falls on, if it names one. */
function lineOfError(text: string, error: Error): number | undefined {
  const position = /position (\d+)/.exec(error.message);
  return position ? text.slice(0, Number(position[1])).split('\n').length : undefined;
}

export function loadStoreConfig(file: string): LoadedConfig {
  let text: string;
  try {
    text = readStoreFile(file, 'utf8');
  } catch {
    return { config: { ...DEFAULT_STORE_CONFIG } };
  }
  let raw: unknown;
  const body = text.replace(/^\ufeff/, '');
  try {
    raw = JSON.parse(body);
  } catch (error) {
    const line = lineOfError(body, error as Error);
    const where = `${file}${line ? `:${line}` : ''} is not valid JSON (${(error as Error).message})`;
    return {
      config: { ...DEFAULT_STORE_CONFIG },
      warning: `${where}; read with the defaults, and writes that depend on it stop until it is fixed`,
      broken: `${where}. Lore writes nothing while it cannot read it, since it says what stays private and where writes go: fix that line (or move the file away to use the defaults) and run again`,
    };
  }
  const { config, problem, dropped } = configSchemaModule().checkStoreConfig(raw);
  const loaded: LoadedConfig = problem ? { config, warning: `${file}: ${problem}; the default is used instead` } : { config };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    loaded.broken = `${file} is not a JSON object ({ … }). Lore writes nothing while it cannot read it, since it says what stays private and where writes go: fix it (or move it away to use the defaults) and run again`;
  } else if (dropped?.includes('privateMarkers')) {
    loaded.broken = `${file}: privateMarkers is not {"open": "…", "close": "…"} (${problem}). Lore writes nothing while it cannot tell which text you marked private: fix privateMarkers and run again`;
  }
  return withTrust(file, loaded);
}

/**
 * The config a write depends on; throws StoreConfigError when the file is broken (see
 * LoadedConfig.broken), rather than writing with defaults what the file may have kept private.
 */
export function storeConfigForWrite(file: string): LoadedConfig {
  const loaded = loadStoreConfig(file);
  if (loaded.broken) throw new StoreConfigError(loaded.broken);
  return loaded;
}

/**
 * Leaves the widening values of an untrusted store's config.json at their defaults, and says
 * so once per file in this process (takeConfigNotices). See storeTrust.ts for the rule.
 */
function withTrust(file: string, loaded: LoadedConfig): LoadedConfig {
  const { config } = loaded;
  const widening: string[] = [];
  if (config.agentWrites === 'direct') widening.push('"agentWrites": "direct"');
  if (config.git.commit === 'apply' || config.git.commit === 'interval') widening.push(`"git": {"commit": "${config.git.commit}"}`);
  if (!widening.length || isStoreTrusted(path.dirname(file))) return loaded;
  const narrowed: StoreConfig = { ...config, agentWrites: 'pending', git: { ...config.git } };
  delete narrowed.git.commit;
  if (!announced.has(file)) {
    announced.add(file);
    notices.push(
      `${file} asks for ${widening.join(' and ')}; Lore ignored ${widening.length > 1 ? 'them' : 'it'}, since a repository's file may not widen what agents write or what Lore commits until you trust the store. If you wrote it, run: lore trust --root ${path.dirname(file)} (or set LORE_AGENT_WRITES / LORE_GIT_COMMIT yourself)`,
    );
  }
  return { ...loaded, config: narrowed, ignored: widening };
}

const announced = new Set<string>();
const notices: string[] = [];

/** The "ignored the repository's value" notices not yet shown (each file once per process), emptied. */
export function takeConfigNotices(): string[] {
  return notices.splice(0);
}

/**
 * The private-span markers that hold for a store: the default pair and config.json's
 * `privateMarkers`, plus `extra` (a VS Code setting). A config file that cannot be read gives
 * the default pair, never none; one that is broken throws StoreConfigError (no default pair
 * stands in for the person's own).
 */
export function storePrivateMarkers(configFile: string, extra?: PrivateMarkers): PrivateMarkers[] {
  const list = privateMarkerList(storeConfigForWrite(configFile).config.privateMarkers);
  if (extra) for (const pair of privateMarkerList(extra).slice(1)) list.push(pair);
  return list;
}
