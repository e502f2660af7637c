/**
 * The store's part of the hook's context: the digest block and the notes of the files a prompt
 * names, as loadContextInputs would load them (held items left out) and then redacted, the
 * digest cut to its share. Each block is a pure function of the texts it is made from and
 * review.md, so it is made through the block memo (hookBlockCache.ts): a prompt on an unchanged
 * store reads the files, hashes them and takes the blocks as they were made. The same goes for
 * the texts of the files topics subscribe to.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileNotesInput } from '../promptCache/contextLayers';
import { displayPath } from '../context/loadContextInputs';
import { isItemLine } from '../../model/itemLines';
import { acceptedIdentitiesIn, itemFilter, readReviewText, withoutHeldItems, type AgentItemFilter } from '../../store/heldItems';
import { redactSecrets } from '../../model/safety/redact';
import { noteTextOf } from '../../store/fileNotes';
import { parseNoteFile } from '../../model/noteFile';
import type { NoteIndex } from '../../store/noteIndex';
import { openNoteIndex } from '../../store/noteIndexCache';
import { personalDigestSections } from '../../store/personalLayer';
import { combineDigests } from '../../model/digestFormat';
import type { StorePaths } from '../../store/storePaths';
import { readDigestText } from '../../store/digestSwitch';
import type { SubscriptionMaker } from '../topics/subscriptions';
import type { HookBlockMemo } from './hookBlockCache';

/** The digest's share: its own cap is 4 KB, so only a hand-grown digest.md is cut here. */
const DIGEST_MAX_CHARS = 5_000;

/** What stands for review.md in a key when there is none (no file's text is this). */
const NO_REVIEW = '\0none';

/** The digest and file-note blocks of a hook's context. */
export interface HookBlocks {
  /** Undefined without digest.md or without items in it. */
  digest?: string;
  /** Files with notes an agent may see, in the order given, path and notes redacted. */
  fileNotes: FileNotesInput[];
}

/** The digest cut at a line boundary to `max` characters, with a visible line saying so. */
function fitDigest(digest: string, max: number): string {
  if (digest.length <= max) return digest;
  const marker = '(truncated for the hook; see .lore/digest.md)';
  const end = digest.lastIndexOf('\n', max - marker.length - 1);
  return `${digest.slice(0, Math.max(0, end))}\n${marker}`;
}

/**
 * digest.md as the hook hands it out; null when it has no items (a new store: only its header
 * adds nothing worth a prompt's tokens).
 */
function digestBlock(onDisk: string, keep: AgentItemFilter): string | null {
  const digest = withoutHeldItems(onDisk, keep);
  return digest.split('\n').some(isItemLine) ? fitDigest(redactSecrets(digest), DIGEST_MAX_CHARS) : null;
}

/** A note file's notes as the hook hands them out; null when none is left. */
function notesBlock(text: string, shown: string, keep: AgentItemFilter): FileNotesInput | null {
  const notes = parseNoteFile(text)
    .notes.map((n) => n.text)
    .filter(keep);
  return notes.length ? { path: redactSecrets(shown), notes: notes.map(redactSecrets) } : null;
}

/**
 * A topic subscription's text through the memo: made again when the file's text, whether it
 * lies in the store, or review.md changed. review.md is read on the first subscription.
 */
export function memoizedSubscriptions(paths: StorePaths, memo: HookBlockMemo): SubscriptionMaker {
  let review: string | undefined;
  return (relative, text, inStore, make) => {
    review ??= readReviewText(paths) ?? NO_REVIEW;
    return memo.get(`subscription ${relative}`, [text, review, inStore ? 'store' : 'workspace'], make);
  };
}

/**
 * Loads the blocks: `files` are absolute or workspace-relative; a missing file or one without
 * notes adds nothing. The memo is consulted and filled, not saved (the caller saves once).
 */
export function loadHookBlocks(paths: StorePaths, files: readonly string[], memo: HookBlockMemo): HookBlocks {
  const review = readReviewText(paths);
  let keep: AgentItemFilter | undefined; // Parsed from review.md only when a block is made.
  const keepOf = () => (keep ??= itemFilter(acceptedIdentitiesIn(review)));
  const reviewInput = review ?? NO_REVIEW;
  const onDisk = readDigestText(paths);
  const shared = onDisk === undefined ? null : memo.get('digest', [onDisk, reviewInput], () => digestBlock(onDisk, keepOf()));
  // The person's own sections (personal layer, filtered by its own review.md) follow the shared block.
  const digest = onDisk === undefined ? null : combineDigests(shared ?? '', personalDigestSections(paths)) || null;
  const fileNotes: FileNotesInput[] = [];
  let index: NoteIndex | undefined; // Opened once, and only when a file is given.
  for (const given of files) {
    const absolute = path.resolve(paths.workspace, given);
    if (!fs.existsSync(absolute)) continue;
    const found = noteTextOf(paths, absolute, (index ??= openNoteIndex(paths)));
    if (!found) continue;
    const shown = displayPath(paths, absolute);
    const block = memo.get(`notes ${path.basename(found.file)}`, [found.text, reviewInput, shown], () =>
      notesBlock(found.text, shown, keepOf()),
    );
    if (block) fileNotes.push(block);
  }
  return { digest: digest ?? undefined, fileNotes };
}
