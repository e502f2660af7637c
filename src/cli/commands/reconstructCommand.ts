/**
 * `lore reconstruct --out DIR` replays the kept transcripts through the harvest (another prompt,
 * provider or model) into a separate store; `lore diff DIR` shows what it would change in the
 * live store, and `lore diff DIR --apply` takes that difference (lifecycle/reconstruct.ts,
 * lifecycle/storeDiff.ts). The live store is only read until `--apply`.
 */
import { DEFAULT_TIMEOUT_MS } from '../../core/model/constants';
import { ReconstructRefused, reconstructStore, reconstructedPaths } from '../../core/services/harvest/reconstruct';
import { applyStoreDiff, diffStores, type StoreDiff } from '../../core/store/lifecycle/storeDiff';
import { createProvider, PROVIDER_NAMES } from '../../core/services/providers/providerRegistry';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, envOf, parsePositiveNumber, printable, resolveArg, type Output } from '../cliSupport';
import { applyText, failuresText } from '../harvestReportText';

const OPTIONS = {
  out: { type: 'string', value: 'DIR', help: 'the new store: a new or empty folder, or an earlier reconstruction (made again)' },
  prompt: { type: 'string', value: 'FILE', help: "the harvest prompt to use (default: the live store's)" },
  provider: { type: 'string', value: 'NAME', help: `${PROVIDER_NAMES.join(', ')} (default: rules, the offline extractor)` },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  timeout: { type: 'string' },
} as const;

export const reconstructCommand = command({
  name: 'reconstruct',
  usage: ['--out DIR [--prompt FILE] [--provider NAME] [--model M] [--base-url URL] [--timeout S] [--root DIR] [--json]'],
  description: `Replays the store's kept transcripts (transcripts/) through the harvest into a new store at DIR,
with another prompt, provider or model; the live store is not written. Compare with lore diff DIR.`,
  options: OPTIONS,
  epilogue: '  --model M, --base-url URL, --timeout SECONDS  as for lore harvest',
  takes: { positionals: false },
  run: reconstruct,
});

export const diffCommand = command({
  name: 'diff',
  usage: ['DIR [--apply] [--root DIR] [--json]'],
  description: `What the reconstructed store DIR would change in the live store: items that would appear,
disappear or change (matched by id, then by source and wording), per category and noted file.`,
  options: {
    apply: {
      type: 'boolean',
      help: 'take the difference: new and changed items are written, items that disappear or\nare replaced move to archive/knowledge/ (nothing is deleted)',
    },
  },
  run: diff,
});

async function reconstruct(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  if (!values.out) throw new UsageError('lore reconstruct needs --out DIR');
  const providerName = values.provider ?? (envOf(io).LORE_PROVIDER || 'rules');
  if (!(PROVIDER_NAMES as readonly string[]).includes(providerName))
    throw new UsageError(`unknown provider "${providerName}"; choose one of ${PROVIDER_NAMES.join(', ')}`);
  const timeoutMs = values.timeout ? parsePositiveNumber(values.timeout, '--timeout') * 1000 : DEFAULT_TIMEOUT_MS;
  const provider = createProvider(providerName, { model: values.model, baseUrl: values['base-url'], timeoutMs, env: envOf(io) });
  try {
    const report = await reconstructStore({
      live: paths,
      out: resolveArg(io, values.out),
      provider,
      model: values.model,
      promptFile: values.prompt === undefined ? undefined : resolveArg(io, values.prompt),
      timeoutMs,
      onProgress: values.json ? undefined : (message) => io.err(message),
    });
    if (values.json)
      io.out(
        JSON.stringify(
          {
            out: report.out,
            transcripts: report.transcripts,
            provider: report.provider,
            applied: report.applied,
            failed: report.failed,
            problems: report.problems,
            warnings: report.warnings,
          },
          null,
          2,
        ),
      );
    else {
      if (report.plan && report.applied) io.out(applyText(report));
      const failures = failuresText(report);
      if (failures) io.out(failures);
      io.out(
        `reconstructed ${report.transcripts} transcript(s) into ${printable(report.out)}; compare with: lore diff ${printable(values.out)}`,
      );
    }
    return report.failed > 0 || report.problems.length > 0 ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    if (!(error instanceof ReconstructRefused)) throw error;
    io.err(`lore reconstruct: ${printable(error.message)}`);
    return EXIT_FAILED;
  }
}

function printDiff(diff: StoreDiff, io: Output): void {
  for (const g of diff.groups) {
    if (!g.appear.length && !g.disappear.length && !g.change.length) continue;
    io.out(`## ${printable(g.group)}  (+${g.appear.length} -${g.disappear.length} ~${g.change.length}, ${g.same} the same)`);
    for (const item of g.appear) io.out(`+ ${item.id}  ${printable(item.line)}`);
    for (const item of g.disappear) io.out(`- ${item.id}  ${printable(item.line)}`);
    for (const c of g.change) {
      io.out(`~ ${c.before.id} -> ${c.after.id}  (${Math.round(c.similarity * 100)}% the same words)`);
      io.out(`  - ${printable(c.before.line)}`);
      io.out(`  + ${printable(c.after.line)}`);
    }
  }
  const t = diff.totals;
  io.out(`${t.appear} would appear, ${t.disappear} disappear, ${t.change} change; ${t.same} the same.`);
}

async function diff(parsed: Parsed<{ apply: { type: 'boolean' } }>, io: Output): Promise<number> {
  const { values, positionals, paths } = parsed;
  if (positionals.length !== 1) throw new UsageError('lore diff takes the folder of a reconstructed store');
  let other;
  try {
    other = reconstructedPaths(resolveArg(io, positionals[0]));
  } catch (error) {
    if (!(error instanceof ReconstructRefused)) throw error;
    io.err(`lore diff: ${printable(error.message)}`);
    return EXIT_FAILED;
  }
  if (values.apply) {
    const result = await applyStoreDiff(paths, other);
    if (values.json) io.out(JSON.stringify(result, null, 2));
    else {
      printDiff(result.diff, io);
      io.out(
        `applied: ${result.added} item(s) added, ${result.archived} moved to archive/knowledge/${result.notesKept ? `, ${result.notesKept} note(s) kept` : ''}.`,
      );
      for (const s of result.skipped) io.err(`skipped notes on ${printable(s.path)}: ${printable(s.reason)}`);
    }
    return EXIT_OK;
  }
  const diff = diffStores(paths, other);
  if (values.json) io.out(JSON.stringify(diff, null, 2));
  else {
    printDiff(diff, io);
    if (diff.totals.appear + diff.totals.disappear + diff.totals.change > 0)
      io.out(`preview only; lore diff ${printable(positionals[0])} --apply takes it (what disappears is archived, not deleted).`);
  }
  return EXIT_OK;
}
