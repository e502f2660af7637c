// A newcomer's machine for the first-run walk (firstRunPath.itest.ts, `screenshots.mjs --first-run`):
// a project folder with no knowledge store, and real agent sessions (the licensed transcripts in
// test/fixtures/corpus, see its README) where Claude Code and Codex keep them, under a home folder
// inside the sandbox. Two Claude Code sessions and one Codex session belong to the project; one
// Claude Code session belongs to another project and must never be offered.
// Plain ESM so that the runners use it without a compile step.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../../scripts/codeServer.mjs';

const CORPUS = path.join(ROOT, 'test', 'fixtures', 'corpus');

/** The project the newcomer opens: a few source files, no `.lore/`. */
const PROJECT = path.join(ROOT, 'examples', 'workspace');

/** The sessions planted: the corpus file, the tool, and whether it is the project's (or another project's). */
const SESSIONS = [
  { file: 'claude-code-jsonl/cctrace-phase0-investigation.jsonl', tool: 'claude-code', own: true },
  { file: 'claude-code-jsonl/claude-code-viewer-orchestrator-ja.jsonl', tool: 'claude-code', own: true },
  { file: 'codex-jsonl/privacy-x402-codex-session.jsonl', tool: 'codex', own: true },
  { file: 'claude-code-jsonl/claude-reliability-coverage-test-fix.jsonl', tool: 'claude-code', own: false },
];

/** Claude Code's folder name for a project: every character not a letter or digit as `-` (toolLocations.ts). */
const claudeProjectName = (dir) => path.resolve(dir).replace(/[^A-Za-z0-9]/g, '-');

/** The last `"timestamp"` a session recorded: its file gets that modification time, as on the machine that wrote it. */
function lastTimestamp(text) {
  const all = [...text.matchAll(/"timestamp":"(\d{4}-\d\d-\d\dT[^"]+)"/g)];
  const last = all.length ? Date.parse(all[all.length - 1][1]) : NaN;
  return Number.isNaN(last) ? new Date(Date.now() - 86_400_000) : new Date(last);
}

/** The session id a transcript records (Claude Code's sessionId, Codex's session_meta id). */
function sessionId(text) {
  return /"sessionId":"([^"]+)"/.exec(text)?.[1] ?? /"type":"session_meta","payload":\{"id":"([^"]+)"/.exec(text)?.[1];
}

/**
 * Prepares the machine inside `sandbox` (scripts/codeServer.mjs makeSandbox): the project at
 * `D/<name>`, HOME at `D/home` (so nothing of the real home folder is read), and the sessions under
 * the sandbox's CLAUDE_CONFIG_DIR and CODEX_HOME. Returns the project's path and what was planted.
 */
export function prepareFirstRunMachine(sandbox, name = 'orders-app') {
  const workspace = path.join(sandbox.dir, name);
  fs.cpSync(PROJECT, workspace, { recursive: true });
  const other = path.join(sandbox.dir, 'other-project');
  fs.mkdirSync(other, { recursive: true });
  sandbox.env.HOME = path.join(sandbox.dir, 'home');
  fs.mkdirSync(sandbox.env.HOME, { recursive: true });
  const planted = [];
  for (const s of SESSIONS) {
    const cwd = s.own ? workspace : other;
    // Every mention of the recorded folder moves with it (the cwd fields, and the paths tools were given).
    const recorded = fs.readFileSync(path.join(CORPUS, s.file), 'utf8');
    const text = recorded.split(/"cwd":"([^"]+)"/.exec(recorded)[1]).join(cwd);
    const id = sessionId(text);
    const when = lastTimestamp(text);
    let file;
    if (s.tool === 'claude-code') {
      file = path.join(sandbox.env.CLAUDE_CONFIG_DIR, 'projects', claudeProjectName(cwd), `${id}.jsonl`);
    } else {
      const started = /"timestamp":"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/.exec(text);
      const [, y, m, d, hh, mm, ss] = started;
      file = path.join(sandbox.env.CODEX_HOME, 'sessions', y, m, d, `rollout-${y}-${m}-${d}T${hh}-${mm}-${ss}-${id}.jsonl`);
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    // Long finished: a session written in the last minutes waits, as one an agent may still be writing.
    fs.utimesSync(file, when, when);
    planted.push({ tool: s.tool, path: file, id, own: s.own });
  }
  return { workspace, planted };
}
