/**
 * The sessions a tool keeps at one of its locations, and the workspace each belongs to, read
 * from what the tool itself records: Claude Code's `cwd` (its project-folder name when none is
 * recorded), Cursor's project-folder name, Codex's and the Copilot CLI's `cwd`, VS Code's `workspace.json` per storage hash, Gemini CLI's project
 * folder (`.project_root` / `projects.json`, or the sha256 of the path in older CLIs), Continue's
 * `workspaceDirectory`, Cline's `cwdOnTaskInitialization`, Roo and Kilo Code's `workspace`,
 * OpenCode's `directory`. Only headers and small index files are read. A session whose workspace
 * is not recorded never counts as this workspace's; one started in a folder inside the workspace
 * (`packages/api`) does.
 */
import { sha256Hash } from '../../base/lazyCrypto';
import * as fs from 'node:fs';
import { isClaudeCodeLegacySubagentFile, isClaudeCodeSessionSideFolder } from '../../model/claudeCodeLayout';
import {
  OPENCODE_STORAGE_NAME,
  isOpenCodeDatabase,
  isOpenCodeStorageFolder,
  listDatabaseSessions,
  listStorageSessions,
} from '../conversations/opencodeStore';
import { isConversationFileName } from '../../model/conversation';
import { listNames, walkTree } from '../../base/walkTree';
import { firstJsonLine, jsonStringField, readHead, readJsonFile, readTail, SMALL_HEAD_BYTES } from './fileHead';
import { fileUriToPath, hostPath, isWithin, samePath, type Host } from './host';
import { claudeCodeProjectName, cursorProjectName, type ToolId, type ToolLocation } from './toolLocations';

/** One session file found at a tool's location. */
export interface FoundSession {
  tool: ToolId;
  /** The conversation file, as the harvest reads it. */
  path: string;
  /**
   * The workspace the tool recorded for it: a path, or for Cursor (and a Claude Code session that
   * records no folder) the name of its project folder, which cannot be turned back into a path.
   * Absent when not recorded.
   */
  workspace?: string;
  /** Whether it belongs to the workspace discovery was asked about. */
  matches: boolean;
}

