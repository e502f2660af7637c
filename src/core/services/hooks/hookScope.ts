/**
 * One project's memory stays in its project: a hook call is acted on only when its session is
 * this store's workspace's. The agent's folder (the input's `cwd`) must lie in the workspace, and
 * a Claude Code transcript must be kept under the project folder Claude Code names after the
 * workspace or a folder inside it. Otherwise (a hook installed with `--root` for another store,
 * a user-level hook in a folder above the workspace, a forged input) the store neither copies
 * the session nor answers with its knowledge; `lore hook` logs why.
 */
import * as path from 'node:path';
import { claudeHome, claudeCodeProjectName } from '../discovery/toolLocations';
import { comparablePath, hostPath, type Host } from '../discovery/host';
import { isInside, type StorePaths } from '../../store/storePaths';

/** Why the store must not take this hook call (any event), or undefined when the agent's folder is in its workspace. */
export function foreignFolderReason(paths: StorePaths, folder: string, host: Host): string | undefined {
  const workspace = comparablePath(host, paths.workspace);
  if (!isInside(workspace, comparablePath(host, folder)))
    return `the session's folder ${folder} is outside this store's workspace ${paths.workspace}`;
  return undefined;
}

/**
 * Why the store must not copy or queue this transcript, or undefined: a Claude Code transcript
 * kept under another project's folder than the workspace's (or one inside it) is another
 * project's session, whatever folder the input names.
 */
export function foreignTranscriptReason(paths: StorePaths, transcriptPath: string | undefined, host: Host): string | undefined {
  if (!transcriptPath) return undefined;
  const p = hostPath(host);
  const projects = comparablePath(host, p.join(claudeHome(host), 'projects'));
  const transcript = comparablePath(host, transcriptPath);
  if (!isInside(projects, transcript)) return undefined;
  const project = path.relative(projects, transcript).split(/[\\/]/)[0];
  const own = claudeCodeProjectName(host, paths.workspace);
  const cased = (name: string) => (host.platform === 'win32' ? name.toLowerCase() : name);
  // Claude Code names a project folder after the folder it was started in: the workspace or one inside it.
  if (cased(project) === cased(own) || cased(project).startsWith(`${cased(own)}-`)) return undefined;
  return `the transcript ${transcriptPath} is a session of Claude Code project ${project}, not of this store's workspace ${paths.workspace}`;
}
