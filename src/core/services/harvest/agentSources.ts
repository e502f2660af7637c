/**
 * The harvest's opted-in agent sources (settings `lore.sources.*`): this workspace's sessions of
 * Claude Code, Codex and Aider, as discovery finds them. These locations are read, never
 * written: a harvest only ever reclaims files in the store's own inbox.
 */
import { currentHost } from '../discovery/host';
import { workspaceSessionFiles } from '../discovery/discoverSessions';
import type { ToolId } from '../discovery/toolLocations';

export interface AgentSourceOptions {
  claudeCode?: boolean;
  codex?: boolean;
  aider?: boolean;
  home?: string;
  /** Where CLAUDE_CONFIG_DIR, CODEX_HOME and the like come from (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** The opted-in tools' session files for a workspace that exist on this machine. */
export function agentSources(workspace: string, options: AgentSourceOptions): string[] {
  const tools: ToolId[] = [];
  if (options.claudeCode) tools.push('claude-code');
  if (options.codex) tools.push('codex');
  if (options.aider) tools.push('aider');
  if (tools.length === 0) return [];
  return workspaceSessionFiles(currentHost(options.env, options.home), workspace, tools);
}
