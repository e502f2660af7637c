/**
 * `lore prune`: the memory lifecycle's budgets and decay (lifecycle/prune.ts). A preview by
 * default; `--apply` moves what it proposes to archive/knowledge/ under the store lock;
 * `--restore ID` brings one item back. Nothing is deleted.
 */
import { applyPrune, previewPrune, restoreArchivedItem, type PrunePlan } from '../../core/store/lifecycle/prune';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, printable, type Output } from '../cliSupport';

const OPTIONS = {
  preview: { type: 'boolean', help: 'say what would move (the default)' },
  apply: { type: 'boolean', help: 'move it, under the store lock; the digest is regenerated' },
  restore: { type: 'string', value: 'ID', help: 'bring an archived item back to its category file' },
  now: { type: 'string', value: 'ISO', help: 'decide as of this moment instead of now' },
} as const;

function parseNow(value: string | undefined): Date {
  if (value === undefined) return new Date();
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new UsageError(`--now must be a date and time (ISO 8601, e.g. 2026-01-06T09:30:00Z), not "${value}"`);
  return new Date(ms);
}

function printPlan(plan: PrunePlan, applied: boolean, io: Output): void {
  const c = plan.config;
  io.out(
    `Half-life ${c.halfLifeDays} days; archived below weight ${c.archiveBelow} (about ${Math.round(c.halfLifeDays * Math.log2(1 / c.archiveBelow))} days unused); usage recorded since ${plan.usageSince}.`,
  );
  for (const b of plan.categories) {
    const over = b.items > b.budget ? `, ${b.items - b.budget} over budget` : '';
    io.out(
      `  ${b.category.padEnd(10)} ${String(b.items).padStart(5)} / ${b.budget}${over}${b.decays ? '' : ' (kept: decays only when superseded)'}${b.archived ? `; ${b.archived} archived` : ''}`,
    );
  }
  io.out(`  ${'digest'.padEnd(10)} ${String(plan.digest.bytes).padStart(5)} / ${plan.digest.budget} bytes`);
  if (plan.candidates.length === 0) {
    io.out(applied ? 'Nothing archived: no item decayed.' : 'Nothing to archive: no item decayed.');
    return;
  }
  io.out(applied ? `Archived ${plan.candidates.length} item(s):` : `Would archive ${plan.candidates.length} item(s):`);
  for (const item of plan.candidates) {
    const why = item.reason === 'unused' ? `unused ${item.ageDays} days` : `over budget, unused ${item.ageDays} days`;
    io.out(
      `  ${item.id}  ${item.category}  weight ${item.weight.toFixed(2)} (${why}; ${item.uses} use${item.uses === 1 ? '' : 's'}${item.lastUse ? `, last ${item.lastUse}` : ''})  ${printable(item.line)}`,
    );
  }
  if (!applied) io.out('Run lore prune --apply to move them to archive/knowledge/ (lore prune --restore ID brings one back).');
}

export const pruneCommand = command({
  name: 'prune',
  usage: ['[--preview | --apply | --restore ID] [--root DIR] [--now ISO] [--json]'],
  description: `Shows each category against its budget and the items that decayed (unused and unedited for long:
their weight halves every half-life, 30 days by default; decisions and playbooks do not decay
unless superseded), proposed for archive/knowledge/. Uses are search hits, recall, agents' reads
over MCP and what hooks inject. Settings: "lifecycle" in config.json (halfLifeDays, archiveBelow,
keep, budgets).`,
  options: OPTIONS,
  takes: { positionals: false, existingStore: true },
  run: prune,
});

async function prune(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  const modes = [values.preview, values.apply, values.restore !== undefined].filter(Boolean).length;
  if (modes > 1) throw new UsageError('choose one of --preview, --apply and --restore');
  const now = parseNow(values.now);
  if (values.restore !== undefined) {
    const result = await restoreArchivedItem(paths, values.restore, { now });
    if (values.json) io.out(JSON.stringify(result, null, 2));
    else if (result.status === 'restored') io.out(`restored ${result.item.id} to ${result.item.file}: ${printable(result.item.line)}`);
    else io.err(`not restored: ${printable(result.reason)}`);
    return result.status === 'restored' ? EXIT_OK : EXIT_FAILED;
  }
  const plan = values.apply ? await applyPrune(paths, { now }) : previewPrune(paths, now);
  for (const warning of plan.warnings) io.err(`warning: ${printable(warning)}`);
  if (values.json) io.out(JSON.stringify({ applied: values.apply === true, ...plan }, null, 2));
  else printPlan(plan, values.apply === true, io);
  return EXIT_OK;
}