type Lister = (location: ToolLocation, host: Host, workspace: string) => FoundSession[];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const isDir = (file: string): boolean => {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Whether a session that ran in `folder` is the workspace's: it ran there or in a folder inside
 * it. Not when the workspace is the home folder (or above it): a window opened on the home folder
 * would otherwise take every project's sessions for its own.
 */
function ranInWorkspace(host: Host, folder: string, workspace: string): boolean {
  if (samePath(host, folder, workspace)) return true;
  return !isWithin(host, host.home, workspace) && isWithin(host, folder, workspace);
}

/** A session whose recorded workspace (a path or file URI) is compared with the workspace. */
function owned(tool: ToolId, file: string, recorded: string | undefined, host: Host, workspace: string): FoundSession {
  const asPath = recorded === undefined ? undefined : fileUriToPath(host, recorded);
  return { tool, path: file, workspace: asPath ?? recorded, matches: asPath !== undefined && ranInWorkspace(host, asPath, workspace) };
}

/** A folder's files with a conversation extension, one level deep, in name order. */
function conversationFiles(host: Host, dir: string, keep: (name: string) => boolean = () => true): string[] {
  const p = hostPath(host);
  return listNames(dir)
    .sort()
    .filter((name) => isConversationFileName(name) && keep(name))
    .map((name) => p.join(dir, name))
    .filter((file) => !isDir(file));
}

/** A project folder's name as compared: Windows file names ignore case (`c--src-app` is `C--src-app`). */
const projectNameKey = (host: Host, name: string): string => (host.platform === 'win32' ? name.toLowerCase() : name);

/** Claude Code cuts a project folder's name at this length and appends a hash of the path. */
const CLAUDE_CODE_NAME_LIMIT = 200;

/**
 * Whether a Claude Code project folder can hold the workspace's sessions: it is named after the
 * workspace, or after a folder inside it (`-x-app-packages-api` for `/x/app`), or it is a long
 * name cut at the same place. Only these folders' sessions are opened to read where they ran.
 */
function mayBeWorkspaceProject(host: Host, project: string, mine: string): boolean {
  const name = projectNameKey(host, project);
  const own = projectNameKey(host, mine);
  if (name === own || name.startsWith(`${own}-`)) return true;
  return own.length > CLAUDE_CODE_NAME_LIMIT && name.startsWith(own.slice(0, CLAUDE_CODE_NAME_LIMIT));
}

/** A project folder's name as Claude Code would give it, cut where Claude Code cuts long names (before its hash). */
const cutName = (host: Host, name: string): string => projectNameKey(host, name).slice(0, CLAUDE_CODE_NAME_LIMIT);

/**
 * The folder a Claude Code session ran in: the `cwd` its first message records (before the message
 * itself), when Claude Code would have kept the session in the project folder it lies in. A `cwd`
 * that does not name that folder (a session copied from another machine or project) tells nothing.
 */
function claudeCodeCwd(host: Host, file: string, project: string): string | undefined {
  // Most sessions record it in their first KB; a long first prompt (or many summaries) puts it further.
  const small = readHead(file, SMALL_HEAD_BYTES) ?? '';
  const cwd = jsonStringField(small, 'cwd') ?? jsonStringField(readHead(file) ?? '', 'cwd');
  if (cwd === undefined) return undefined;
  return cutName(host, claudeCodeProjectName(host, cwd)) === cutName(host, project) ? cwd : undefined;
}

/**
 * `~/.claude/projects/<project>/<session>.jsonl`; subagent transcripts and side folders are part
 * of their session. Claude Code names a project folder after the path with every character but
 * letters and digits turned into `-`, so `/x/my-app` and `/x/my/app` share `-x-my-app`: a session
 * is the workspace's by the `cwd` it records, its folder's name deciding only when it records none
 * (or one that does not give that name).
 */
const claudeCode: Lister = (location, host, workspace) => {
  const mine = claudeCodeProjectName(host, workspace);
  const found: FoundSession[] = [];
  for (const project of listNames(location.path).sort()) {
    const dir = hostPath(host).join(location.path, project);
    const names = () => listNames(dir);
    const candidate = mayBeWorkspaceProject(host, project, mine);
    for (const file of conversationFiles(host, dir, (name) => name.endsWith('.jsonl'))) {
      if (isClaudeCodeLegacySubagentFile(file, names)) continue;
      const cwd = candidate ? claudeCodeCwd(host, file, project) : undefined;
      if (cwd !== undefined) found.push(owned('claude-code', file, cwd, host, workspace));
      else
        found.push({
          tool: 'claude-code',
          path: file,
          workspace: project,
          matches: projectNameKey(host, project) === projectNameKey(host, mine),
        });
    }
  }
  return found;
};

/** Rollouts anywhere under `sessions/`, owned by the `cwd` of their first record (session_meta). */
const codex: Lister = (location, host, workspace) => {
  const found: FoundSession[] = [];
  walkTree(location.path, {
    sorted: true,
    file: (entry, full) => {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) return;
      const head = readHead(full, SMALL_HEAD_BYTES) ?? '';
      const record = firstJsonLine(head);
      // session_meta carries the base instructions and outgrows the head; its cwd comes before them.
      const cwd = isObject(record)
        ? (text(isObject(record.payload) ? record.payload.cwd : undefined) ?? text(record.cwd))
        : jsonStringField(head, 'cwd');
      found.push(owned('codex', full, cwd, host, workspace));
    },
  });
  return found;
};

/**
 * `~/.gemini/tmp/<project>/chats/session-*.json(l)`. Current CLIs name the project folder by a
 * slug, registered in `~/.gemini/projects.json` (`{projects: {path: slug}}`) and marked with a
 * `.project_root` file holding the path; older ones by the sha256 of the path.
 */
