/**
 * What a clone's store holds, read with Lore's own parsers (category and note files), for the
 * random steps (which items are there to forget or supersede) and the end-state checks.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listItems } from '../../../src/core/model/categoryFile';
import { itemId } from '../../../src/core/model/itemId';
import { parseItemLine } from '../../../src/core/model/itemLines';
import { parseNoteFile } from '../../../src/core/model/noteFile';
import type { Clone } from './teamClone';
import { normalizeStatement } from './teamFixtures';

export const CATEGORY_FILES = ['facts.md', 'decisions.md', 'questions.md', 'playbooks.md', 'tasks.md'];

export interface StoreItem {
  file: string;
  raw: string;
  id: string;
  /** normalizeStatement of the statement. */
  statement: string;
  sources: string[];
  superseded: boolean;
}

/** Every item line of the clone's category files. */
export function categoryItems(clone: Clone): StoreItem[] {
  return CATEGORY_FILES.flatMap((file) => itemsOf(file, clone.read(file)));
}

/** The items of one file's text. */
export function itemsOf(file: string, text: string): StoreItem[] {
  return listItems(text).flatMap((item) => {
    const parsed = parseItemLine(item.raw);
    if (!parsed) return [];
    return [
      {
        file,
        raw: item.raw,
        id: itemId(item.raw),
        statement: normalizeStatement(parsed.text),
        sources: parsed.provenance?.sources.map((s) => s.source) ?? [],
        superseded: parsed.supersession !== undefined,
      },
    ];
  });
}

/** The live (not superseded) item of a statement, if the clone has one. */
export function liveItem(clone: Clone, text: string): StoreItem | undefined {
  const wanted = normalizeStatement(text);
  return categoryItems(clone).find((i) => i.statement === wanted && !i.superseded);
}

export interface NoteFileView {
  name: string;
  path: string;
  notes: string[];
}

/** The clone's note files (`files/`), each with the source path its frontmatter names and its notes' statements. */
export function noteFiles(clone: Clone): NoteFileView[] {
  const dir = path.join(clone.store, 'files');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => {
      const note = parseNoteFile(fs.readFileSync(path.join(dir, name), 'utf8'));
      return { name, path: note.meta.path, notes: itemsOf(name, note.body).map((i) => i.statement) };
    });
}
