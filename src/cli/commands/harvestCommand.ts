/**
 * `lore harvest`: dry run by default; `--preview` distills and prints the plan as a diff;
 * `--apply` distills (reusing preview's cached replies), writes and reclaims.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_TIMEOUT_MS } from '../../core/constants';
import { runHarvest, type HarvestMode } from '../../core/harvest/runHarvest';
import { targetLabel } from '../../core/knowledge/reviewQueue';
import { createProvider, PROVIDER_NAMES } from '../../core/providers/providerRegistry';
import { RECLAIM_MODES, type ReclaimMode } from '../../core/store/storeConfig';
import { COMMON_OPTIONS, EXIT_FAILED, EXIT_OK, UsageError, parseBytes, parsePositiveNumber, printable, resolveStore, resolveArg, envOf, type Output } from '../cliSupport';
import { applyText, dryRunText, failuresText, planText } from '../harvestReportText';

export const HARVEST_HELP = `lore harvest [--root DIR] [--from PATH]... [--preview | --apply] [--no-harvest]
             [--provider NAME] [--model M] [--base-url URL] [--max-harvest-bytes N]
             [--timeout SECONDS] [--reclaim delete|archive|keep] [--live-minutes N] [--json]

Harvests durable knowledge from conversations into the store's category files.
  (default)          dry run: classify and estimate; calls no model, writes nothing
  --preview          distill with the model and print the plan as a unified diff; writes no knowledge
  --apply            distill (or reuse --preview's replies), write, regenerate the digest, reclaim
  --from PATH        a conversation file or folder (repeatable; default: the store's inbox/).
                     Files outside the inbox are read, never deleted.
  --no-harvest       record the conversations as deleted-unharvested and reclaim them without a model
  --provider NAME    ${PROVIDER_NAMES.join(', ')} (default: rules, the offline marker extractor)
  --model M          the provider's model
  --base-url URL     the provider's endpoint (any OpenAI-compatible server with --provider openai)
  --max-harvest-bytes N  distill at most N bytes this run (e.g. 5MB); the rest is deferred
  --timeout SECONDS  per model call (default ${DEFAULT_TIMEOUT_MS / 1000})
  --reclaim MODE     what happens to inbox conversations after a proven harvest (default: store config, else delete)
  --live-minutes N   agent logs outside the inbox modified within N minutes are left alone (default 5)
  --json             print the report as JSON on stdout
Exit status: 0 all done, 1 some conversations failed (listed), 2 usage error.`;

export async function harvestCommand(argv: string[], io: Output): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...COMMON_OPTIONS,
      from: { type: 'string', multiple: true },
      preview: { type: 'boolean' },
      apply: { type: 'boolean' },
      'no-harvest': { type: 'boolean' },
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'max-harvest-bytes': { type: 'string' },
      timeout: { type: 'string' },
      reclaim: { type: 'string' },
      'live-minutes': { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
    },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) {
    io.out(HARVEST_HELP);
    return EXIT_OK;
  }
  if (values.preview && values.apply) throw new UsageError('choose one of --preview and --apply');
  const mode: HarvestMode = values.apply ? 'apply' : values.preview ? 'preview' : 'dry-run';
  const reclaim = values.reclaim as ReclaimMode | undefined;
  if (reclaim && !RECLAIM_MODES.includes(reclaim)) throw new UsageError(`--reclaim must be one of ${RECLAIM_MODES.join(', ')}`);
  const providerName = values.provider ?? (envOf(io).LORE_PROVIDER || 'rules');
  if (!(PROVIDER_NAMES as readonly string[]).includes(providerName)) {
    throw new UsageError(`unknown provider "${providerName}"; choose one of ${PROVIDER_NAMES.join(', ')}`);
  }
  const timeoutMs = values.timeout ? parsePositiveNumber(values.timeout, '--timeout') * 1000 : DEFAULT_TIMEOUT_MS;
  const paths = resolveStore(values.root, values.workspace, io);
  const provider = createProvider(providerName, { model: values.model, baseUrl: values['base-url'], timeoutMs, env: envOf(io) });

  const controller = new AbortController();
  const onSigint = () => {
    io.err('lore: cancelling (nothing will be written) …');
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    const report = await runHarvest({
      paths,
      sources: values.from?.map((f) => resolveArg(io, f)),
      mode,
      noHarvest: values['no-harvest'],
      provider,
      model: values.model,
      timeoutMs,
      maxHarvestBytes: values['max-harvest-bytes'] ? parseBytes(values['max-harvest-bytes'], '--max-harvest-bytes') : undefined,
      liveWindowMs: values['live-minutes'] !== undefined ? parsePositiveNumber(values['live-minutes'], '--live-minutes') * 60_000 : undefined,
      reclaim,
      signal: controller.signal,
      onProgress: values.quiet || values.json ? undefined : (message) => io.err(message),
    });
    if (values.json) {
      io.out(JSON.stringify(jsonReport(report), null, 2));
    } else {
      io.out(dryRunText(report));
      if (report.cancelled) io.out('cancelled; nothing was written');
      else if (mode === 'dry-run') io.out('dry run; pass --preview to see the plan or --apply to harvest and reclaim');
      else if (mode === 'preview') {
        const text = planText(report.plan!);
        io.out(text || 'nothing to change');
        io.out('preview only; nothing was written. Pass --apply to write this.');
      } else io.out(applyText(report));
      const failures = failuresText(report);
      if (failures) io.out(failures);
      if (mode === 'apply' && !report.cancelled) {
        io.out(`digest: ${printable(paths.digest)}`);
        io.out(`ledger: ${printable(paths.ledger)}`);
      }
    }
    const trouble = report.failed > 0 || report.cancelled || report.problems.length > 0 || (report.applied?.reclaimErrors.length ?? 0) > 0;
    return trouble ? EXIT_FAILED : EXIT_OK;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** The report as stable JSON (plans carry full file texts, so only their summaries go here). */
function jsonReport(report: Awaited<ReturnType<typeof runHarvest>>) {
  return {
    mode: report.mode,
    store: report.store,
    provider: report.provider,
    sources: report.sources,
    counts: report.totals.counts,
    harvestBytes: report.totals.harvestBytes,
    estimatedTokens: report.totals.estimatedTokens,
    overSummarizeThreshold: report.totals.overSummarizeThreshold,
    modelCalls: report.modelCalls,
    cancelled: report.cancelled,
    failed: report.failed,
    conversations: report.conversations.map((c) => ({
      path: c.path, sha256: c.sha256, bytes: c.bytes, class: c.class, inInbox: c.inInbox,
      id: c.id, status: c.status, items: c.items, error: c.error, calls: c.calls, summarized: c.summarized, reclaim: c.reclaim, reason: c.reason,
    })),
    items: report.plan?.items,
    changes: report.plan?.changes.map((c) => ({ file: c.file, added: c.added, removed: c.after === undefined })),
    held: report.plan?.held.map((h) => ({ file: targetLabel(h.target), line: h.line, kinds: h.kinds })),
    reclaimed: report.applied?.reclaimed,
    problems: report.problems,
    warnings: report.warnings,
  };
}
