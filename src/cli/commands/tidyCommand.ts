/**
 * `lore tidy`: merges the store's duplicate items (every source kept on the surviving line) and
 * marks items corrected by a newer one as superseded, shown first (`--preview`, the default) and
 * written with `--apply` under the store lock; `lore undo` takes an applied tidy back. `lore
 * supersede OLD NEW` marks one item superseded by another by hand.
 */
import { supersedeByHand } from '../../core/store/items/supersedeByHand';
import { createProvider, PROVIDER_NAMES } from '../../core/services/providers/providerRegistry';
import { runTidy, type TidyReport } from '../../core/services/tidy/tidyPlan';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, envOf, printable, type Output } from '../cliSupport';

export const supersedeCommand = command({
  name: 'supersede',
  usage: [{ usage: 'OLD NEW [--file F] [--root DIR] [--json]', does: 'mark item OLD superseded by item NEW (ids)' }],
  options: { file: { type: 'string' } },
  run: supersede,
});

const TIDY_OPTIONS = {
  preview: { type: 'boolean' },
  apply: { type: 'boolean' },
  provider: {
    type: 'string',
    value: 'NAME',
    help: `also ask a model which items say the same or correct each other\n(${PROVIDER_NAMES.filter((p) => p !== 'rules').join(', ')}; prompt: prompts/tidy-items.md)`,
  },
  'no-merge': { type: 'boolean', help: 'only mark supersessions' },
  'no-supersede': { type: 'boolean', help: 'only merge duplicates' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
} as const;

/** The report as JSON: what is proposed, without the plan's file texts. */
function jsonReport(report: TidyReport, applied: boolean): unknown {
  const item = (i: { id: string; raw: string }) => ({ id: i.id, line: i.raw });
  return {
    applied,
    merges: report.merges.map((m) => ({
      file: m.file,
      keep: item(m.keep),
      drop: m.drop.map(item),
      line: m.line,
      similarity: Number(m.similarity.toFixed(3)),
    })),
    supersessions: report.supersessions.map((s) => ({ file: s.file, old: item(s.old), by: item(s.by), reason: s.reason })),
    repointed: report.repointed,
    removedLines: report.removedLines,
    files: report.plan.changes.map((c) => c.file),
    written: report.applied?.written ?? [],
  };
}

function printReport(report: TidyReport, io: Output, apply: boolean): void {
  for (const m of report.merges) {
    io.out(
      `merge in ${printable(m.file)} (${m.similarity === 1 ? 'same text' : `similarity ${m.similarity.toFixed(2)}`}): keep ${m.keep.id}`,
    );
    for (const d of m.drop) io.out(`  - ${d.id}  ${printable(d.raw.trim())}`);
    io.out(`  = ${printable(m.line.trim())}`);
  }
  for (const s of report.supersessions) {
    io.out(`supersede in ${printable(s.file)} (${s.reason}): ${s.old.id} by ${s.by.id}`);
    io.out(`  old: ${printable(s.old.raw.trim())}`);
    io.out(`  new: ${printable(s.by.raw.trim())}`);
  }
  const summary = `${report.merges.length} merge(s) removing ${report.merges.reduce((n, m) => n + m.drop.length, 0)} duplicate line(s), ${report.supersessions.length} supersession(s)${report.repointed ? `, ${report.repointed} marker(s) re-pointed` : ''}`;
  if (report.plan.changes.length === 0 && report.applied)
    io.err('nothing left to tidy; the interrupted apply is finished (lore undo takes it back)');
  else if (report.plan.changes.length === 0) io.err('nothing to tidy');
  else if (apply)
    io.err(`tidied: ${summary}; wrote ${report.applied?.written.filter((f) => f !== 'ledger.json').join(', ')} (lore undo takes it back)`);
  else io.err(`preview: ${summary}; nothing written (lore tidy --apply writes it)`);
}

export const tidyCommand = command({
  name: 'tidy',
  usage: ['[--preview | --apply] [--provider NAME [--model M] [--base-url URL]] [--root DIR] [--json]'],
  description: `Merges duplicate items (the same or nearly the same statement from several conversations) into
one line that keeps every source, [from: a, d1; b, d2], and marks items that a newer one corrects
[superseded by ID, date]: they stay in their files but leave the digest, the context and default
search. Without a model: word overlap, opposite statements, announced changes, playbooks of the
same name. --preview (the default) writes nothing; --apply writes the plan (lore undo takes it back).`,
  options: TIDY_OPTIONS,
  takes: { positionals: false, existingStore: true },
  run: tidy,
});

async function tidy(parsed: Parsed<typeof TIDY_OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  if (values.preview && values.apply) throw new UsageError('--preview and --apply exclude each other');
  const apply = values.apply === true;
  const providerName = values.provider?.trim().toLowerCase();
  if (providerName !== undefined && (!(PROVIDER_NAMES as readonly string[]).includes(providerName) || providerName === 'rules')) {
    throw new UsageError(`--provider expects a model provider: ${PROVIDER_NAMES.filter((p) => p !== 'rules').join(', ')}`);
  }
  const provider = providerName
    ? createProvider(providerName, { model: values.model, baseUrl: values['base-url'], env: envOf(io) })
    : undefined;
  const report = await runTidy(paths, {
    apply,
    merge: !values['no-merge'],
    supersede: !values['no-supersede'],
    provider,
    model: values.model,
    spending: { via: 'cli' },
  });
  for (const warning of report.warnings ?? []) io.err(`warning: ${printable(warning)}`);
  if (values.json) io.out(JSON.stringify(jsonReport(report, apply && report.applied !== undefined), null, 2));
  else printReport(report, io, apply);
  return EXIT_OK;
}

async function supersede(parsed: Parsed<{ file: { type: 'string' } }>, io: Output): Promise<number> {
  if (parsed.positionals.length !== 2) throw new UsageError('name two item ids: OLD NEW');
  const [oldId, newId] = parsed.positionals;
  const result = await supersedeByHand(parsed.paths, oldId, newId, { file: parsed.values.file });
  if (parsed.values.json) io.out(JSON.stringify(result, null, 2));
  if (result.status !== 'recorded' && result.status !== 'unchanged') {
    io.err(`not superseded: ${printable(result.reason ?? result.status)}`);
    return EXIT_FAILED;
  }
  if (!parsed.values.json)
    io.out(
      result.status === 'unchanged'
        ? `unchanged: ${printable(result.reason ?? '')}`
        : `superseded ${result.old!.id} in ${printable(result.old!.file)} by ${result.by!.id} (${printable(result.by!.file)}:${result.by!.line}): ${printable(result.line ?? '')}`,
    );
  return EXIT_OK;
}
