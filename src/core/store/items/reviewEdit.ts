/**
 * A person edits an item waiting in the review queue before accepting it (the Review view's
 * Edit, `lore review edit N TEXT`): the new text replaces the item's text, its provenance and
 * what accepting it does (the `[pending: …]` marker) stay. The text is redacted and neutralized
 * like any other, and checked by the instruction rules again (a person may accept it anyway).
 */
import { redactSecrets } from '../../model/safety/redact';
import { flagInstruction, flagKinds } from '../../model/safety/instructionFlags';
import { editStoreFile } from '../../base/storeText';
import { acquireStoreLock } from '../../base/storeLock';
import { recordStoreChange } from '../history/storeHistory';
import { personalStorePaths, type StorePaths } from '../storePaths';
import { renderItemLine } from '../../model/itemLines';
import { neutralizeItemText, parseProvenance } from '../../model/provenance';
import { parseReview, rewriteReviewEntry } from '../../model/reviewFile';
import { PERSONAL_REVIEW_PREFIX, reviewItemId, reviewItemLayer, reviewPath } from './reviewQueue';

export type ReviewEditResult = { edited: true; line: string; id: string } | { edited: false; reason: string };

/** The item line with its text replaced, the provenance (and a playbook's name markup, if the text has none) kept. */
function withText(line: string, text: string): string {
  const provenance = parseProvenance(line);
  const body = neutralizeItemText(redactSecrets(text));
  return renderItemLine(body, provenance && { source: provenance.source, date: provenance.date });
}

/** Replaces the text of queued item `id` (a ReviewItem id); what it does on accept stays. */
export async function editReviewItem(
  paths: StorePaths,
  id: string,
  text: string,
  options: { lockTimeoutMs?: number } = {},
): Promise<ReviewEditResult> {
  if (!neutralizeItemText(text)) return { edited: false, reason: 'the text is empty' };
  const lock = await acquireStoreLock(paths.root, options.lockTimeoutMs);
  try {
    // An item of the personal layer is edited in the layer's own review.md (under the store's one lock).
    if (reviewItemLayer(id) === 'personal') {
      const edited = await editInLayer(personalStorePaths(paths), id.slice(PERSONAL_REVIEW_PREFIX.length), text);
      return edited.edited ? { ...edited, id: PERSONAL_REVIEW_PREFIX + edited.id } : edited;
    }
    return await editInLayer(paths, id, text);
  } finally {
    lock.release();
  }
}

/** The edit in one layer's review.md (caller holds the lock). */
async function editInLayer(paths: StorePaths, id: string, text: string): Promise<ReviewEditResult> {
  let result: ReviewEditResult = { edited: false, reason: 'that item is no longer waiting for review' };
  editStoreFile(reviewPath(paths), (current) => {
    if (current === undefined) return undefined;
    const entry = parseReview(current).entries.find((e) => reviewItemId('queue', e.target, e.line, e.pending) === id);
    if (!entry) return undefined;
    if (entry.pending && (entry.pending.op === 'done' || entry.pending.op === 'forget')) {
      result = { edited: false, reason: `a pending "${entry.pending.op}" acts on an item as it is; reject it and edit the item instead` };
      return undefined;
    }
    const line = withText(entry.line, text);
    result = { edited: true, line, id: reviewItemId('queue', entry.target, line, entry.pending) };
    return rewriteReviewEntry(current, entry, line, flagKinds(flagInstruction(line)));
  });
  const done = result as ReviewEditResult; // Assigned in the edit callback, which TypeScript does not follow.
  if (done.edited)
    await recordStoreChange(paths, {
      type: 'memory',
      subject: `review: edited ${id} (now ${done.id})`,
      body: [`Item ${done.id}: ${done.line.slice(0, 200)}`],
    });
  return result;
}
