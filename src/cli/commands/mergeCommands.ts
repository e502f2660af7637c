/**
 * `lore merge-driver`, the command git runs to merge a store file (registered in a clone by
 * `lore init`, store/merge/mergeDriver.ts), and `lore reconcile`, which brings the store in step
 * after a merge (store/merge/reconcileMerge.ts; the commands that write the store do it first by
 * themselves).
 */
import * as fs from 'node:fs';
import { decodeLossless, encodeLossless } from '../../core/base/losslessText';
import { mergeStoreFile } from '../../core/model/merge/storeFileMerge';
import { markStoreMerged, storeRootOfMergedFile } from '../../core/store/merge/mergeDriver';
import { reconcileStore, type ReconcileResult } from '../../core/store/merge/reconcileMerge';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, cwdOf, printable, resolveArg, type Output } from '../cliSupport';
import { readStoreFile } from '../../core/base/readText';

export const mergeDriverCommand = command({
  name: 'merge-driver',
  usage: ['BASE OURS THEIRS PATH'],
  description: `Git's merge driver for the store's files (plumbing: git runs it, as lore init registered it in
this clone's git config): merges the ancestor BASE, OURS and THEIRS of the store file PATH by
meaning (items by id, ledger entries by hash, journal days as a union, digest.md kept to be
regenerated) and writes the result to OURS. Exit 0 when merged, 1 when it cannot be (git then
keeps the conflict).`,
  options: {},
  hidden: true,
  takes: { positionals: true },
  run: mergeDriver,
});

async function mergeDriver(parsed: Parsed, io: Output): Promise<number> {
  const { positionals } = parsed;
  if (positionals.length !== 4) throw new UsageError('give BASE OURS THEIRS PATH (git passes %O %A %B %P)');
  const [base, ours, theirs] = positionals.slice(0, 3).map((f) => resolveArg(io, f));
  const file = positionals[3];
  const read = (f: string) => (fs.existsSync(f) ? decodeLossless(readStoreFile(f)) : '');
  const result = mergeStoreFile(file, read(base), read(ours), read(theirs));
  if ('problem' in result) {
    io.err(`lore merge-driver: ${printable(file)}: ${result.problem}; left to git as a conflict`);
    return EXIT_FAILED;
  }
  // git's temporary file for our side, which becomes the merged file: not a store file.
  fs.writeFileSync(ours, encodeLossless(result.text));
  markStoreMerged(storeRootOfMergedFile(cwdOf(io), file));
  if (result.fallback) io.err(`lore merge-driver: ${printable(file)} merged as a union of lines`);
  return EXIT_OK;
}

export const reconcileCommand = command({
  name: 'reconcile',
  usage: ['[--root DIR] [--json]'],
  description: `Brings the store in step after a git merge or pull: drops items a teammate forgot (their
tombstones arrived in ledger.json), folds one statement on two lines into one line with every
source, and regenerates digest.md and the instruction files' knowledge block. Lore's commands that
write the store do this by themselves after a merge Lore's driver took part in; this runs it now.`,
  options: {},
  takes: { positionals: false, existingStore: true },
  run: reconcile,
});

async function reconcile(parsed: Parsed, io: Output): Promise<number> {
  const result = await reconcileStore(parsed.paths);
  if (parsed.values.json) io.out(JSON.stringify(result, null, 2));
  else io.out(reconcileText(result));
  return EXIT_OK;
}

/** What a reconcile did, in a line or two. */
export function reconcileText(result: ReconcileResult): string {
  const lines = [result.files.length ? `reconciled ${result.files.map((f) => printable(f)).join(', ')}` : 'nothing to reconcile'];
  const derived = [...(result.derived.digest ? ['digest.md'] : []), ...result.derived.instructionFiles];
  if (derived.length) lines.push(`regenerated ${derived.map((f) => printable(f)).join(', ')}`);
  return lines.join('\n');
}