const geminiCli: Lister = (location, host, workspace) => {
  const p = hostPath(host);
  const registry = readJsonFile(p.join(p.dirname(location.path), 'projects.json'));
  const bySlug = new Map<string, string>();
  const projects = isObject(registry) && isObject(registry.projects) ? registry.projects : {};
  for (const [root, slug] of Object.entries(projects)) if (typeof slug === 'string') bySlug.set(slug, root);
  const legacyHash = sha256Hash().update(p.resolve(workspace)).digest('hex');
  const found: FoundSession[] = [];
  for (const project of listNames(location.path).sort()) {
    const chats = p.join(location.path, project, 'chats');
    const files = conversationFiles(host, chats, (name) => name.startsWith('session-'));
    if (files.length === 0) continue;
    const marker = readHead(p.join(location.path, project, '.project_root'))?.trim() || bySlug.get(project);
    for (const file of files) {
      found.push(
        marker
          ? owned('gemini-cli', file, marker, host, workspace)
          : { tool: 'gemini-cli', path: file, workspace: project, matches: project === legacyHash },
      );
    }
  }
  return found;
};

/** `workspaceStorage/<hash>/chatSessions/*.json(l)`, owned by the `folder` URI in `<hash>/workspace.json`. */
const copilotChat: Lister = (location, host, workspace) => {
  const p = hostPath(host);
  const found: FoundSession[] = [];
  for (const hash of listNames(location.path).sort()) {
    const files = conversationFiles(host, p.join(location.path, hash, 'chatSessions'));
    if (files.length === 0) continue;
    const meta = readJsonFile(p.join(location.path, hash, 'workspace.json'));
    // A multi-root workspace records its `.code-workspace` file instead: never a single folder's.
    const folder = isObject(meta) ? text(meta.folder) : undefined;
    for (const file of files) found.push(owned('copilot-chat', file, folder, host, workspace));
  }
  return found;
};

/**
 * `<globalStorage>/<extension>/tasks/<id>/api_conversation_history.json`. Cline records each
 * task's folder in `state/taskHistory.json` (`cwdOnTaskInitialization`, or `workspaceIds` /
 * `shadowGitConfigWorkTree`); Roo Code and Kilo Code in `tasks/<id>/history_item.json` (`workspace`).
 */
const taskExtension: Lister = (location, host, workspace) => {
  const p = hostPath(host);
  const history = readJsonFile(p.join(location.path, 'state', 'taskHistory.json'));
  const cwdById = new Map<string, string>();
  for (const item of Array.isArray(history) ? history : []) {
    if (!isObject(item) || typeof item.id !== 'string') continue;
    const ids = Array.isArray(item.workspaceIds) ? item.workspaceIds.filter((id): id is string => typeof id === 'string') : [];
    const cwd =
      text(item.cwdOnTaskInitialization) ?? ids.find((id) => samePath(host, id, workspace)) ?? ids[0] ?? text(item.shadowGitConfigWorkTree);
    if (cwd) cwdById.set(item.id, cwd);
  }
  const found: FoundSession[] = [];
  const tasks = p.join(location.path, 'tasks');
  for (const id of listNames(tasks).sort()) {
    const file = p.join(tasks, id, 'api_conversation_history.json');
    if (!fs.existsSync(file)) continue;
    const item = readJsonFile(p.join(tasks, id, 'history_item.json'));
    const cwd = cwdById.get(id) ?? (isObject(item) ? (text(item.workspace) ?? text(item.cwdOnTaskInitialization)) : undefined);
    found.push(owned(location.tool, file, cwd, host, workspace));
  }
  return found;
};

/** `~/.continue/sessions/<id>.json` (not the `sessions.json` index), owned by `workspaceDirectory`. */
const continueDev: Lister = (location, host, workspace) =>
  conversationFiles(host, location.path, (name) => name.endsWith('.json') && name !== 'sessions.json').map((file) =>
    owned('continue', file, continueWorkspace(file), host, workspace),
  );

/**
 * A Continue session's `workspaceDirectory`: near the start since Continue orders the keys (late
 * 2024), near the end, after the whole history, in the sessions it wrote before.
 */
function continueWorkspace(file: string): string | undefined {
  return jsonStringField(readHead(file) ?? '', 'workspaceDirectory') ?? jsonStringField(readTail(file) ?? '', 'workspaceDirectory');
}

/** The `cwd:` of a Copilot CLI session folder's `workspace.yaml` (a plain or quoted scalar). */
function workspaceYamlCwd(file: string): string | undefined {
  const match = /^cwd:[ \t]*(.+?)[ \t]*$/m.exec(readHead(file, SMALL_HEAD_BYTES) ?? '');
  if (!match) return undefined;
  const value = match[1];
  if (value.startsWith('"')) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return undefined;
    }
  }
  return value.startsWith("'") && value.endsWith("'") ? value.slice(1, -1).replace(/''/g, "'") : value;
}

