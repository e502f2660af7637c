/**
 * Creating a store: the folders, a .gitignore for the derived and private parts, the user's
 * editable copy of the prompts, and the category files with their headings. Never overwrites
 * anything that exists.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CATEGORY_FILES, TASKS_DONE_HEADING, TASKS_OPEN_HEADING, type CategoryFileKey } from '../model/categories';
import { writeFileAtomic } from '../base/atomicWrite';
import { NEW_STORE_DIGEST } from '../model/digestFormat';
import { editStoreFile } from '../base/storeText';
import { PERSONAL_DIR_NAME, type StorePaths } from './storePaths';
import { mkdirNoFollow } from '../base/storeLinks';
import { readStoreFile } from '../base/readText';

/** The .gitignore line that keeps the personal layer (personalLayer.ts) out of the team's history. */
const PERSONAL_IGNORE_LINE = `${PERSONAL_DIR_NAME}/`;

/**
 * Derived data (.cache, .index) is rebuildable; raw conversations (inbox, archive) may hold
 * secrets that redaction only removes from what Lore writes, so they stay out of git too; archived
 * knowledge (archive/knowledge/) is redacted knowledge like the category files, so it is shared.
 */
const STORE_GITIGNORE = [
  '# Lore: derived or private, not shared',
  '.cache/',
  '.index/',
  '.logs/',
  '.lock',
  '*.tmp',
  'inbox/',
  'archive/*',
  '!archive/knowledge/',
  'queue/',
  PERSONAL_IGNORE_LINE,
  '',
].join('\n');

/**
 * The store's committed `.gitattributes`: people without Lore's merge driver (lore init registers
 * it in each clone, store/merge/mergeDriver.ts, where it outranks this file) merge the markdown
 * files as a union of lines, so no conflict markers land in them. ledger.json keeps git's text
 * merge: Lore reads its conflict markers back as both sides (store/ledger.ts), which a union of
 * JSON lines would not allow.
 */
export const STORE_GITATTRIBUTES = [
  "# Lore: without Lore's merge driver (lore init registers it in a clone) the markdown files merge",
  '# as a union of lines, with no conflict markers; with it they merge by meaning, and digest.md is',
  '# regenerated after the merge.',
  '/*.md merge=union',
  '/files/*.md merge=union',
  '/journal/*.md merge=union',
  '/archive/knowledge/**/*.md merge=union',
  '',
].join('\n');

function writeIfMissing(file: string, text: string, created: string[]): void {
  if (fs.existsSync(file)) return;
  writeFileAtomic(file, text);
  created.push(file);
}

/**
 * The personal layer's folder, and its line in the store's .gitignore for a store made before the
 * layer existed: appended when missing, the person's own lines untouched. The folder also gets a
 * .gitignore of its own that ignores everything in it, so the layer stays out of git even where
 * the store's .gitignore was edited away.
 */
function ensurePersonalLayout(personal: StorePaths, created: string[]): void {
  const shared = path.dirname(personal.root);
  editStoreFile(path.join(shared, '.gitignore'), (text) => {
    const lines = (text ?? '').split(/\r?\n/).map((l) => l.trim());
    if (lines.includes(PERSONAL_IGNORE_LINE) || lines.includes(`/${PERSONAL_IGNORE_LINE}`)) return undefined;
    const base = text ?? '';
    return `${base}${base === '' || base.endsWith('\n') ? '' : '\n'}${PERSONAL_IGNORE_LINE}\n`;
  });
  if (!fs.existsSync(personal.root)) {
    mkdirNoFollow(personal.root);
    created.push(personal.root);
  }
  writeIfMissing(path.join(personal.root, '.gitignore'), '# Lore: the personal layer, never shared\n*\n', created);
}

/** Creates the folders and .gitignore a harvest needs (for the personal layer, its own folder). Returns what was created. */
export function ensureStoreLayout(paths: StorePaths): string[] {
  const created: string[] = [];
  if (paths.layer === 'personal') {
    ensurePersonalLayout(paths, created);
    return created;
  }
  for (const dir of [paths.root, paths.inbox, paths.files]) {
    if (!fs.existsSync(dir)) {
      mkdirNoFollow(dir);
      created.push(dir);
    }
  }
  writeIfMissing(path.join(paths.root, '.gitignore'), STORE_GITIGNORE, created);
  return created;
}

/** `lore init`: the layout plus category files and the editable prompts. */
export function initStore(paths: StorePaths, promptsDir: string): string[] {
  const created = ensureStoreLayout(paths);
  mkdirNoFollow(paths.prompts);
  for (const name of fs.readdirSync(promptsDir).filter((n) => n.endsWith('.md'))) {
    writeIfMissing(path.join(paths.prompts, name), readStoreFile(path.join(promptsDir, name), 'utf8'), created);
  }
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    const { file, title } = CATEGORY_FILES[key];
    const body = key === 'tasks' ? `# ${title}\n\n${TASKS_OPEN_HEADING}\n\n${TASKS_DONE_HEADING}\n` : `# ${title}\n`;
    writeIfMissing(path.join(paths.root, file), body, created);
  }
  // The digest is on from the start: digest.md is the switch, and deleting it turns it off.
  writeIfMissing(paths.digest, NEW_STORE_DIGEST, created);
  writeIfMissing(path.join(paths.root, '.gitattributes'), STORE_GITATTRIBUTES, created);
  return created;
}
