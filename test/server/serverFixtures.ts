/**
 * Workspaces with a knowledge store for the language-server tests, written through core's own
 * functions so note files look exactly as a harvest writes them.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { addNotesToFile, resolveNoteTarget } from '../../src/core/store/fileNotes';
import { storePaths, type StorePaths } from '../../src/core/store/storePaths';
import { makeTempDir } from '../helpers/paths';
import { LspTestClient } from './lspClient';

export interface TestWorkspace {
  ws: string;
  paths: StorePaths;
  /** Writes a workspace file (creating folders) and returns its absolute path. */
  write(relative: string, text: string): string;
  /** Attaches note lines (`- text [from: …]`) to a workspace file; returns the note file. */
  note(relative: string, lines: string[]): string;
  /** Starts a server on this workspace. */
  start(): Promise<LspTestClient>;
}

export function makeWorkspace(options: { createStore?: boolean } = {}): TestWorkspace {
  const ws = fs.realpathSync(makeTempDir('lore-server-'));
  const paths = storePaths(path.join(ws, '.lore'), ws);
  if (options.createStore ?? true) fs.mkdirSync(paths.files, { recursive: true });
  const write = (relative: string, text: string) => {
    const file = path.join(ws, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
  const note = (relative: string, lines: string[]) => {
    const target = resolveNoteTarget(paths, path.join(ws, relative));
    assert.equal(target.kind, 'file', `cannot note ${relative}`);
    return addNotesToFile(paths, target as Extract<typeof target, { kind: 'file' }>, lines);
  };
  return { ws, paths, write, note, start: () => LspTestClient.start({ storeRoot: paths.root, workspaceRoot: ws }) };
}

// The bounded poll lives with the other test helpers; server tests import it from here too.
export { eventually } from '../helpers/eventually';
