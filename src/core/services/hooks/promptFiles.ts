/**
 * The files a prompt names: words of the prompt that look like paths (`src/app.ts`,
 * `@src/app.ts`, `` `lib/x.py:12` ``, `README.md`) and are regular files of the workspace. A
 * prompt is untrusted text, so a name counts only when its real path (symlinks resolved) lies
 * inside the workspace and outside the store; anything else (`../../etc/passwd`, a link out, a
 * folder, a device) is ignored without a trace.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, type StorePaths } from '../../store/storePaths';

/** Words looked at, and files returned, at most: a pasted log must not cost a stat per word. */
const MAX_CANDIDATES = 64;
const MAX_FILES = 10;
const MAX_NAME_CHARS = 512;

/** Runs of characters that can be part of a path; quotes, brackets and commas end a name. */
const TOKEN = /[^\s`'"()<>[\]{},;|]+/g;

function realOrUndefined(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

/** A word as a path: `@` mention and trailing punctuation, `:line[:col]` and `#Lnn` removed. */
function asPathName(word: string): string | undefined {
  let name = word.replace(/^@/, '').replace(/[.,:;!?]+$/, '');
  name = name.replace(/(#L\d+(-L?\d+)?|(:\d+){1,2})$/, '');
  if (!name || name.length > MAX_NAME_CHARS || name.includes('://')) return undefined;
  // A path has a separator or an extension; plain words are not worth a stat.
  return /[/\\]/.test(name) || /\.[A-Za-z0-9]{1,10}$/.test(name) ? name : undefined;
}

/**
 * The workspace files `prompt` names, in the order first named, as absolute paths under
 * `paths.workspace` (the real file's place there). Relative names are tried against the agent's
 * folder, then the workspace root.
 */
export function filesNamedIn(prompt: string, agentFolder: string, paths: StorePaths): string[] {
  const realWorkspace = realOrUndefined(paths.workspace);
  if (!realWorkspace) return [];
  const realStore = realOrUndefined(paths.root) ?? paths.root;
  const found: string[] = [];
  const seen = new Set<string>();
  let looked = 0;
  for (const match of prompt.matchAll(TOKEN)) {
    if (looked >= MAX_CANDIDATES || found.length >= MAX_FILES) break;
    const name = asPathName(match[0]);
    if (!name || seen.has(name)) continue;
    seen.add(name);
    looked++;
    const tries = path.isAbsolute(name) ? [name] : [path.resolve(agentFolder, name), path.resolve(paths.workspace, name)];
    for (const candidate of tries) {
      const real = realOrUndefined(candidate);
      if (!real || !isInside(realWorkspace, real) || isInside(realStore, real)) continue;
      let isFile = false;
      try {
        isFile = fs.statSync(real).isFile();
      } catch {
        // Gone between the two calls.
      }
      if (!isFile) continue;
      const inWorkspace = path.join(paths.workspace, path.relative(realWorkspace, real));
      if (!found.includes(inWorkspace)) found.push(inWorkspace);
      break;
    }
  }
  return found;
}
