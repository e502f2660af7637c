/**
 * `lore harvest`: dry run by default; `--preview` distills and prints the plan as a diff (and
 * with `--save-plan F` keeps it); `--apply-plan F` writes exactly that plan without a model
 * call; `--apply` distills (reusing preview's cached replies), writes and reclaims in one go.
 */
import { recentCacheSessions } from '../../core/services/promptCache/cacheReport';
import {
  prefixChanges,
  recacheEstimate,
  recacheText,
  warmSessionsText,
  type RecacheEstimate,
} from '../../core/services/promptCache/prefixCost';
import { DEFAULT_TIMEOUT_MS } from '../../core/model/constants';
import { instructionFilesWithBlock } from '../../core/store/instructionSync';
import { currentHost } from '../../core/services/discovery/host';
import { applyPreviewedHarvest } from '../../core/services/harvest/applyPreviewed';
import { runHarvest, type HarvestMode, type HarvestReport } from '../../core/services/harvest/runHarvest';
import { targetLabel } from '../../core/store/items/reviewQueue';
import { createProvider, PROVIDER_NAMES } from '../../core/services/providers/providerRegistry';
import { writeFileAtomic } from '../../core/base/atomicWrite';
import { RECLAIM_MODES, type ReclaimMode } from '../../core/model/storeConfigFormat';
import type { StorePaths } from '../../core/store/storePaths';
import { command, type Parsed } from '../command';
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  parseBytes,
  parsePositiveNumber,
  printable,
  resolveArg,
  envOf,
  type Output,
} from '../cliSupport';
import { applyText, dryRunText, failuresText, planText, staleText, writtenText, type SourcesRead } from '../harvestReportText';
import { defaultHarvestSources, workspaceSessionsOf } from '../../core/services/harvest/agentSources';
import { loadStoreConfig } from '../../core/store/storeConfig';
import type { ProviderErrorKind } from '../../core/services/providers/provider';
import { lazy } from '../../core/base/lazy';
import { readStoreFile } from '../../core/base/readText';

const savedPlanModule = lazy(
  () => require('../../core/services/harvest/savedPlan') as typeof import('../../core/services/harvest/savedPlan'),
);

const OPTIONS = {
  'dry-run': { type: 'boolean', help: '(the default) classify and estimate; calls no model, writes nothing' },
  preview: { type: 'boolean', help: 'distill with the model and print the plan as a unified diff; writes no knowledge' },
  'save-plan': {
    type: 'string',
    value: 'FILE',
    help: "with --preview: also save the plan to FILE (JSON; it holds the store files' texts)",
  },
  'apply-plan': {
    type: 'string',
    value: 'FILE',
    help: `write exactly the plan saved by --preview --save-plan; calls no model. Refused,
writing nothing, when a conversation it harvests changed, a new one arrived or
the ledger changed since; files edited since get the plan's lines added on top`,
  },
  apply: { type: 'boolean', help: "distill (or reuse --preview's replies), write, regenerate the digest, reclaim" },
  from: {
    type: 'string',
    multiple: true,
    value: 'PATH',
    help: `a conversation file or folder (repeatable). Default: the store's inbox/, sessions agent
hooks queued, and this workspace's Claude Code, Codex and Aider sessions (config.json
"sources" turns each off). From a folder of several projects' sessions (~/.claude/projects,
~/.codex/sessions) only this workspace's are taken. Files outside the inbox are read, never deleted.`,
  },
  'all-projects': { type: 'boolean', help: "with --from: take every project's sessions in those folders, not only this workspace's" },
  'no-harvest': { type: 'boolean', help: 'record the conversations as deleted-unharvested and reclaim them without a model' },
  provider: { type: 'string', value: 'NAME', help: `${PROVIDER_NAMES.join(', ')} (default: rules, the offline marker extractor)` },
  model: { type: 'string', value: 'M', help: "the provider's model" },
  'base-url': { type: 'string', value: 'URL', help: "the provider's endpoint (any OpenAI-compatible server with --provider openai)" },
  'max-harvest-bytes': {
    type: 'string',
    value: 'N',
    help: 'distill at most N bytes of rendered transcript this run (e.g. 5MB); the rest is deferred',
  },
  timeout: { type: 'string', value: 'SECONDS', help: `per model call (default ${DEFAULT_TIMEOUT_MS / 1000})` },
  reclaim: {
    type: 'string',
    value: 'MODE',
    help: 'what happens to inbox conversations after a proven harvest (default: store config, else delete)',
  },
  'live-minutes': { type: 'string', value: 'N', help: 'agent logs outside the inbox modified within N minutes are left alone (default 5)' },
  quiet: { type: 'boolean', short: 'q' },
  json: { type: 'boolean', help: 'print the report as JSON on stdout' },
} as const;

