/**
 * Discovery: for each tool, the session locations that exist on the host and the sessions found
 * there that belong to the workspace. Sessions of other workspaces are counted, and listed only
 * when asked for (`allWorkspaces`), so a harvest is never offered another project's conversations
 * by default.
 */
import * as fs from 'node:fs';
import type { Host } from './host';
import { sessionsAt, type FoundSession } from './sessionOwners';
import { TOOL_IDS, TOOL_LABELS, toolLocations, type ToolId } from './toolLocations';

export interface ToolSessions {
  tool: ToolId;
  label: string;
  /** The tool's locations that exist on the host. */
  locations: string[];
  /** The workspace's sessions (with `allWorkspaces`, every session found). */
  sessions: FoundSession[];
  /** Sessions found that belong to other workspaces (or record none). */
  otherWorkspaces: number;
}

export interface DiscoverOptions {
  /** List the sessions of other workspaces too. */
  allWorkspaces?: boolean;
  /** Only these tools (default: all). */
  tools?: readonly ToolId[];
}

/** Every tool's sessions for the workspace, in TOOL_IDS order; tools with no location on the host included. */
export function discoverSessions(host: Host, workspace: string, options: DiscoverOptions = {}): ToolSessions[] {
  const wanted = options.tools ?? TOOL_IDS;
  const locations = toolLocations(host, workspace).filter((location) => wanted.includes(location.tool) && fs.existsSync(location.path));
  return TOOL_IDS.filter((tool) => wanted.includes(tool)).map((tool) => {
    const mine = locations.filter((location) => location.tool === tool);
    const found = mine.flatMap((location) => sessionsAt(location, host, workspace));
    const matching = found.filter((session) => session.matches);
    return {
      tool,
      label: TOOL_LABELS[tool],
      locations: mine.map((location) => location.path),
      sessions: options.allWorkspaces ? found : matching,
      otherWorkspaces: found.length - matching.length,
    };
  });
}

/** The workspace's session files of the given tools: what a harvest of those tools reads. */
export function workspaceSessionFiles(host: Host, workspace: string, tools: readonly ToolId[]): string[] {
  return discoverSessions(host, workspace, { tools }).flatMap((entry) => entry.sessions.map((session) => session.path));
}
