/**
 * How a review target reads in a heading and to a person: pure, apart from the review queue's
 * writes (reviewQueue.ts), so the VS Code views can name targets without loading a writer.
 */
import { targetHeading, type ReviewTarget } from './reviewFile';

/** The `##` heading text without `## `: `facts.md`, `tasks.md (Open)`, `files/… (src/app.ts)`. */
export function targetLabel(target: ReviewTarget): string {
  return targetHeading(target).slice(3);
}

/**
 * A target as a person reads it: a note file by the path of the file it is about (its
 * `files/<device>-<inode>.md` name means nothing to them), the others as targetLabel.
 */
export function targetDisplayName(target: ReviewTarget): string {
  if (target.notedPath) return `notes on ${target.notedPath.replace(/[\r\n]/g, ' ')}`;
  return targetLabel(target);
}