export const harvestCommand = command({
  name: 'harvest',
  usage: [
    '[--root DIR] [--from PATH]... [--all-projects] [--dry-run | --preview [--save-plan FILE] | --apply] [--no-harvest] [--apply-plan FILE] [--provider NAME] [--model M] [--base-url URL] [--max-harvest-bytes N] [--timeout SECONDS] [--reclaim delete|archive|keep] [--live-minutes N] [--json]',
  ],
  description: `
Harvests durable knowledge from conversations into the store's category files. With a model, says
what the run spent (lore cost sums the runs) and stops before a conversation that would pass a cap
of config.json's "budget" (perHarvestTokens, dailyTokens, monthlyTokens, perHarvestUsd, dailyUsd,
monthlyUsd), leaving it for a later harvest and saying so on stderr too.`,
  options: OPTIONS,
  epilogue: 'Exit status: 0 all done, 1 some conversations failed (listed), 2 usage error.',
  takes: { positionals: false },
  run: harvest,
});

async function harvest(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  if ([values['dry-run'], values.preview, values.apply, values['apply-plan'] !== undefined].filter(Boolean).length > 1)
    throw new UsageError('choose one of --dry-run, --preview, --apply and --apply-plan');
  if (values['save-plan'] !== undefined && !values.preview) throw new UsageError('--save-plan needs --preview');
  if (values['apply-plan'] !== undefined) {
    // The plan says what to write and where from; options that would change that do not apply.
    const conflicting = (
      ['from', 'all-projects', 'no-harvest', 'provider', 'model', 'base-url', 'max-harvest-bytes', 'timeout', 'reclaim'] as const
    ).filter((k) => values[k] !== undefined);
    if (conflicting.length) throw new UsageError(`--apply-plan writes the saved plan as it is; drop --${conflicting.join(', --')}`);
    const liveWindowMs =
      values['live-minutes'] !== undefined ? parsePositiveNumber(values['live-minutes'], '--live-minutes') * 60_000 : undefined;
    return applySavedPlan(paths, resolveArg(io, values['apply-plan']), { json: values.json, liveWindowMs }, io);
  }
  const mode: HarvestMode = values.apply ? 'apply' : values.preview ? 'preview' : 'dry-run';
  const reclaim = values.reclaim as ReclaimMode | undefined;
  if (reclaim && !RECLAIM_MODES.includes(reclaim)) throw new UsageError(`--reclaim must be one of ${RECLAIM_MODES.join(', ')}`);
  const providerName = values.provider ?? (envOf(io).LORE_PROVIDER || 'rules');
  if (!(PROVIDER_NAMES as readonly string[]).includes(providerName)) {
    throw new UsageError(`unknown provider "${providerName}"; choose one of ${PROVIDER_NAMES.join(', ')}`);
  }
  const timeoutMs = values.timeout ? parsePositiveNumber(values.timeout, '--timeout') * 1000 : DEFAULT_TIMEOUT_MS;
  const provider = createProvider(providerName, { model: values.model, baseUrl: values['base-url'], timeoutMs, env: envOf(io) });
  if (values['all-projects'] && !values.from)
    throw new UsageError("--all-projects goes with --from (without it, a harvest reads this workspace's sessions only)");
  const { sources, read } = chooseSources(
    paths,
    values.from?.map((f) => resolveArg(io, f)),
    values['all-projects'] ?? false,
    io,
  );

  const controller = new AbortController();
  const onSigint = () => {
    io.err('lore: cancelling (nothing will be written) …');
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    const report = await runHarvest({
      paths,
      sources,
      mode,
      noHarvest: values['no-harvest'],
      provider,
      model: values.model,
      timeoutMs,
      maxHarvestBytes: values['max-harvest-bytes'] ? parseBytes(values['max-harvest-bytes'], '--max-harvest-bytes') : undefined,
      liveWindowMs:
        values['live-minutes'] !== undefined ? parsePositiveNumber(values['live-minutes'], '--live-minutes') * 60_000 : undefined,
      reclaim,
      home: currentHost(envOf(io)).home,
      signal: controller.signal,
      onProgress: values.quiet || values.json ? undefined : (message) => io.err(message),
      spending: { via: 'cli' },
    });
    // Where a scheduled or hook-run harvest's output is read: a cap that left conversations out is never silent.
    if (report.spending?.stop) io.err(`lore: ${report.spending.stop.text}`);
    const cache = cacheCost(report, paths, io);
    if (values.json) {
      io.out(JSON.stringify({ ...jsonReport(report), leftOutOtherProjects: read.leftOut ?? 0, cache: cache.estimate }, null, 2));
    } else {
      io.out(dryRunText(report, read));
      if (report.cancelled) io.out('cancelled; nothing was written');
      else if (mode === 'dry-run') {
        if (cache.text) io.out(`cache: ${cache.text}`);
        io.out('dry run; pass --preview to see the plan or --apply to harvest and reclaim');
      } else if (mode === 'preview') {
        const text = planText(report.plan!);
        io.out(text || 'nothing to change');
        if (cache.text) io.out(`cache: ${cache.text}`);
        if (values['save-plan'] !== undefined && report.plan) {
          savePlan(report, resolveArg(io, values['save-plan']));
          io.out(
            `plan saved to ${printable(values['save-plan'])}; nothing was written. Pass --apply-plan ${printable(values['save-plan'])} to write exactly this.`,
          );
        } else io.out('preview only; nothing was written. Pass --apply to write this.');
      } else {
        io.out(applyText(report));
        if (cache.text) io.out(`cache: ${cache.text}`);
      }
      const failures = failuresText(report, providerAdvice);
      if (failures) io.out(failures);
      if (mode === 'apply' && !report.cancelled && report.applied) io.out(writtenText(report, paths.workspace));
    }
    const trouble = report.failed > 0 || report.cancelled || report.problems.length > 0 || (report.applied?.reclaimErrors.length ?? 0) > 0;
    return trouble ? EXIT_FAILED : EXIT_OK;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/**
 * What the harvest reads: without --from the default sources (agentSources.ts, as VS Code's
 * Harvest reads them, switched by config.json's `sources`); with --from those paths, where a
 * folder of several projects' sessions gives only this workspace's unless --all-projects.
 */
function chooseSources(
  paths: StorePaths,
  from: string[] | undefined,
  allProjects: boolean,
  io: Output,
): { sources: string[]; read: SourcesRead } {
  const host = currentHost(envOf(io));
  if (!from?.length) {
    const defaults = defaultHarvestSources(paths, loadStoreConfig(paths.config).config.sources, host);
    return { sources: defaults.sources, read: { defaults } };
  }
  if (allProjects) return { sources: from, read: {} };
  const chosen = workspaceSessionsOf(from, host, paths.workspace);
  // Nothing sorted out: the paths are the sources, as typed.
  if (chosen.sources.length === from.length && chosen.sources.every((s, i) => s === from[i])) return { sources: from, read: {} };
  return { sources: chosen.sources, read: { named: from, leftOut: chosen.leftOut } };
}

/** What to check when the provider could not be reached or refused the key. */
function providerAdvice(kind: ProviderErrorKind): string | undefined {
  if (kind === 'unavailable') return 'Check --provider and --base-url (or LORE_PROVIDER).';
  if (kind === 'auth') return "Check --provider and the provider's API key in the environment.";
  return undefined;
}

/**
 * What the run costs the prompt caches of the workspace's warm agent sessions (prefixCost.ts):
 * for a plan, the stable-prefix files it changes and the tokens warm sessions re-cache; for a dry
 * run, the warm sessions only. Never fails the harvest: a session folder that cannot be read
 * leaves the sentence out.
 */
function cacheCost(report: HarvestReport, paths: StorePaths, io: Output): { text: string; estimate?: RecacheEstimate } {
  if (report.cancelled) return { text: '' };
  try {
    const sessions = recentCacheSessions(currentHost(envOf(io)), paths.workspace, Date.now());
    if (!report.plan) return { text: warmSessionsText(sessions) };
    const estimate = recacheEstimate(prefixChanges(report.plan, instructionFilesWithBlock(paths.workspace)), sessions);
    return { text: recacheText(estimate, { applied: report.mode === 'apply' }), estimate };
  } catch {
    return { text: '' };
  }
}

function savePlan(report: HarvestReport, file: string): void {
  // Loaded on use: zod is a large share of the CLI's start-up.
  const { serializePlan } = savedPlanModule();
  writeFileAtomic(file, serializePlan(report));
}

/** `--apply-plan FILE`: the saved preview, checked and written; no model is called. */
async function applySavedPlan(
  paths: StorePaths,
  file: string,
  options: { json?: boolean; liveWindowMs?: number },
  io: Output,
): Promise<number> {
  const { parsePlan } = savedPlanModule();
  const previewed = parsePlan(readStoreFile(file, 'utf8'), file);
  if (resolveArg(io, previewed.store) !== paths.root) {
    throw new UsageError(`${file} is a plan for the store ${previewed.store}, not ${paths.root}; pass --root ${previewed.store}`);
  }
  const report = await applyPreviewedHarvest(paths, previewed, { liveWindowMs: options.liveWindowMs });
  if (options.json) io.out(JSON.stringify({ ...jsonReport(report), stale: report.stale }, null, 2));
  else if (report.stale) io.out(staleText(report.stale));
  else {
    io.out(applyText(report));
    io.out(writtenText(report, paths.workspace));
  }
  return report.stale || (report.applied?.reclaimErrors.length ?? 0) > 0 ? EXIT_FAILED : EXIT_OK;
}

/** The report as stable JSON (plans carry full file texts, so only their summaries go here). */
function jsonReport(report: HarvestReport) {
  return {
    mode: report.mode,
    store: report.store,
    provider: report.provider,
    sources: report.sources,
    counts: report.totals.counts,
    harvestBytes: report.totals.harvestBytes,
    harvestRawBytes: report.totals.harvestRawBytes,
    estimatedTokens: report.totals.estimatedTokens,
    overSummarizeThreshold: report.totals.overSummarizeThreshold,
    modelCalls: report.modelCalls,
    cancelled: report.cancelled,
    failed: report.failed,
    conversations: report.conversations.map((c) => ({
      path: c.path,
      sha256: c.sha256,
      bytes: c.bytes,
      class: c.class,
      inInbox: c.inInbox,
      format: c.format,
      turns: c.turns,
      rawBytes: c.bytes,
      renderedBytes: c.renderedBytes,
      started: c.started,
      id: c.id,
      status: c.status,
      items: c.items,
      error: c.error,
      calls: c.calls,
      summarized: c.summarized,
      reclaim: c.reclaim,
      reason: c.reason,
      // Where its stored transcript is (or will be, in a preview): store-relative.
      transcript: c.sha256 ? report.plan?.ledger.entries[c.sha256]?.transcript : undefined,
    })),
    items: report.plan?.items,
    changes: report.plan?.changes.map((c) => ({ file: c.file, added: c.added, removed: c.after === undefined })),
    held: report.plan?.held.map((h) => ({ file: targetLabel(h.target), line: h.line, kinds: h.kinds })),
    reclaimed: report.applied?.reclaimed,
    history: report.history,
    problems: report.problems,
    warnings: report.warnings,
    spending: report.spending,
  };
}
