/**
 * What discovery found, measured the way the harvest's dry run measures it (classify.ts: the
 * sha256 against the ledger, each new session imported and rendered as the model would read
 * it): per tool the sessions, raw bytes, and for those not yet harvested the rendered bytes and
 * the token estimate. Only the workspace's sessions are read whole; sessions of other workspaces
 * (listed with `allWorkspaces`) are sized from disk.
 */
import * as fs from 'node:fs';
import { assembledSourceAt } from '../conversations/assembledSources';
import { classifyConversations, dryRunTotals } from './classify';
import { type ConversationClass } from '../../store/harvestPlan';
import { KnownFiles } from './knownFiles';
import { MeasuredFiles } from './measuredFiles';
import { readLedger } from '../../store/ledger';
import { type Ledger } from '../../model/ledgerFormat';
import type { StorePaths } from '../../store/storePaths';
import { discoverSessions, type ToolSessions } from '../discovery/discoverSessions';
import type { Host } from '../discovery/host';
import type { ToolId } from '../discovery/toolLocations';
import { codexThreadName, codexThreadNames, sessionTitle } from '../discovery/sessionTitle';
import * as path from 'node:path';

/** One session in the report. */
export interface MeasuredSession {
  path: string;
  /** The workspace the tool recorded (a path, or a project folder name), when it recorded one. */
  workspace?: string;
  /** Whether it belongs to this workspace. */
  matches: boolean;
  rawBytes: number;
  /** What a harvest would do with it (`harvested`: the ledger already holds its content); absent for other workspaces' sessions. */
  status?: ConversationClass;
  /** The importer that reads it, for measured sessions. */
  format?: string;
  turns?: number;
  renderedBytes?: number;
  started?: string;
  /** When its file last changed (ISO), for the workspace's sessions: the date of one whose start is not read. */
  modified?: string;
  /**
   * Its title (conversationTitle.ts), what lists name it by: from its import when it was read,
   * from the ledger or a cheap read of its start and end when not. Absent for other workspaces'
   * sessions and when none is found (the file name is then all there is).
   */
  title?: string;
  /** Why no importer reads it, when none does. */
  unrecognized?: string;
}

export interface ToolReport {
  tool: ToolId;
  label: string;
  locations: string[];
  /** Number of sessions listed (the workspace's, or with allWorkspaces all). */
  sessions: number;
  /** Raw bytes on disk of the listed sessions. */
  rawBytes: number;
  /** The workspace's sessions the ledger already holds. */
  harvested: number;
  /** The workspace's sessions a harvest would send (new or failed before, read by an importer). */
  toHarvest: number;
  /** The workspace's sessions no importer reads: a harvest records and keeps them, never sends them. */
  unrecognized: number;
  /** Rendered transcript bytes of those sessions (what the model would read). */
  renderedBytes: number;
  /** renderedBytes / 4, as the dry run estimates. */
  estimatedTokens: number;
  /** Sessions of other workspaces found (not offered). */
  otherWorkspaces: number;
  /** True when the tool has sessions here but no importer reads them yet. */
  noImporter: boolean;
  items: MeasuredSession[];
}

