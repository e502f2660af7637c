/**
 * The user's text files (category files, notes, review.md, instruction files) as text that
 * round-trips byte for byte, edited through the guarded replacement.
 */
import { decodeLossless, encodeLossless } from './losslessText';
import { replaceGuarded, type GuardedReplace, type GuardedReplaceOptions } from './guardedReplace';

/** An edit of a text file; `text` is undefined when the file does not exist; undefined = no change. */
export type TextEdit = (text: string | undefined) => string | undefined;

/**
 * replaceGuarded for text that must round-trip byte for byte (the user's category and note
 * files): decoded and encoded losslessly, so invalid UTF-8 a person wrote stays as it was.
 */
export function replaceTextGuarded(file: string, edit: TextEdit, options: GuardedReplaceOptions = {}): GuardedReplace {
  return replaceGuarded(
    file,
    (bytes) => {
      const next = edit(bytes === undefined ? undefined : decodeLossless(bytes));
      return next === undefined ? undefined : encodeLossless(next);
    },
    options,
  );
}

/** Edits a text file the user may be editing too (replaceTextGuarded, settled at once); true when it changed. */
export function editStoreFile(file: string, edit: TextEdit): boolean {
  return replaceTextGuarded(file, edit).settle().changed;
}
