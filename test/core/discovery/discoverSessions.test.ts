import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverSessions, type ToolSessions } from '../../../src/core/services/discovery/discoverSessions';
import type { Host } from '../../../src/core/services/discovery/host';
import type { ToolId } from '../../../src/core/services/discovery/toolLocations';
import { buildOpenCodeDb } from '../../helpers/opencodeDb';
import { makeTempDir } from '../../helpers/paths';

function write(file: string, content: string | object): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const jsonl = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/**
 * A Linux home with sessions of every tool for two workspaces, `app` (the one asked about) and
 * `other`, laid out as each tool lays them out.
 */
function fixtureHome(): { host: Host; workspace: string; other: string; mine: Record<string, string[]> } {
  const root = makeTempDir('lore-discovery-');
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'src', 'my.app');
  const other = path.join(root, 'src', 'other');
  fs.mkdirSync(workspace, { recursive: true });
  const mine: Record<string, string[]> = {};
  const add = (tool: string, file: string) => (mine[tool] ??= []).push(file);

  // Claude Code: one folder per project, named by the mangled path; subagents are part of their session.
  const claude = path.join(home, '.claude', 'projects');
  const mangled = workspace.replace(/[^A-Za-z0-9]/g, '-');
  add(
    'claude-code',
    write(path.join(claude, mangled, '0b7f1a52-1111-4222-8333-944455556666.jsonl'), jsonl({ type: 'user', cwd: workspace })),
  );
  write(path.join(claude, mangled, '0b7f1a52-1111-4222-8333-944455556666', 'subagents', 'agent-a1.jsonl'), jsonl({ type: 'user' }));
  write(path.join(claude, mangled, 'agent-0123abcd.jsonl'), jsonl({ type: 'user' }));
  write(
    path.join(claude, other.replace(/[^A-Za-z0-9]/g, '-'), 'c0ffee00-1111-4222-8333-944455556666.jsonl'),
    jsonl({ type: 'user', cwd: other }),
  );

  // Codex: rollouts by date, the workspace in session_meta's cwd.
  const day = path.join(home, '.codex', 'sessions', '2026', '11', '20');
  add(
    'codex',
    write(path.join(day, 'rollout-2026-11-20T10-00-00-a.jsonl'), jsonl({ type: 'session_meta', payload: { id: 'a', cwd: workspace } })),
  );
  write(path.join(day, 'rollout-2026-11-20T11-00-00-b.jsonl'), jsonl({ type: 'session_meta', payload: { id: 'b', cwd: other } }));
  write(path.join(day, 'rollout-2026-11-20T12-00-00-c.jsonl'), 'not a rollout\n');
  // A session_meta line longer than the head discovery reads (base instructions): its cwd still counts.
  add(
    'codex',
    write(
      path.join(day, 'rollout-2026-11-20T13-00-00-d.jsonl'),
      jsonl({ type: 'session_meta', payload: { id: 'd', cwd: workspace, base_instructions: { text: 'x'.repeat(100_000) } } }),
    ),
  );

  // VS Code: Copilot Chat sessions per workspace storage hash, the folder in workspace.json.
  const storage = path.join(home, '.config', 'Code', 'User', 'workspaceStorage');
  write(path.join(storage, 'aaa111', 'workspace.json'), {
    folder: 'file://' + workspace.split(path.sep).map(encodeURIComponent).join('/'),
  });
  add('copilot-chat', write(path.join(storage, 'aaa111', 'chatSessions', 's1.jsonl'), jsonl({ kind: 0, v: { sessionId: 's1' } })));
  write(path.join(storage, 'bbb222', 'workspace.json'), { folder: 'file://' + other });
  write(path.join(storage, 'bbb222', 'chatSessions', 's2.json'), { sessionId: 's2', requests: [] });
  write(path.join(storage, 'ccc333', 'workspace.json'), { workspace: 'file:///home/dev/team.code-workspace' });
  write(path.join(storage, 'ccc333', 'chatSessions', 's3.json'), { sessionId: 's3', requests: [] });
  // code-server keeps its user data under ~/.local/share.
  const serverStorage = path.join(home, '.local', 'share', 'code-server', 'User', 'workspaceStorage');
  write(path.join(serverStorage, 'ddd444', 'workspace.json'), { folder: 'file://' + workspace });
  add('copilot-chat', write(path.join(serverStorage, 'ddd444', 'chatSessions', 's4.json'), { sessionId: 's4', requests: [] }));

  // Gemini CLI: the legacy sha256 project folder, a slug folder with .project_root, one from projects.json.
  const gemini = path.join(home, '.gemini');
  const hash = createHash('sha256').update(workspace).digest('hex');
  add(
    'gemini-cli',
    write(path.join(gemini, 'tmp', hash, 'chats', 'session-2026-11-20T10-00-aaaa.json'), {
      sessionId: 'g1',
      projectHash: hash,
      messages: [],
    }),
  );
  write(path.join(gemini, 'tmp', 'my-app', '.project_root'), workspace + '\n');
  add(
    'gemini-cli',
    write(path.join(gemini, 'tmp', 'my-app', 'chats', 'session-2026-11-21T10-00-bbbb.jsonl'), jsonl({ sessionId: 'g2', projectHash: 'x' })),
  );
  write(path.join(gemini, 'projects.json'), { projects: { [other]: 'other' } });
  write(path.join(gemini, 'tmp', 'other', 'chats', 'session-2026-11-21T11-00-cccc.jsonl'), jsonl({ sessionId: 'g3', projectHash: 'y' }));
  write(path.join(gemini, 'tmp', 'bin', 'rg'), 'binary');

  // Cline records the task's folder in state/taskHistory.json; Roo Code in the task's history_item.json.
  const cline = path.join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev');
  write(path.join(cline, 'state', 'taskHistory.json'), [
    { id: '1700000000001', ts: 1, task: 'x', cwdOnTaskInitialization: workspace },
    { id: '1700000000002', ts: 2, task: 'y', cwdOnTaskInitialization: other },
  ]);
  add('cline', write(path.join(cline, 'tasks', '1700000000001', 'api_conversation_history.json'), []));
  write(path.join(cline, 'tasks', '1700000000002', 'api_conversation_history.json'), []);
  write(path.join(cline, 'tasks', '1700000000003', 'api_conversation_history.json'), []);
  const roo = path.join(home, '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline');
  write(path.join(roo, 'tasks', 'r1', 'history_item.json'), { id: 'r1', workspace });
  add('roo-code', write(path.join(roo, 'tasks', 'r1', 'api_conversation_history.json'), []));

  // Continue: the workspace is a session's workspaceDirectory; sessions.json is its index.
  const cont = path.join(home, '.continue', 'sessions');
  add(
    'continue',
    write(path.join(cont, 'c1.json'), { sessionId: 'c1', title: 't', workspaceDirectory: 'file://' + workspace, history: [] }),
  );
  write(path.join(cont, 'c2.json'), { sessionId: 'c2', title: 't', workspaceDirectory: other, history: [] });
  // Written before Continue ordered the keys: the workspace comes after a history longer than the head read.
  const attached = { name: 'big.ts', description: 'big.ts', content: 'x'.repeat(100_000), id: { providerTitle: 'file', itemId: '1' } };
  const historyFirst = {
    history: [{ message: { role: 'user', content: 'hi' }, contextItems: [attached] }],
    title: 't',
    sessionId: 'c3',
    workspaceDirectory: workspace,
  };
  add('continue', write(path.join(cont, 'c3.json'), JSON.stringify(historyFirst, undefined, 2)));
  write(path.join(cont, 'sessions.json'), [{ sessionId: 'c1', workspaceDirectory: workspace }]);

  // Copilot CLI: session.start's context.cwd, in a session folder or (older) a file.
  const copilot = path.join(home, '.copilot', 'session-state');
  add(
    'copilot-cli',
    write(path.join(copilot, 'old-1.jsonl'), jsonl({ type: 'session.start', data: { sessionId: 'old-1', context: { cwd: workspace } } })),
  );
  add(
    'copilot-cli',
    write(
      path.join(copilot, 'new-2', 'events.jsonl'),
      jsonl({ type: 'session.start', data: { sessionId: 'new-2', context: { cwd: workspace } } }),
    ),
  );
  write(
    path.join(copilot, 'new-3', 'events.jsonl'),
    jsonl({ type: 'session.start', data: { sessionId: 'new-3', context: { cwd: other } } }),
  );
  // A session whose first event is not session.start: its folder's workspace.yaml says where it ran.
  write(path.join(copilot, 'new-4', 'workspace.yaml'), `id: new-4\ncwd: "${workspace}"\nsummary: x\n`);
  add(
    'copilot-cli',
    write(path.join(copilot, 'new-4', 'events.jsonl'), jsonl({ type: 'user.message', data: { content: 'hi' }, parentId: null })),
  );

  // Aider keeps its history in the workspace.
  add('aider', write(path.join(workspace, '.aider.chat.history.md'), '# aider chat started at 2026-11-20 10:00:00\n\n#### hi\n'));

  // Cursor and OpenCode (no importer of Lore's own reads these yet, or another does: only listed).
  const cursorName = workspace.replace(/^\/+/, '').replace(/[^A-Za-z0-9]/g, '-');
  add(
    'cursor',
    write(
      path.join(home, '.cursor', 'projects', cursorName, 'agent-transcripts', 'u1', 'u1.jsonl'),
      jsonl({ role: 'user', message: { content: [] } }),
    ),
  );
  // A Cursor session's subagent transcripts are part of it.
  const cursorSession = path.join(home, '.cursor', 'projects', cursorName, 'agent-transcripts', '7c1e4b2a-5d3f-4e6a-9b8c-0d1e2f3a4b5c');
  add(
    'cursor',
    write(path.join(cursorSession, '7c1e4b2a-5d3f-4e6a-9b8c-0d1e2f3a4b5c.jsonl'), jsonl({ role: 'user', message: { content: [] } })),
  );
  write(
    path.join(cursorSession, 'subagents', '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a.jsonl'),
    jsonl({ role: 'user', message: { content: [] } }),
  );
  write(path.join(home, '.cursor', 'projects', 'home-dev-other', 'agent-transcripts', 'u2.jsonl'), jsonl({ role: 'user' }));
  const opencode = path.join(home, '.local', 'share', 'opencode', 'storage', 'session');
  add('opencode', write(path.join(opencode, 'proj1', 'ses_1.json'), { id: 'ses_1', directory: workspace, title: 't' }));
  write(path.join(opencode, 'proj2', 'ses_2.json'), { id: 'ses_2', directory: other, title: 't' });
  // A subagent's session is part of its parent's.
  write(path.join(opencode, 'proj1', 'ses_3.json'), { id: 'ses_3', parentID: 'ses_1', directory: workspace, title: 't' });
  fs.mkdirSync(path.join(opencode, '..', 'message'), { recursive: true });
  // Since OpenCode 1.2 its sessions are rows of opencode.db beside the storage folder, named `<db>#<id>`.
  const migrated = path.join(root, 'migrated-storage');
  write(path.join(migrated, 'session', 'proj1', 'ses_db1.json'), { id: 'ses_db1', directory: workspace, title: 't', version: '1.2.0' });
  write(path.join(migrated, 'session', 'proj2', 'ses_db2.json'), { id: 'ses_db2', directory: other, title: 't', version: '1.2.0' });
  fs.mkdirSync(path.join(migrated, 'message'));
  fs.mkdirSync(path.join(migrated, 'part'));
  const db = path.join(home, '.local', 'share', 'opencode', 'opencode.db');
  buildOpenCodeDb(migrated, db);
  add('opencode', `${db}#ses_db1`);

  return { host: { platform: 'linux', home, env: {} }, workspace, other, mine };
}

