/**
 * Finding an item by its id (itemId.ts) across the store: the category files, then every note
 * file. Ids are not written into files, so this hashes each item line; a file is parsed only when
 * one of its lines matches. The ids of a file are remembered with its version (inode, size,
 * mtime), so a long-running process (the MCP server) hashes only the files that changed since
 * its last lookup. The same line (same text, same source) in two files has the same id: every
 * place is returned and the caller decides (the operations ask for the file then).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listNames } from '../../base/walkTree';
import { parseNoteFile, isNoteFileName } from '../../model/noteFile';
import { readStoreFile, readTextLossless } from '../../base/readText';
import { layerOfFile, personalFileName, storeRelative, type StoreLayer, type StorePaths } from '../storePaths';
import { CATEGORY_FILES, type CategoryFileKey } from '../../model/categories';
import { listItems, type KnowledgeItem } from '../../model/categoryFile';
import { listItemId } from '../../model/itemId';
import { kindOfCategoryItem, type ItemKind } from '../../model/itemKinds';
import { stripProvenance } from '../../model/provenance';
import { supersededBy } from '../../model/supersession';
import { pushAll } from '../../base/bulkArrays';

/** An item found in a store file. */
export interface LocatedItem {
  id: string;
  /** Store-relative file: `facts.md`, `tasks.md`, `files/2049-1234.md`, `personal/facts.md` (the personal layer). */
  file: string;
  /** Which layer of the store holds it: the team's shared files or the person's own (personalLayer.ts). */
  layer: StoreLayer;
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
    id,
    file,
    layer: layerOfFile(file),
    line: item.line + 1,
    raw: item.raw,
    text,
    kind,
    ...(notedPath !== undefined ? { notedPath } : {}),
    ...(item.provenance ? { provenance: { source: item.provenance.source, date: item.provenance.date } } : {}),
    ...(supersededBy(item.raw) ? { supersededBy: supersededBy(item.raw) } : {}),
  };
}

/** The ids of a file's list lines, with the version of the file they were computed from. */
interface FileIds {
  version: string;
  ids: Set<string>;
}
const idsByFile = new Map<string, FileIds>();
/** Files remembered at most (a store of 10,000 note files fits; more are hashed again). */
const MAX_REMEMBERED_FILES = 50_000;

/** The ids of the list items of `file`, or undefined when it cannot be read. */
function idsOf(file: string): { ids: Set<string>; text?: string } | undefined {
  let version: string;
  try {
    const stat = fs.statSync(file, { bigint: true });
    if (!stat.isFile()) return undefined;
    version = `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return undefined; // Gone (moved by a heal meanwhile).
  }
  const known = idsByFile.get(file);
  if (known?.version === version) return { ids: known.ids };
  let text: string;
  try {
    text = readStoreFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const ids = new Set(listItems(text).map(listItemId));
  if (idsByFile.size >= MAX_REMEMBERED_FILES) idsByFile.clear();
  idsByFile.set(file, { version, ids });
  return { ids, text };
}

/** Every place the item with `id` is written: category files first (shared, then personal), then note files by name. */
export function findItemsById(paths: StorePaths, id: string): LocatedItem[] {
  const wanted = id.trim().toLowerCase();
  const found: LocatedItem[] = [];
  // The shared category files, then the personal layer's (named `personal/<file>` from here).
  const categoryFiles = (Object.keys(CATEGORY_FILES) as CategoryFileKey[]).map((key) => ({
    key,
    file: CATEGORY_FILES[key].file as string,
  }));
  if (paths.layer !== 'personal')
    pushAll(
      categoryFiles,
      categoryFiles.map(({ key, file }) => ({ key, file: personalFileName(file) })),
    );
  for (const { key, file } of categoryFiles) {
    const abs = path.join(paths.root, file);
    if (!idsOf(abs)?.ids.has(wanted)) continue;
    const text = readTextLossless(abs);
    if (!text) continue;
    for (const item of listItems(text)) {
      if (listItemId(item) === wanted) found.push(located(wanted, file, item, kindOfCategoryItem(key, item.section)));
    }
  }
  for (const name of listNames(paths.files).filter(isNoteFileName).sort()) {
    const abs = path.join(paths.files, name);
    const known = idsOf(abs);
    if (!known?.ids.has(wanted)) continue;
    const text = known.text ?? readTextLossless(abs);
    if (text === undefined) continue;
    const notedPath = parseNoteFile(text).meta.path;
    for (const item of listItems(text)) {
      if (listItemId(item) === wanted) found.push(located(wanted, storeRelative(paths, abs), item, 'note', notedPath));
    }
  }
  return found;
}
