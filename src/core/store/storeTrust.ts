/**
 * Which stores' own config.json a person trusts with the settings that widen what agents may
 * write or what Lore commits (`agentWrites: "direct"`, `git.commit: "apply"` or `"interval"`).
 *
 * A config.json arrives with a clone or a zip like any other file of the repository, so on its
 * own it may only narrow: its widening values apply once the person trusts the store, the way
 * VS Code's Restricted Mode keeps a workspace's settings from acting before the person trusts
 * it. The trust record lives outside every repository, in the person's configuration folder
 * (`$LORE_CONFIG_HOME`, else `$XDG_CONFIG_HOME/lore`, else `~/.config/lore`), as a list of store
 * folders: `lore trust` adds one, `lore trust --revoke` removes it, and `lore init --git` adds
 * the store it turns commits on for. The person's own variables (`LORE_AGENT_WRITES`,
 * `LORE_GIT_COMMIT`, which VS Code sets from its settings) decide over config.json either way.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic } from '../base/atomicWrite';
import { realPathOr } from '../base/realPath';
import { mkdirNoFollow } from '../base/storeLinks';
import { readStoreFile } from '../base/readText';

/** The person's Lore configuration folder, outside every repository. */
export function personalConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LORE_CONFIG_HOME) return path.resolve(env.LORE_CONFIG_HOME);
  if (env.XDG_CONFIG_HOME) return path.join(path.resolve(env.XDG_CONFIG_HOME), 'lore');
  return path.join(env.HOME || env.USERPROFILE || os.homedir(), '.config', 'lore');
}

function trustFile(env: NodeJS.ProcessEnv): string {
  return path.join(personalConfigDir(env), 'trusted-stores.json');
}

/** A store's folder as the record keeps it: absolute, links resolved (the same store by any path). */
function storeKey(root: string): string {
  return realPathOr(root, path.resolve(root));
}

function readTrusted(env: NodeJS.ProcessEnv): string[] {
  try {
    const parsed: unknown = JSON.parse(readStoreFile(trustFile(env), 'utf8'));
    const stores = parsed && typeof parsed === 'object' ? (parsed as { stores?: unknown }).stores : undefined;
    return Array.isArray(stores) ? stores.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return []; // No record (or an unreadable one): nothing is trusted, the safe side.
  }
}

/** Stores the host that started this process vouches for (VS Code, for a workspace the person trusted). */
const trustedByHost = new Set<string>();

/**
 * Trusts the store at `root` for this process only, not recorded: VS Code's language server
 * when the person trusted the workspace, as Restricted Mode decides for the extension's settings.
 */
export function trustForThisProcess(root: string): void {
  trustedByHost.add(storeKey(root));
}

/**
 * True when the person trusts the store at `root` with its config.json's widening settings: a
 * `lore trust` record, the host's word for this process, or `$LORE_TRUSTED_STORE` naming it
 * (how VS Code starts `lore mcp` for a trusted workspace).
 */
export function isStoreTrusted(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const key = storeKey(root);
  if (trustedByHost.has(key) || (env.LORE_TRUSTED_STORE && storeKey(env.LORE_TRUSTED_STORE) === key)) return true;
  return readTrusted(env).includes(key);
}

/** Records (or, with `trusted` false, removes) the person's trust in the store at `root`. Returns the record's file. */
export function setStoreTrust(root: string, trusted: boolean, env: NodeJS.ProcessEnv = process.env): string {
  const key = storeKey(root);
  const stores = readTrusted(env).filter((s) => s !== key);
  if (trusted) stores.push(key);
  const file = trustFile(env);
  mkdirNoFollow(path.dirname(file));
  writeFileAtomic(file, JSON.stringify({ stores: stores.sort() }, null, 2) + '\n');
  return file;
}
