/**
 * The digest: a projection of the category files bounded to 4 KB (UTF-8 bytes, header
 * included) that agents get in their context. Sections in a fixed order, newest first (the
 * category files are append-only, so reversing them gives newest first), a visible truncation
 * line, and no file at all when there is nothing to say ("delete to turn off"). Items held for
 * review (they read as instructions to an agent, see knowledge/heldItems) and items superseded by
 * a newer one (knowledge/supersession) are left out, the header frames the rest as quoted data,
 * and secrets in the items (a key a person wrote into facts.md by hand) are redacted. The text's
 * format (render and parse) is digestFormat.ts; this file chooses the items and writes the file.
 */
import * as path from 'node:path';
import { DIGEST_MAX_BYTES } from '../model/constants';
import { CATEGORY_FILES, TASKS_OPEN_HEADING, type CategoryFileKey } from '../model/categories';
import { listItems } from '../model/categoryFile';
import { renderItemLine } from '../model/itemLines';
import { agentItemFilter, itemFilter, type AgentItemFilter } from './heldItems';
import { supersededBy } from '../model/supersession';
import { readStoreFile, readTextIfExists, readTextLossless } from '../base/readText';
import { DIGEST_SECTIONS, renderDigest, type DigestSection } from '../model/digestFormat';
import { tailItems } from '../model/digestTail';
import type { StorePaths } from './storePaths';
import { digestEmptied, removeDigest, writeDigest } from './digestSwitch';

/** Category file texts by key; a missing file is undefined. */
export type CategoryTexts = Partial<Record<CategoryFileKey, string>>;

const OPEN_SECTION = TASKS_OPEN_HEADING.replace(/^##\s*/, '').toLowerCase();

/** The digest's filter: what agents may see, without superseded items (they stay in their files). */
function digestFilter(keep: AgentItemFilter): AgentItemFilter {
  return (line) => supersededBy(line) === undefined && keep(line);
}

/**
 * Extracts the digest sections from category texts (newest first within each). `keep` decides
 * which items agents may see; the default holds back every flagged item (pass
 * agentItemFilter(paths) to let the ones a person accepted through).
 */
export function digestSections(texts: CategoryTexts, keep: AgentItemFilter = itemFilter()): DigestSection[] {
  return DIGEST_SECTIONS.map(({ title, file, openTasksOnly }) => {
    const text = texts[file];
    let items = text ? listItems(text) : [];
    if (openTasksOnly) items = items.filter((item) => item.section?.trim().toLowerCase() === OPEN_SECTION);
    return {
      title,
      items: items
        .map((item) => renderItemLine(item.text))
        .filter(digestFilter(keep))
        .reverse(),
    };
  });
}

/**
 * Digest sections straight from the category files on disk, reading only their ends (see
 * tailItems): the same result as digestSections(readCategoryTexts(paths)), without decoding
 * and parsing every item of a large store.
 */
export function digestSectionsFromFiles(paths: StorePaths, budgetBytes = DIGEST_MAX_BYTES): DigestSection[] {
  const keep = digestFilter(agentItemFilter(paths));
  return DIGEST_SECTIONS.map(({ title, file, openTasksOnly }) => {
    let buffer: Buffer;
    try {
      buffer = readStoreFile(path.join(paths.root, CATEGORY_FILES[file].file));
    } catch {
      return { title, items: [] };
    }
    return { title, items: tailItems(buffer, { budgetBytes, section: openTasksOnly ? OPEN_SECTION : undefined, keep }) };
  });
}

/**
 * Digest sections from category texts already in memory (a plan's proposed texts). `keep` as in
 * digestSections (default: every flagged item held back).
 */
export function digestSectionsFromTexts(
  texts: CategoryTexts,
  budgetBytes = DIGEST_MAX_BYTES,
  keep: AgentItemFilter = itemFilter(),
): DigestSection[] {
  return DIGEST_SECTIONS.map(({ title, file, openTasksOnly }) => {
    const text = texts[file];
    if (!text) return { title, items: [] };
    return {
      title,
      items: tailItems(Buffer.from(text, 'utf8'), {
        budgetBytes,
        section: openTasksOnly ? OPEN_SECTION : undefined,
        keep: digestFilter(keep),
      }),
    };
  });
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** Reads the category files of a store. */
export function readCategoryTexts(paths: StorePaths): CategoryTexts {
  const texts: CategoryTexts = {};
  for (const key of Object.keys(CATEGORY_FILES) as CategoryFileKey[]) {
    texts[key] = readTextLossless(path.join(paths.root, CATEGORY_FILES[key].file));
  }
  return texts;
}

export interface DigestResult {
  /** The digest text, or undefined when the digest was removed. */
  text?: string;
  bytes: number;
  /** Whether the file on disk changed. */
  changed: boolean;
}

/**
 * Regenerates `digest.md` from the category files (only if the text changed, so the agents'
 * cached prefix stays byte-identical); removes it when every section is empty or the digest is
 * disabled.
 */
export function regenerateDigest(
  paths: StorePaths,
  options: { enabled?: boolean; texts?: CategoryTexts; automatic?: boolean } = {},
): DigestResult {
  const enabled = options.enabled ?? true;
  const current = readTextIfExists(paths.digest);
  // An automatic refresh (a hand edit, a note moved, an agent's write) follows the switch that
  // digest.md itself is: a digest the person deleted stays deleted ("delete to turn off"), one
  // Lore removed for being empty comes back with the first item. Only an explicit regenerate, a
  // harvest or `lore init` creates it otherwise.
  if (options.automatic && current === undefined && !digestEmptied(paths)) return { bytes: 0, changed: false };
  const sections = options.texts
    ? digestSectionsFromTexts(options.texts, DIGEST_MAX_BYTES, agentItemFilter(paths))
    : digestSectionsFromFiles(paths);
  const text = enabled ? renderDigest(sections) : undefined;
  if (text === undefined) {
    removeDigest(paths, enabled ? 'emptied' : 'off');
    return { bytes: 0, changed: current !== undefined };
  }
  if (current === text) return { text, bytes: utf8(text), changed: false };
  writeDigest(paths, text);
  return { text, bytes: utf8(text), changed: true };
}
