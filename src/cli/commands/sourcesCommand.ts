/** `lore sources`: the agent sessions on this machine that belong to the workspace, per tool, measured. */
import { currentHost } from '../../core/services/discovery/host';
import { reportSources, type MeasuredSession, type SourcesReport, type ToolReport } from '../../core/services/harvest/measureSources';
import { HARVEST_TOOLS } from '../../core/services/harvest/agentSources';
import { TOOL_LABELS } from '../../core/services/discovery/toolLocations';
import { humanTime, printablePath } from '../../core/model/format';
import { spendingSummary, type SpendingSummary } from '../../core/services/spending/spendingSummary';
import { periodsText } from '../../core/services/spending/spendingText';
import { command, type Parsed } from '../command';
import { EXIT_OK, envOf, formatBytes, formatTokens, printable, type Output } from '../cliSupport';

const OPTIONS = {
  'all-workspaces': { type: 'boolean', help: 'also list the sessions of other workspaces (never harvested by default)' },
} as const;

function toolLine(tool: ToolReport): string {
  const parts = [`${tool.sessions} session${tool.sessions === 1 ? '' : 's'}`, formatBytes(tool.rawBytes) + ' raw'];
  if (tool.noImporter) parts.push('no importer yet');
  else {
    if (tool.toHarvest > 0)
      parts.push(
        `${tool.toHarvest} to harvest: ${formatBytes(tool.renderedBytes)} rendered, ~${formatTokens(tool.estimatedTokens)} tokens`,
      );
    if (tool.harvested > 0) parts.push(`${tool.harvested} harvested`);
  }
  return `${tool.label.padEnd(20)} ${parts.join(', ')}`;
}

/** How many of a tool's sessions the text lists (newest first); --json lists every one. */
const LISTED_SESSIONS = 20;

const STATUS_WORDS: Partial<Record<NonNullable<MeasuredSession['status']>, string>> = {
  harvest: 'new',
  retry: 'failed before, to harvest again',
  harvested: 'harvested',
  duplicate: 'harvested',
  live: 'still being written',
  'too-large': 'too large',
  forgotten: 'forgotten',
};

/** When a session was: its start when read, else when its file last changed. */
const whenOf = (item: MeasuredSession): string => item.started ?? item.modified ?? '';

/**
 * A session named as a person knows it (its title, when it was, what a harvest does with it),
 * then its path on a line of its own, what `lore harvest --from` takes.
 */
function sessionLines(item: MeasuredSession, now: number): string[] {
  const when = whenOf(item);
  const status = item.unrecognized !== undefined ? 'no importer reads it' : item.status ? (STATUS_WORDS[item.status] ?? item.status) : '';
  const facts = [when ? humanTime(when, { now }) : '', formatBytes(item.rawBytes), status].filter(Boolean).join(', ');
  return [`  ${printable(item.title ?? '(untitled)')} (${facts})`, `      ${printablePath(item.path)}`];
}

function printText(report: SourcesReport, spending: SpendingSummary, io: Output): void {
  const now = Date.now();
  io.out(`Agent sessions of ${printable(report.workspace)}`);
  const present = report.tools.filter((tool) => tool.locations.length > 0);
  if (present.length === 0) io.out('  no agent session folders found on this machine');
  for (const tool of present) {
    io.out(toolLine(tool));
    for (const location of tool.locations) io.out(`    ${printable(location)}`);
    const own = tool.items.filter((i) => i.matches).sort((a, b) => whenOf(b).localeCompare(whenOf(a)));
    for (const item of own.slice(0, LISTED_SESSIONS)) for (const line of sessionLines(item, now)) io.out(line);
    if (own.length > LISTED_SESSIONS) io.out(`  … ${own.length - LISTED_SESSIONS} older (--json lists every session)`);
    if (report.allWorkspaces) {
      for (const item of tool.items.filter((i) => !i.matches))
        io.out(`    other: ${printablePath(item.path)} (${item.workspace ? printable(item.workspace) : 'workspace not recorded'})`);
    }
  }
  const { totals } = report;
  io.out(
    `Total: ${totals.sessions} sessions, ${formatBytes(totals.rawBytes)} raw; ${totals.toHarvest} to harvest (${formatBytes(totals.renderedBytes)} rendered, ~${formatTokens(totals.estimatedTokens)} tokens), ${totals.harvested} harvested`,
  );
  const others = report.tools.reduce((sum, tool) => sum + tool.otherWorkspaces, 0);
  if (others > 0 && !report.allWorkspaces) io.out(`${others} sessions of other workspaces not listed (--all-workspaces lists them)`);
  // What harvesting them has cost so far, once anything has (details: lore cost).
  if (spending.month.tokens > 0 || Object.keys(spending.caps).length) io.out(`Spent on model calls: ${periodsText(spending)} (lore cost)`);
  for (const line of nextSteps(report)) io.out(line);
}

/**
 * The real next command: a harvest's dry run, which reads this workspace's sessions of the tools
 * it reads by default; another tool's are named by its folder, of which a harvest takes only this
 * workspace's sessions.
 */
function nextSteps(report: SourcesReport): string[] {
  const byDefault = new Set<string>(Object.values(HARVEST_TOOLS));
  const lines = [`next: lore harvest --dry-run (reads ${defaultToolsText()} sessions listed here and the inbox; writes nothing)`];
  for (const tool of report.tools.filter((t) => !byDefault.has(t.tool) && t.toHarvest > 0)) {
    const from = tool.locations.map((location) => `--from ${printable(location)}`).join(' ');
    lines.push(`  for ${tool.label}: lore harvest --dry-run ${from} (only this workspace's sessions are taken)`);
  }
  return lines;
}

/** "Claude Code, Codex CLI and Aider": the tools a harvest reads without --from. */
function defaultToolsText(): string {
  const labels = Object.values(HARVEST_TOOLS).map((tool) => TOOL_LABELS[tool]);
  return `this workspace's ${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

export const sourcesCommand = command({
  name: 'sources',
  usage: ['[--root DIR] [--workspace DIR] [--all-workspaces] [--json]'],
  description: `Lists, per agent tool (Claude Code, Codex, Gemini CLI, Copilot Chat, Cline, Roo Code, Kilo Code,
Continue, Copilot CLI, Aider, Cursor, OpenCode), where it keeps sessions on this machine and the
sessions that belong to the workspace: how many, raw bytes, and for those not yet harvested the
rendered transcript bytes and estimated tokens (as the harvest's dry run measures them), and what
harvests spent today and this month (lore cost has the details). Reads and writes nothing else. lore harvest reads this workspace's Claude Code, Codex and Aider sessions
by default; another tool's with --from its folder (only this workspace's sessions are taken).`,
  options: OPTIONS,
  takes: { positionals: false },
  run: sources,
});

async function sources(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  const allWorkspaces = values['all-workspaces'] ?? false;
  const report = reportSources(currentHost(envOf(io)), paths, allWorkspaces);
  const spending = spendingSummary(paths, new Date());
  if (values.json)
    io.out(JSON.stringify({ ...report, spending: { today: spending.today, month: spending.month, caps: spending.caps } }, null, 2));
  else printText(report, spending, io);
  return EXIT_OK;
}