const byTool = (found: ToolSessions[]) =>
  Object.fromEntries(found.filter((t) => t.sessions.length > 0).map((t) => [t.tool, t.sessions.map((s) => s.path)]));

describe('discovery: which sessions belong to the workspace', () => {
  it("finds each tool's sessions of this workspace and none of another's", () => {
    const { host, workspace, mine } = fixtureHome();
    const found = discoverSessions(host, workspace);
    assert.deepEqual(byTool(found), Object.fromEntries(Object.entries(mine).map(([tool, files]) => [tool, [...files].sort()])));
    const others = Object.fromEntries(found.map((t) => [t.tool, t.otherWorkspaces]));
    // Codex's unreadable rollout and Cline's task without a recorded folder count as other workspaces'.
    assert.deepEqual(others, {
      'claude-code': 1,
      codex: 2,
      'gemini-cli': 1,
      'copilot-chat': 2,
      cline: 2,
      'roo-code': 0,
      'kilo-code': 0,
      continue: 1,
      'copilot-cli': 1,
      aider: 0,
      cursor: 1,
      opencode: 2,
    });
  });

  it('lists the sessions of other workspaces only when asked, with the workspace each records', () => {
    const { host, workspace, other } = fixtureHome();
    const all = discoverSessions(host, workspace, { allWorkspaces: true, tools: ['codex', 'continue', 'gemini-cli'] as ToolId[] });
    assert.deepEqual(
      all.map((t) => t.tool),
      ['codex', 'gemini-cli', 'continue'],
    );
    const codex = all[0].sessions;
    assert.equal(codex.length, 4);
    assert.deepEqual(
      codex.filter((s) => !s.matches).map((s) => s.workspace),
      [other, undefined],
    );
    assert.deepEqual(
      all[1].sessions.filter((s) => !s.matches).map((s) => s.workspace),
      [other],
    );
    assert.deepEqual(
      all[2].sessions.map((s) => [path.basename(s.path), s.matches]),
      [
        ['c1.json', true],
        ['c2.json', false],
        ['c3.json', true],
      ],
    );
  });

  it("macOS: finds VS Code's and Cline's sessions under ~/Library/Application Support", () => {
    const home = makeTempDir('lore-mac-');
    const workspace = path.join(home, 'src', 'app');
    const code = path.join(home, 'Library', 'Application Support', 'Code', 'User');
    write(path.join(code, 'workspaceStorage', 'h1', 'workspace.json'), { folder: 'file://' + workspace });
    const chat = write(path.join(code, 'workspaceStorage', 'h1', 'chatSessions', 's.json'), { sessionId: 's', requests: [] });
    write(path.join(code, 'globalStorage', 'saoudrizwan.claude-dev', 'state', 'taskHistory.json'), [
      { id: 't1', workspaceIds: ['/elsewhere', workspace] },
    ]);
    const task = write(path.join(code, 'globalStorage', 'saoudrizwan.claude-dev', 'tasks', 't1', 'api_conversation_history.json'), []);
    // The Linux location of the same files is not where a Mac keeps them.
    write(path.join(home, '.config', 'Code', 'User', 'workspaceStorage', 'h2', 'workspace.json'), { folder: 'file://' + workspace });
    write(path.join(home, '.config', 'Code', 'User', 'workspaceStorage', 'h2', 'chatSessions', 'linux.json'), {
      sessionId: 'l',
      requests: [],
    });
    const found = discoverSessions({ platform: 'darwin', home, env: {} }, workspace, { tools: ['copilot-chat', 'cline'] });
    assert.deepEqual(byTool(found), { 'copilot-chat': [chat], cline: [task] });
  });

  it("Claude Code: tells projects apart by the folder a session ran in, not its project folder's name", () => {
    const root = makeTempDir('lore-claude-owners-');
    const home = path.join(root, 'home');
    const projects = path.join(home, '.claude', 'projects');
    const workspace = path.join(root, 'x', 'my-proj');
    const claudeName = (folder: string) => folder.replace(/[^A-Za-z0-9]/g, '-');
    const session = (folder: string, id: string, ...records: object[]) =>
      write(path.join(projects, claudeName(folder), `${id}.jsonl`), jsonl(...records));
    const prompt = (cwd: string) => ({ type: 'user', uuid: 'u1', sessionId: 's', cwd, message: { role: 'user', content: 'hi' } });
    // `/x/my/proj` is named `-…-x-my-proj` too: its session lies in the workspace's own project folder.
    // (It records its folder after a long summary, past the first KB read.)
    const own = session(
      workspace,
      '00000000-0000-4000-8000-000000000001',
      { type: 'summary', summary: 'T'.repeat(10_000), leafUuid: 'u1' },
      prompt(workspace),
    );
    const namesake = session(workspace, '00000000-0000-4000-8000-000000000002', prompt(path.join(root, 'x', 'my', 'proj')));
    // A session that records no folder is decided by its project folder's name.
    const unrecorded = session(workspace, '00000000-0000-4000-8000-000000000003', { type: 'summary', summary: 'T', leafUuid: 'u1' });
    // So is one copied in from elsewhere, whose folder would not have been named so.
    const copied = session(workspace, '00000000-0000-4000-8000-000000000007', prompt('/home/dev/shop'));
    // Started in a folder inside the workspace: the workspace's; in a sibling that shares the name's start: not.
    const api = path.join(workspace, 'packages', 'api');
    const inside = session(api, '00000000-0000-4000-8000-000000000004', prompt(api));
    const sibling = path.join(root, 'x', 'my-proj-2');
    session(sibling, '00000000-0000-4000-8000-000000000005', prompt(sibling));
    const inSibling = session(path.join(sibling, 'lib'), '00000000-0000-4000-8000-000000000006');
    // Codex records the folder too: a session started inside the workspace is the workspace's.
    const rollout = write(
      path.join(home, '.codex', 'sessions', '2026', '11', '20', 'rollout-2026-11-20T10-00-00-a.jsonl'),
      jsonl({ type: 'session_meta', payload: { id: 'a', cwd: api } }),
    );
    const host: Host = { platform: 'linux', home, env: {} };

    const found = discoverSessions(host, workspace, { tools: ['claude-code', 'codex'], allWorkspaces: true });
    const claude = found[0].sessions;
    assert.deepEqual(
      claude.filter((s) => s.matches).map((s) => s.path),
      [own, unrecorded, copied, inside],
    );
    assert.deepEqual(
      claude.filter((s) => s.path === namesake || s.path === inSibling).map((s) => [s.workspace, s.matches]),
      [
        [path.join(root, 'x', 'my', 'proj'), false],
        [claudeName(path.join(sibling, 'lib')), false],
      ],
    );
    assert.equal(found[0].otherWorkspaces, 3);
    assert.deepEqual(
      found[1].sessions.map((s) => [s.path, s.matches]),
      [[rollout, true]],
    );
    // Seen from the namesake folder: its own session, not the workspace's (those that record no folder, or not theirs, cannot be told).
    const fromNamesake = discoverSessions(host, path.join(root, 'x', 'my', 'proj'), { tools: ['claude-code'] });
    assert.deepEqual(
      fromNamesake[0].sessions.map((s) => s.path),
      [namesake, unrecorded, copied],
    );
  });

  it('a window on the home folder does not take the sessions of every project under it', () => {
    const home = makeTempDir('lore-home-ws-');
    const project = path.join(home, 'src', 'app');
    const inProject = write(
      path.join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), '00000000-0000-4000-8000-000000000001.jsonl'),
      jsonl({ type: 'user', uuid: 'u1', sessionId: 's', cwd: project, message: { role: 'user', content: 'hi' } }),
    );
    const atHome = write(
      path.join(home, '.claude', 'projects', home.replace(/[^A-Za-z0-9]/g, '-'), '00000000-0000-4000-8000-000000000002.jsonl'),
      jsonl({ type: 'user', uuid: 'u1', sessionId: 's', cwd: home, message: { role: 'user', content: 'hi' } }),
    );
    const host: Host = { platform: 'linux', home, env: {} };
    assert.deepEqual(
      discoverSessions(host, home, { tools: ['claude-code'] })[0].sessions.map((s) => s.path),
      [atHome],
    );
    assert.deepEqual(
      discoverSessions(host, path.join(home, 'src'), { tools: ['claude-code'] })[0].sessions.map((s) => s.path),
      [inProject],
    );
  });

  it('finds nothing, and fails on nothing, in an empty home', () => {
    const home = makeTempDir();
    const found = discoverSessions({ platform: 'linux', home, env: {} }, path.join(home, 'ws'));
    assert.deepEqual(
      found.map((t) => [t.locations.length, t.sessions.length, t.otherWorkspaces]),
      found.map(() => [0, 0, 0]),
    );
  });
});
