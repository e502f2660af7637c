/** `lore cache`: the prompt caches of the workspace's recent agent sessions, as their session files record them. */
import { cacheReport, DEFAULT_SESSION_LIMIT, type CacheReport, type ToolCacheSummary } from '../../core/services/promptCache/cacheReport';
import { formatUsd } from '../../core/services/promptCache/modelPrices';
import type { SessionCacheState } from '../../core/services/promptCache/sessionCacheState';
import { formatRemaining } from '../../core/services/promptCache/cacheState';
import { currentHost } from '../../core/services/discovery/host';
import { TOOL_LABELS } from '../../core/services/discovery/toolLocations';
import { command, type Parsed } from '../command';
import { EXIT_OK, UsageError, envOf, formatBytes, formatTokens, parsePositiveNumber, printable, type Output } from '../cliSupport';

const OPTIONS = {
  now: { type: 'string', value: 'ISO', help: 'describe the caches at this moment instead of now (reproducible output)' },
  limit: { type: 'string', value: 'N', help: `read the N most recently modified sessions (default ${DEFAULT_SESSION_LIMIT})` },
  'all-workspaces': { type: 'boolean', help: 'also the sessions of other workspaces' },
} as const;

/** `2026-01-06 09:22:33Z`: UTC, so the same --now prints the same text anywhere. */
function when(ms: number | undefined): string {
  return ms === undefined
    ? '-'
    : new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}

function percent(ratio: number | undefined): string {
  return ratio === undefined ? 'unknown' : `${Math.round(ratio * 100)}%`;
}

function stateText(s: SessionCacheState): string {
  switch (s.status) {
    case 'warm':
      return `warm, ${s.ttlLabel} left (${s.ttl} TTL)`;
    case 'provider-managed':
      return 'cached, TTL provider-managed';
    case 'never-cached':
      return 'never cached';
    case 'unknown':
      return s.tool === 'copilot-chat' ? 'unknown (Copilot Chat records no cached tokens)' : 'unknown (no model call recorded)';
    default:
      return s.expiresAt !== undefined ? `expired at ${when(s.expiresAt)}` : 'expired';
  }
}

function moneyText(money: SessionCacheState['money'], note?: string): string {
  if (!money) return note ? `no money figure (${note})` : 'no money figure';
  const premium = money.writePremium > 0 ? ` (write premium ${formatUsd(money.writePremium)}, net ${formatUsd(money.net)})` : '';
  return `saved ${formatUsd(money.saved)}${premium}${note ? `; ${note}` : ''}`;
}

function sessionLines(s: SessionCacheState): string[] {
  const lines = [
    `${TOOL_LABELS[s.tool]} · ${printable(s.model ?? 'model not recorded')} · last activity ${when(s.lastActivity)} · ${stateText(s)}`,
  ];
  if (s.usage) {
    const hits = s.hits === 0 && s.usage.cacheWriteTokens > 0 ? ' (never hit)' : '';
    // OpenAI reports no cache writes (its caching is implicit): not shown as 0.
    const written = s.tool === 'codex' ? '' : ` · written ${formatTokens(s.usage.cacheWriteTokens)}`;
    lines.push(
      `  hit ratio ${percent(s.hitRatio)}${hits} · cached ${formatTokens(s.usage.cacheReadTokens)} · uncached ${formatTokens(s.usage.uncachedInputTokens)}${written} · ${s.calls} call${s.calls === 1 ? '' : 's'}`,
    );
    lines.push(`  ${moneyText(s.money, s.moneyNote)}`);
  } else if (s.calls > 0) {
    lines.push(`  ${formatTokens(s.inputTokens)} input tokens in ${s.calls} request${s.calls === 1 ? '' : 's'}; cached part not recorded`);
  }
  if (s.skippedBytes > 0) lines.push(`  (read the last part of the file only; ${formatBytes(s.skippedBytes)} before it not counted)`);
  if (s.unreadable) lines.push(`  not read: ${printable(s.unreadable)}`);
  lines.push(`  ${printable(s.path)}`);
  return lines;
}

function toolLine(t: ToolCacheSummary): string {
  const usage = t.usage
    ? `in ${formatTokens(t.usage.inputTokens)} · cached ${formatTokens(t.usage.cacheReadTokens)} · hit ${percent(t.hitRatio)}`
    : `in ${formatTokens(t.inputTokens)} · cached unknown`;
  const ttl =
    t.nextExpiryMs !== undefined
      ? `next expiry in ${formatRemaining(t.nextExpiryMs)}`
      : `TTL ${t.ttl === 'implicit' ? 'provider-managed' : t.ttl}`;
  return `${t.label} (${t.provider}): ${t.sessions} session${t.sessions === 1 ? '' : 's'}, ${t.active} active · ${usage} · ${ttl}${t.money ? ` · saved ${formatUsd(t.money.saved)}` : ''}`;
}

function printText(report: CacheReport, io: Output): void {
  io.out(`Prompt caches of the agent sessions of ${printable(report.workspace)}, at ${when(report.now)}`);
  if (!report.sessions.length) {
    io.out('  no Claude Code, Codex or Copilot Chat session of this workspace found on this machine');
    return;
  }
  for (const t of report.tools) io.out(toolLine(t));
  io.out('');
  for (const s of report.sessions) for (const line of sessionLines(s)) io.out(line);
  if (report.notRead) io.out(`${report.notRead} older session${report.notRead === 1 ? '' : 's'} not read (--limit)`);
  io.out(
    `Money at list prices (src/core/cache/modelPrices.json, checked ${report.pricesChecked}); Anthropic's TTL is counted from the last call that read or wrote the cache.`,
  );
}

function parseNow(value: string | undefined): number {
  if (value === undefined) return Date.now();
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new UsageError(`--now must be a date and time (ISO 8601, e.g. 2026-01-06T09:30:00Z), not "${value}"`);
  return ms;
}

export const cacheCommand = command({
  name: 'cache',
  usage: ['[--workspace DIR] [--now ISO] [--limit N] [--all-workspaces] [--json]'],
  description: `Shows the prompt caches of the workspace's recent agent sessions (Claude Code, Codex, Copilot
Chat), read from their session files: per session the tool, model, last activity, cache state
(warm with the time left, expired, provider-managed, unknown, never cached), hit ratio, cached
and uncached input tokens, and the money cache reads saved at list prices (modelPrices.json,
dated). Reads the last 16 MB of each session file; writes nothing.`,
  options: OPTIONS,
  takes: { positionals: false },
  run: cache,
});

async function cache(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  const report = cacheReport(currentHost(envOf(io)), paths.workspace, {
    now: parseNow(values.now),
    limit: values.limit !== undefined ? Math.floor(parsePositiveNumber(values.limit, '--limit')) : undefined,
    allWorkspaces: values['all-workspaces'] ?? false,
  });
  if (values.json) io.out(JSON.stringify(report, null, 2));
  else printText(report, io);
  return EXIT_OK;
}
