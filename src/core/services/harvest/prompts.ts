/**
 * Harvest prompts: the user's copy in `<store>/prompts/` wins over the default shipped in the
 * package's `prompts/` folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import { readStoreFile } from '../../base/readText';

export const HARVEST_PROMPT = 'harvest-conversation.md';
export const SUMMARIZE_PROMPT = 'summarize-conversation.md';

let defaultsDir: string | undefined;

/**
 * The package's prompts folder. Found by walking up from this module, because the code runs
 * bundled (dist/cli.js), compiled for tests (out/src/core/harvest) or inside the extension.
 */
export function defaultPromptsDir(): string {
  if (defaultsDir) return defaultsDir;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'prompts', HARVEST_PROMPT);
    if (fs.existsSync(candidate)) return (defaultsDir = path.dirname(candidate));
    dir = path.dirname(dir);
  }
  throw new Error(`cannot find Lore's default prompts (looked above ${__dirname})`);
}

export interface LoadedPrompt {
  text: string;
  /** Where it came from, for reports. */
  file: string;
}

/** The prompt `name`: the store's copy when there is one, else the default. */
export function loadPrompt(paths: StorePaths | undefined, name: string): LoadedPrompt {
  if (paths) {
    const own = path.join(paths.prompts, name);
    try {
      const text = readStoreFile(own, 'utf8');
      if (text.trim()) return { text: text.replace(/^\ufeff/, '').trim(), file: own };
    } catch {
      // No user copy: use the default.
    }
  }
  const file = path.join(defaultPromptsDir(), name);
  return { text: readStoreFile(file, 'utf8').trim(), file };
}
