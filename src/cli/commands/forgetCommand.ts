/**
 * `lore forget ID`: forgets an item (an 8-character item id, at once, as a person's decision) or
 * a whole conversation (its id as the ledger and `[from: …]` name it: a plan first, `--apply` to
 * do it). An id that names both is refused until `--item` or `--conversation` says which.
 */
import { changeItem } from '../../core/store/items/agentWrites';
import { findItemsById } from '../../core/store/items/itemLocator';
import { isItemId } from '../../core/model/itemId';
import { applyForget, isEmptyForgetPlan, planForget, type ForgetPlan } from '../../core/store/forget/forgetConversation';
import { purgeStoreIndex } from '../../core/services/search/forgetIndex';
import { applyPurgeHistory, planPurgeHistory } from '../../core/store/forget/purgeHistory';
import type { StorePaths } from '../../core/store/storePaths';
import { reportHistory } from '../historyText';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, printable, type Output } from '../cliSupport';

const OPTIONS = {
  file: { type: 'string' },
  item: { type: 'boolean' },
  conversation: { type: 'boolean' },
  preview: { type: 'boolean' },
  apply: { type: 'boolean' },
  'purge-history': { type: 'boolean' },
} as const;

export const forgetCommand = command({
  name: 'forget',
  usage: [
    {
      usage: 'ID [--item | --conversation | --purge-history] [--apply] [--file F] [--root DIR] [--json]',
      does: `forget an item by its id (at once; F: its store file, when it is in several), or
a conversation by its id: every line only it taught, its provenance on shared
lines, its transcript, copies, cached replies and index rows (a plan; --apply
does it). The ledger keeps a tombstone, so a harvest never brings them back.
Git keeps what earlier commits held: --purge-history (after the forget) lists the
commits of a store that is its own repository that still hold the conversation,
and with --apply rewrites them without it (nothing is pushed).`,
    },
  ],
  options: OPTIONS,
  run: forget,
});

async function forget(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  if (parsed.positionals.length !== 1) throw new UsageError('name one item id or conversation id');
  const id = parsed.positionals[0].trim();
  if (values.item && values.conversation) throw new UsageError('--item and --conversation exclude each other');
  if (values.apply && values.preview) throw new UsageError('--preview and --apply exclude each other');
  if (values['purge-history']) {
    if (values.item || values.file) throw new UsageError('--purge-history takes a conversation id');
    return purgeHistory(paths, id, values.apply === true, values.json === true, io);
  }
  const asItem = values.item || (!values.conversation && isItemId(id) && findItemsById(paths, id).length > 0);
  const plan = values.item ? undefined : planForget(paths, id);
  const asConversation = values.conversation || (plan !== undefined && (!isEmptyForgetPlan(plan) || plan.forgottenAt !== undefined));
  if (asItem && asConversation && !values.item && !values.conversation) {
    io.err(`${printable(id)} names both an item and a conversation: add --item or --conversation`);
    return EXIT_FAILED;
  }
  if (asItem) return forgetItem(paths, id, values.file, io);
  if (!asConversation || !plan) {
    io.err(
      `no item or conversation ${printable(id)} in this store (an edited item has a new id; a conversation is named as in [from: …] or the ledger)`,
    );
    return EXIT_FAILED;
  }
  if (values.file) throw new UsageError("--file names an item's file; a conversation is forgotten everywhere");
  if (!values.apply) {
    if (values.json) io.out(JSON.stringify({ mode: 'preview', ...plan }, null, 2));
    else printPlan(plan, io);
    return EXIT_OK;
  }
  const result = await applyForget(paths, id, { reindex: () => purgeStoreIndex(paths) });
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          mode: 'apply',
          ...result.plan,
          written: result.written,
          removedFiles: result.removedFiles,
          instructionFiles: result.instructionFiles,
          problems: result.problems,
        },
        null,
        2,
      ),
    );
  } else {
    const p = result.plan;
    const derived = [...(result.written.includes('digest.md') ? ['digest.md'] : []), ...result.instructionFiles];
    if (p.forgottenAt && p.removed.length + p.trimmed.length === 0) {
      // A re-run (an earlier forget was interrupted, or is being checked): say what it finished, not "0 items removed".
      const finished = [...result.removedFiles, ...derived];
      io.out(
        `conversation ${printable(id)} was forgotten on ${p.forgottenAt.slice(0, 10)}; ${finished.length ? `this run finished it: ${finished.map((f) => printable(f)).join(', ')}` : 'nothing of it was left'}`,
      );
    } else {
      io.out(
        `forgot conversation ${printable(id)}: ${count(p.removed.length, 'item')} removed, ${count(p.trimmed.length, 'shared item')} kept without its provenance, ${count(result.removedFiles.length, 'file')} removed`,
      );
      if (derived.length) io.out(`rewritten without it: ${derived.map((f) => printable(f)).join(', ')}`);
    }
    io.out('the ledger keeps a tombstone: a harvest skips this conversation and the removed items from now on');
  }
  for (const problem of result.problems) io.err(`not removed: ${printable(problem.file)}: ${printable(problem.message)}`);
  reportHistory(io, result.history);
  // Git keeps every earlier version: forgetting in the store does not rewrite history that was already committed.
  if (result.history)
    io.err(
      `note: earlier commits of the store still hold what was forgotten; lore forget ${printable(id)} --purge-history lists them (and rewrites them, for a store that is its own repository)`,
    );
  return result.problems.length ? EXIT_FAILED : EXIT_OK;
}

