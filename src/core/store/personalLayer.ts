/**
 * The personal layer: knowledge that is the person's own (their preferences, their machine, their
 * habits) and does not belong in the team's git history. It is a store of its own under the
 * workspace store's `personal/` folder (storePaths.ts; git-ignored, initStore.ts), with the same
 * category files, its own review.md (acceptances and agents' pending writes of personal items),
 * ledger.json (tombstones of forgotten personal items) and journal. What agents get combines it
 * with the shared store (the context, the hooks, search and reading items by id); what is committed
 * (digest.md, the instruction-file blocks, review.md, the journal, commit messages) holds only
 * the shared store. The shared store names the layer's files `personal/<file>`, so an item's id
 * finds it in either layer and an item keeps its id and provenance when it moves between them.
 */
import * as fs from 'node:fs';
import { combineDigests, parseDigest, renderDigest, type DigestSection } from '../model/digestFormat';
import { digestSectionsFromFiles } from './digest';
import { personalStorePaths, type StorePaths } from './storePaths';

/** Whether the store has a personal layer (its folder exists). */
export function hasPersonalLayer(paths: StorePaths): boolean {
  return fs.existsSync(personalStorePaths(paths).root);
}

/**
 * The personal layer's digest sections as agents may see them: current items that are clean or
 * that the person accepted (the layer's own review.md), newest first, within the digest's 4 KB.
 * Made from the category files on every call (they are small and read from their ends), so there
 * is no derived file to go stale. Empty without a personal layer.
 */
export function personalDigestSections(paths: StorePaths): DigestSection[] {
  if (paths.layer === 'personal' || !hasPersonalLayer(paths)) return [];
  const rendered = renderDigest(digestSectionsFromFiles(personalStorePaths(paths)));
  return rendered === undefined ? [] : parseDigest(rendered);
}

/**
 * The digest agents get: the shared digest (as the caller read it, held items already left out)
 * followed by the person's own sections. Undefined when the shared digest is off (digest.md
 * deleted: "delete to turn off" switches the whole knowledge block off).
 */
export function withPersonalDigest(paths: StorePaths, shared: string | undefined): string | undefined {
  return shared === undefined ? undefined : combineDigests(shared, personalDigestSections(paths));
}