/**
 * `~/.copilot/session-state/<id>/events.jsonl` (older: `<id>.jsonl`), owned by session.start's
 * `context.cwd`, or by the `cwd` in the session folder's `workspace.yaml`.
 */
const copilotCli: Lister = (location, host, workspace) => {
  const p = hostPath(host);
  const files = [
    ...conversationFiles(host, location.path, (name) => name.endsWith('.jsonl')),
    ...listNames(location.path)
      .map((id) => p.join(location.path, id, 'events.jsonl'))
      .filter((file) => fs.existsSync(file)),
  ].sort();
  return files.map((file) => {
    const event = firstJsonLine(readHead(file, SMALL_HEAD_BYTES) ?? '');
    const data = isObject(event) && event.type === 'session.start' && isObject(event.data) ? event.data : undefined;
    const context = data && isObject(data.context) ? data.context : undefined;
    const cwd =
      (context ? text(context.cwd) : undefined) ??
      (p.basename(file) === 'events.jsonl' ? workspaceYamlCwd(p.join(p.dirname(file), 'workspace.yaml')) : undefined);
    return owned('copilot-cli', file, cwd, host, workspace);
  });
};

/** `.aider.chat.history.md` in the workspace itself. */
const aider: Lister = (location, _host, workspace) =>
  fs.existsSync(location.path) && !isDir(location.path) ? [{ tool: 'aider', path: location.path, workspace, matches: true }] : [];

/** `~/.cursor/projects/<project>/agent-transcripts/**`, owned by the project folder's name. */
const cursor: Lister = (location, host, workspace) => {
  const p = hostPath(host);
  const mine = cursorProjectName(host, workspace);
  const found: FoundSession[] = [];
  for (const project of listNames(location.path).sort()) {
    walkTree(p.join(location.path, project, 'agent-transcripts'), {
      sorted: true,
      // A session's subagents/ transcripts are part of it, as Claude Code's are, not sessions of their own.
      enter: (_entry, full) => !isClaudeCodeSessionSideFolder(full),
      file: (entry, full) => {
        if (entry.isFile() && isConversationFileName(entry.name))
          found.push({ tool: 'cursor', path: full, workspace: project, matches: project === mine });
      },
    });
  }
  return found;
};

/**
 * OpenCode's data folder: `opencode*.db` sessions (since 1.2), each named `<db>#<id>`, and the
 * storage folder's `session/<project>/ses_*.json` (up to 1.1; those migrated into the database are
 * left to it), each owned by the session's `directory` and standing for its whole session
 * (assembledSources.ts). Subagent sessions are part of their parent's and not listed.
 */
const opencode: Lister = (location, host, workspace) => {
  const found: FoundSession[] = [];
  for (const name of listNames(location.path).filter(isOpenCodeDatabase).sort()) {
    try {
      for (const session of listDatabaseSessions(hostPath(host).join(location.path, name))) {
        found.push(owned('opencode', session.path, session.directory, host, workspace));
      }
    } catch {
      // A database that cannot be read: a harvest of it names the problem; discovery lists the rest.
    }
  }
  const storage = hostPath(host).join(location.path, OPENCODE_STORAGE_NAME);
  if (!isOpenCodeStorageFolder(storage)) return found;
  for (const session of listStorageSessions(storage)) {
    found.push(owned('opencode', session.path, jsonStringField(readHead(session.path) ?? '', 'directory'), host, workspace));
  }
  return found;
};

const LISTERS: Record<ToolId, Lister> = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'copilot-chat': copilotChat,
  cline: taskExtension,
  'roo-code': taskExtension,
  'kilo-code': taskExtension,
  continue: continueDev,
  'copilot-cli': copilotCli,
  aider,
  cursor,
  opencode,
};

/** The sessions at one location of a tool, each with its workspace; none when the location does not exist. */
export function sessionsAt(location: ToolLocation, host: Host, workspace: string): FoundSession[] {
  return LISTERS[location.tool](location, host, workspace);
}