async function purgeHistory(paths: StorePaths, id: string, apply: boolean, json: boolean, io: Output): Promise<number> {
  const result = apply ? await applyPurgeHistory(paths, id) : { plan: await planPurgeHistory(paths, id), rewritten: 0, head: undefined };
  const { plan } = result;
  if (json) {
    io.out(
      JSON.stringify(
        { mode: apply ? 'apply' : 'preview', ...plan, ...(apply ? { rewritten: result.rewritten, head: result.head } : {}) },
        null,
        2,
      ),
    );
    return plan.status === 'ready' ? EXIT_OK : EXIT_FAILED;
  }
  if (plan.status === 'refused') {
    io.err(`history not purged: ${printable(plan.reason)}`);
    return EXIT_FAILED;
  }
  if (plan.commits.length === 0) {
    io.out(`no commit of the store's history (${plan.total}) holds conversation ${printable(id)}`);
    return EXIT_OK;
  }
  io.out(
    `${apply ? 'rewrote' : 'would rewrite'} ${plan.commits.length} of ${plan.total} commit(s) that hold conversation ${printable(id)}${apply ? ` (and the ${result.rewritten - plan.commits.length} after them)` : ', and every commit after them'}:`,
  );
  for (const c of plan.commits)
    io.out(`  ${c.commit.slice(0, 12)}  ${printable(c.subject)}  (${c.files.map((f) => printable(f)).join(', ')})`);
  if (plan.otherRefs.length)
    io.out(`refs of yours that still hold it (left as they are): ${plan.otherRefs.map((r) => printable(r)).join(', ')}`);
  if (!apply) {
    io.out(
      `preview; nothing is rewritten until you run this again with --apply (commit ids change; a clone or remote keeps the old history until you force-push)`,
    );
    return EXIT_OK;
  }
  io.out(
    `the branch and Lore's daily tags now point at the rewritten commits, and the old ones were pruned; a clone or remote still has them: force-push (git push --force-with-lease) to replace it`,
  );
  return EXIT_OK;
}

async function forgetItem(paths: StorePaths, id: string, file: string | undefined, io: Output): Promise<number> {
  const result = await changeItem(paths, { op: 'forget', id, file }, { source: 'manual', today: new Date(), mode: 'direct' });
  if (result.status !== 'recorded') {
    io.err(`not forgotten: ${printable(result.reason ?? result.status)}`);
    return EXIT_FAILED;
  }
  io.out(`forgot ${result.id} from ${printable(result.file ?? '')}: ${printable(result.line ?? '')}`);
  reportHistory(io, result.history);
  return EXIT_OK;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The plan as a person reads it before saying yes. */
function printPlan(plan: ForgetPlan, io: Output): void {
  io.out(`forget conversation ${printable(plan.conversation)} (preview; nothing is written until you run this again with --apply)`);
  if (plan.forgottenAt) io.out(`forgotten before, on ${plan.forgottenAt.slice(0, 10)}; this finishes what is left`);
  if (plan.contents.length) io.out(`ledger entries: ${plan.contents.length} (${plan.contents.map((c) => printable(c.path)).join(', ')})`);
  io.out(`items removed (${plan.removed.length}):`);
  for (const r of plan.removed) io.out(`  ${r.id}  ${printable(r.file)}: ${printable(r.line)}`);
  if (plan.trimmed.length) {
    io.out(`items other sources taught too, kept without its provenance (${plan.trimmed.length}):`);
    for (const t of plan.trimmed) io.out(`  ${printable(t.file)}: ${printable(t.after)}`);
  }
  if (plan.review.length) io.out(`review.md entries removed: ${plan.review.length}`);
  if (plan.journals.length)
    io.out(`journal days losing its section (and their model summary): ${plan.journals.map((f) => printable(f)).join(', ')}`);
  io.out(`files removed (${plan.files.length}):`);
  for (const f of plan.files) io.out(`  ${printable(f.file)} (${f.kind})`);
  io.out('search index: its rows go, and the index is purged');
  if (plan.outside.length) {
    io.out("left where they are (outside the store, not Lore's to delete; never harvested again):");
    for (const o of plan.outside) io.out(`  ${printable(o)}`);
  }
}