export interface SourcesReport {
  workspace: string;
  allWorkspaces: boolean;
  tools: ToolReport[];
  totals: { sessions: number; rawBytes: number; harvested: number; toHarvest: number; renderedBytes: number; estimatedTokens: number };
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** The thread names of the Codex homes whose `sessions/` and `archived_sessions/` are these locations. */
function codexThreadNamesAt(locations: string[]): Map<string, string> {
  const homes = new Set(locations.map((location) => path.dirname(location)));
  return new Map([...homes].flatMap((home) => [...codexThreadNames(home)]));
}

/** One tool's sessions measured: this workspace's through the dry run's classification, others' by size only. */
export function measureTool(entry: ToolSessions, ledger: Ledger, knownFiles?: KnownFiles, measuredFiles?: MeasuredFiles): ToolReport {
  const own = entry.sessions.filter((session) => session.matches);
  // An OpenCode session file stands for its whole session (assembledSources.ts), as in a harvest.
  const classified = classifyConversations(
    own.map((session) => ({ path: session.path, inInbox: false, assembled: assembledSourceAt(session.path) })),
    ledger,
    { knownFiles, measuredFiles },
  );
  const byPath = new Map(classified.map((item) => [item.path, item]));
  // A name a person gave a Codex thread is kept beside its rollouts, not in them.
  const threadNames = entry.tool === 'codex' ? codexThreadNamesAt(entry.locations) : undefined;
  const items: MeasuredSession[] = entry.sessions.map((session) => {
    const item = byPath.get(session.path);
    if (!item) return { path: session.path, workspace: session.workspace, matches: session.matches, rawBytes: sizeOf(session.path) };
    const title =
      (threadNames && codexThreadName(session.path, threadNames)) ?? item.title ?? item.ledger?.title ?? sessionTitle(session.path);
    return {
      path: session.path,
      workspace: session.workspace,
      matches: true,
      rawBytes: item.bytes,
      status: item.class,
      format: item.format,
      turns: item.turns,
      renderedBytes: item.renderedBytes,
      started: item.started,
      ...(item.mtimeMs ? { modified: new Date(item.mtimeMs).toISOString() } : {}),
      ...(title ? { title } : {}),
      unrecognized: item.unrecognized,
    };
  });
  const totals = dryRunTotals(classified);
  const read = classified.filter((item) => item.format !== undefined || item.class === 'harvested');
  const pending = classified.filter((item) => item.class === 'harvest' || item.class === 'retry');
  const unrecognized = classified.filter((item) => item.class === 'unrecognized').length;
  return {
    tool: entry.tool,
    label: entry.label,
    locations: entry.locations,
    sessions: items.length,
    rawBytes: items.reduce((sum, item) => sum + item.rawBytes, 0),
    harvested: totals.counts.harvested,
    toHarvest: pending.length,
    unrecognized,
    renderedBytes: totals.harvestBytes,
    estimatedTokens: totals.estimatedTokens,
    otherWorkspaces: entry.otherWorkspaces,
    noImporter: read.length > 0 && read.every((item) => item.unrecognized !== undefined),
    items,
  };
}

/** The report `lore sources` prints and the extension's import dialog shows. */
export function measureSources(
  workspace: string,
  discovered: ToolSessions[],
  ledger: Ledger,
  allWorkspaces = false,
  knownFiles?: KnownFiles,
  measuredFiles?: MeasuredFiles,
): SourcesReport {
  const tools = discovered.map((entry) => measureTool(entry, ledger, knownFiles, measuredFiles));
  const sum = (key: 'sessions' | 'rawBytes' | 'harvested' | 'toHarvest' | 'renderedBytes' | 'estimatedTokens') =>
    tools.reduce((total, tool) => total + tool[key], 0);
  return {
    workspace,
    allWorkspaces,
    tools,
    totals: {
      sessions: sum('sessions'),
      rawBytes: sum('rawBytes'),
      harvested: sum('harvested'),
      toHarvest: sum('toHarvest'),
      renderedBytes: sum('renderedBytes'),
      estimatedTokens: sum('estimatedTokens'),
    },
  };
}

/**
 * Discovery and measurement in one call, as `lore sources` and the language server's
 * `lore/sources` request run it: the workspace's sessions on the host, against the store's ledger
 * (sessions a harvest already proved, or an earlier measure read, and that did not change since
 * are not read again; what this one reads is remembered, as a dry run does).
 */
export function reportSources(host: Host, paths: StorePaths, allWorkspaces = false): SourcesReport {
  const measuredFiles = MeasuredFiles.open(paths);
  const report = measureSources(
    paths.workspace,
    discoverSessions(host, paths.workspace, { allWorkspaces }),
    readLedger(paths.ledger),
    allWorkspaces,
    KnownFiles.open(paths),
    measuredFiles,
  );
  // Not saved: the next measure reads those sessions again, which is all a lost cache costs.
  measuredFiles.save();
  return report;
}
