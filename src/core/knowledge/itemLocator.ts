/**
 * Finding an item by its id (itemId.ts) across the store: the category files, then every note
 * file. Ids are not written into files, so this hashes each item line; a note file is parsed only
 * when one of its lines matches. The same line (same text, same source) in two files has the same
 * id: every place is returned and the caller decides (the operations ask for the file then).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listNames } from '../util/walkTree';
import { parseNoteFile, isNoteFileName } from '../store/noteFile';
import { readTextLossless } from '../store/storeText';
import { storeRelative, type StorePaths } from '../store/storePaths';
import { CATEGORY_FILES, type CategoryFileKey } from './categories';
import { listItems, type KnowledgeItem } from './categoryFile';
import { itemId } from './itemId';
import { kindOfCategoryItem, type ItemKind } from './itemKinds';
import { stripProvenance } from './provenance';
import { supersededBy } from './supersession';

/** An item found in a store file. */
export interface LocatedItem {
  id: string;
  /** Store-relative file: `facts.md`, `tasks.md`, `files/2049-1234.md`. */
  file: string;
  /** 1-based line of the item's first line. */
  line: number;
  /** The first line as it is in the file. */
  raw: string;
  /** The item text without list marker and provenance (continuation lines joined). */
  text: string;
  kind: ItemKind;
  /** For a note: the workspace path the note is about. */
  notedPath?: string;
  provenance?: { source: string; date: string };
  /** The id of the item that superseded it, when it is marked so. */
  supersededBy?: string;
}

function located(id: string, file: string, item: KnowledgeItem, kind: ItemKind, notedPath?: string): LocatedItem {
  const text = stripProvenance(item.text);
  return {
    id, file, line: item.line + 1, raw: item.raw, text, kind,
    ...(notedPath !== undefined ? { notedPath } : {}),
    ...(item.provenance ? { provenance: { source: item.provenance.source, date: item.provenance.date } } : {}),
    ...(supersededBy(item.raw) ? { supersededBy: supersededBy(item.raw) } : {}),
  };
}

/** Whether any list line of `text` has the id (cheap: no parse of the file). */
function mentions(text: string, id: string): boolean {
  for (const line of text.split('\n')) if (/^[-*+]\s/.test(line) && itemId(line) === id) return true;
  return false;
}

/** Every place the item with `id` is written, category files first, then note files by name. */
export function findItemsById(paths: StorePaths, id: string): LocatedItem[] {
  const wanted = id.trim().toLowerCase();
  const found: LocatedItem[] = [];
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    const file = CATEGORY_FILES[key].file;
    const text = readTextLossless(path.join(paths.root, file));
    if (!text) continue;
    for (const item of listItems(text)) {
      if (itemId(item.raw) === wanted) found.push(located(wanted, file, item, kindOfCategoryItem(key, item.section)));
    }
  }
  for (const name of listNames(paths.files).filter(isNoteFileName).sort()) {
    const abs = path.join(paths.files, name);
    let text: string;
    try {
      text = fs.readFileSync(abs, 'utf8');
    } catch {
      continue; // Moved by a heal meanwhile.
    }
    if (!mentions(text, wanted)) continue;
    const notedPath = parseNoteFile(text).meta.path;
    for (const item of listItems(text)) {
      if (itemId(item.raw) === wanted) found.push(located(wanted, storeRelative(paths, abs), item, 'note', notedPath));
    }
  }
  return found;
}
