/**
 * Searching the knowledge archive (`lore search --archived`): archived items are out of the index
 * on purpose (search and recall feed agents, and an archived item is one they stopped needing),
 * so a person's explicit look into the archive reads its files, which stay small: only what
 * decayed is there. An item matches when it holds every word of the query (case-folded).
 */
import type { CategoryFileKey } from '../../model/categories';
import type { StorePaths } from '../storePaths';
import { archivedItems } from './knowledgeArchive';

/** An archived item that matched. */
export interface ArchivedHit {
  id: string;
  category: CategoryFileKey;
  text: string;
  line: string;
  file: string;
  lineNumber: number;
  archived: true;
}

/** Archived items holding every word of `query`, in file order, at most `limit`. */
export function searchArchive(paths: StorePaths, query: string, limit = 20): ArchivedHit[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return [];
  const hits: ArchivedHit[] = [];
  for (const item of archivedItems(paths)) {
    const text = item.line.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    hits.push({
      id: item.id,
      category: item.category,
      text: item.text,
      line: item.line,
      file: item.file,
      lineNumber: item.item.line + 1,
      archived: true,
    });
    if (hits.length >= limit) break;
  }
  return hits;
}
