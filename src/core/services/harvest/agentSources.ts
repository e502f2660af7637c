/**
 * What a harvest reads, in one place for `lore harvest` and VS Code's Harvest: by default the
 * store's inbox with the sessions agent hooks queued, and this workspace's sessions of the agent
 * tools that are turned on (settings `lore.sources.*`, config.json's `sources`), as discovery finds
 * them. A folder named on purpose that holds several projects' sessions (`~/.claude/projects`,
 * `~/.codex/sessions`) gives only this workspace's, unless every project's are asked for. These
 * locations are read, never written: a harvest only ever reclaims files in the store's own inbox.
 */
import * as path from 'node:path';
import { queuedTranscripts } from '../../store/captureQueue';
import { isInside, type StorePaths } from '../../store/storePaths';
import type { Host } from '../discovery/host';
import { discoverSessions } from '../discovery/discoverSessions';
import { sessionsAt } from '../discovery/sessionOwners';
import { toolLocations, type ToolId } from '../discovery/toolLocations';
import type { HarvestToolKey, SourceSwitches } from '../../model/storeConfigFormat';

/** The agent tools a harvest reads by default, each with its switch (`lore.sources.<key>`, config.json `sources.<key>`). */
export const HARVEST_TOOLS: Record<HarvestToolKey, ToolId> = { claudeCode: 'claude-code', codex: 'codex', aider: 'aider' };

function toolsOn(switches: Record<HarvestToolKey, boolean>): ToolId[] {
  return (Object.keys(HARVEST_TOOLS) as HarvestToolKey[]).filter((key) => switches[key]).map((key) => HARVEST_TOOLS[key]);
}

/** The inbox and the transcripts of the sessions agent hooks queued (they stay where their tools keep them). */
export function inboxSources(paths: StorePaths): string[] {
  return [paths.inbox, ...queuedTranscripts(paths)];
}

/** The default sources, and what they are, so that a harvest can say what it read. */
export interface DefaultSources {
  sources: string[];
  /** Whether the inbox is read. */
  inbox: boolean;
  /** Sessions agent hooks queued that discovery did not find among the tools' (another tool's, or one turned off). */
  queued: string[];
  /** Per tool turned on, this workspace's session files found. */
  tools: Array<{ tool: ToolId; label: string; files: string[] }>;
}

/** What a harvest reads when it is not told: the inbox and this workspace's sessions of the tools turned on. */
export function defaultHarvestSources(paths: StorePaths, switches: SourceSwitches, host: Host): DefaultSources {
  const tools = toolsOn(switches);
  const found = tools.length ? discoverSessions(host, paths.workspace, { tools }) : [];
  const listed = found.map((entry) => ({ tool: entry.tool, label: entry.label, files: entry.sessions.map((s) => s.path) }));
  const sources = switches.inbox ? inboxSources(paths) : [];
  const discovered = new Set(listed.flatMap((entry) => entry.files));
  const queued = sources.slice(1).filter((file) => !discovered.has(file));
  for (const file of discovered) if (!sources.includes(file)) sources.push(file);
  return { sources, inbox: switches.inbox, queued, tools: listed };
}

/** Sources named on purpose, with other projects' sessions taken out of the folders that hold several. */
export interface ChosenSources {
  sources: string[];
  /** Sessions of other projects (or that record none) found in them and left out. */
  leftOut: number;
}

/** A discovered session's file: an OpenCode database session is `<db>#<id>`. */
const sessionFile = (session: string): string => session.replace(/#[^/\\]*$/, '');

/**
 * The named sources, where each that is (or lies inside, or holds) a tool's folder of several
 * projects' sessions gives only the sessions discovery finds belong to the workspace; others are
 * passed as they are. Aider's history lies in the workspace itself and is never sorted out.
 */
export function workspaceSessionsOf(sources: readonly string[], host: Host, workspace: string): ChosenSources {
  const shared = toolLocations(host, workspace).filter((location) => location.tool !== 'aider');
  const chosen: string[] = [];
  let leftOut = 0;
  const add = (file: string) => {
    if (!chosen.includes(file)) chosen.push(file);
  };
  for (const source of sources) {
    const abs = path.resolve(source);
    const overlapping = shared.filter((location) => isInside(location.path, abs) || isInside(abs, location.path));
    if (overlapping.length === 0) {
      add(source);
      continue;
    }
    for (const location of overlapping) {
      for (const session of sessionsAt(location, host, workspace)) {
        if (!isInside(abs, sessionFile(session.path))) continue;
        if (session.matches) add(session.path);
        else leftOut++;
      }
    }
  }
  return { sources: chosen, leftOut };
}
