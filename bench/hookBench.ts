/**
 * `lore hook` runs before every prompt (UserPromptSubmit) and at every session start, as a new
 * Node process: what it costs is process start + loading the CLI bundle + the work. Measured as
 * an agent runs it (dist/cli.js, the hook's JSON on stdin) on a store of 10,000 note files with
 * a 4 KB digest and a built search index, interleaved with a bare `node -e ''` start (the floor
 * any Node hook pays) and `lore --version` (the CLI's own start-up), so the ratios say what
 * Lore adds on top of Node.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SearchIndex } from '../src/core/services/search/searchIndex';
import { storePaths } from '../src/core/store/storePaths';
import { generateLargeStore, largeStoreFile } from '../test/server/largeStore';
import {
  baselineOf,
  formatNumber,
  makeResult,
  median,
  repeatInterleaved,
  scratchDir,
  type BenchContext,
  type BenchResult,
  type TaskSamples,
} from './benchSupport';

const FILES = 10_000;
const NOTES_PER_FILE = 10;
const REPS = 25;
const SPEC = `${FILES} files × ${NOTES_PER_FILE} notes, digest, index v1`;
/** A hook per prompt should cost at most this many bare Node starts. */
const RATIO_TARGET = 4;

const DECISIONS = Array.from(
  { length: 60 },
  (_, i) => `- Decision ${i}: the release pipeline step ${i} runs the tests before publishing [from: bench-${i}, 2026-11-${10 + (i % 18)}]`,
);

/** The generated workspace with digest and index, kept in .bench/ between runs. */
async function workspace(ctx: BenchContext): Promise<string> {
  const ws = path.join(scratchDir(ctx, 'hook-store'), 'ws');
  const marker = path.join(ws, '.spec');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === SPEC) return ws;
  fs.rmSync(ws, { recursive: true, force: true });
  ctx.log(`hook: generating ${FILES} files with ${FILES * NOTES_PER_FILE} note lines, a digest and the index`);
  generateLargeStore(ws, FILES, NOTES_PER_FILE);
  const paths = storePaths(path.join(ws, '.lore'), ws);
  fs.writeFileSync(path.join(paths.root, 'decisions.md'), `# Decisions\n\n${DECISIONS.join('\n')}\n`);
  const cli = path.join(ctx.repoRoot, 'dist', 'cli.js');
  const digest = spawnSync(process.execPath, [cli, 'digest', '--root', paths.root], { encoding: 'utf8' });
  if (digest.status !== 0) throw new Error(`lore digest: ${digest.stderr}`);
  const index = SearchIndex.open(paths, { embedder: null });
  await index.update();
  index.close();
  fs.writeFileSync(marker, SPEC);
  return ws;
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const cli = path.join(ctx.repoRoot, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: npm run build`);
  const ws = await workspace(ctx);
  const named = largeStoreFile(4321);
  const env = { ...process.env, LORE_ROOT: '', LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '' };
  const spawn = (args: string[], input?: string) => {
    const result = spawnSync(process.execPath, args, { cwd: ws, env, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return result.stdout;
  };
  // Each timed prompt opens a session of its own: the first prompt of a session Lore has not seen start does the
  // most (digest, notes, hits, a new session record); a later one does the same reading and prints less.
  let prompts = 0;
  const prompt = () =>
    JSON.stringify({
      session_id: `bench-prompt-${prompts++}`,
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: `Why does the release pipeline run the tests first? See ${named}.`,
    });
  const start = JSON.stringify({ session_id: 'bench', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' });
  const end = JSON.stringify({
    session_id: 'bench',
    cwd: ws,
    hook_event_name: 'SessionEnd',
    transcript_path: path.join(ws, 'none.jsonl'),
    reason: 'other',
  });
  // PostToolUse runs on every file tool call: the file alternates so each run writes the session's list.
  let toolCalls = 0;
  const tool = () =>
    JSON.stringify({
      session_id: 'bench',
      cwd: ws,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: path.join(ws, 'src', `file-${toolCalls++ % 2}.ts`), old_string: 'a', new_string: 'b' },
      tool_response: { success: true },
      tool_use_id: 'bench',
    });
  // Warm-up, and a check that the hook answers with all three parts.
  const reply = JSON.parse(spawn([cli, 'hook'], prompt())).hookSpecificOutput.additionalContext as string;
  for (const tag of ['{knowledge}', '{file-notes}', '{search-hits}'])
    if (!reply.includes(tag)) throw new Error(`the hook's context has no ${tag}`);
  spawn([cli, 'hook'], start);

  // The same prompt on the same store with 20 topics (topic files parsed, tiers 1 and 2, topics with
  // a subscription injected): the topics folder is in place only for that task (renamed outside the timing).
  const topicsOn = path.join(ws, '.lore', 'topics');
  const topicsOff = path.join(ws, '.lore', 'topics.off');
  const topics = (on: boolean) => () => {
    if (on && fs.existsSync(topicsOff)) fs.renameSync(topicsOff, topicsOn);
    if (!on && fs.existsSync(topicsOn)) fs.renameSync(topicsOn, topicsOff);
  };
  fs.rmSync(topicsOn, { recursive: true, force: true });
  fs.mkdirSync(topicsOff, { recursive: true });
  for (let i = 0; i < 20; i++) {
    fs.writeFileSync(
      path.join(topicsOff, `topic-${i}.md`),
      `---\ntriggers:\n  - keywords: [${i < 2 ? 'release' : `word${i}`}]\n  - pattern: "\\\\bstep ${i}\\\\b"\n    scope: output\nsubscriptions:\n  - .lore/decisions.md\nmax_context_kb: 2\n---\nTopic ${i}: run the tests before publishing a release.\n`,
    );
  }
  topics(true)();
  const topicReply = JSON.parse(spawn([cli, 'hook'], prompt())).hookSpecificOutput.additionalContext as string;
  if (!topicReply.includes('{topics}')) throw new Error("the hook's context has no {topics}");

  ctx.log(
    `hook: node -e '', lore --version, lore hook (SessionEnd, PostToolUse, SessionStart, UserPromptSubmit, UserPromptSubmit with topics) interleaved ×${REPS}`,
  );
  let measured: TaskSamples[];
  try {
    measured = await repeatInterleaved(REPS, [
      { fn: () => spawn(['-e', '']), setup: topics(false) },
      { fn: () => spawn([cli, '--version']) },
      { fn: () => spawn([cli, 'hook'], end) },
      { fn: () => spawn([cli, 'hook'], tool()) },
      { fn: () => spawn([cli, 'hook'], start) },
      { fn: () => spawn([cli, 'hook'], prompt()) },
      { fn: () => spawn([cli, 'hook'], prompt()), setup: topics(true) },
    ]);
  } finally {
    for (const dir of [
      topicsOn,
      topicsOff,
      path.join(ws, '.lore', '.logs'),
      path.join(ws, '.lore', '.cache', 'tool-files'),
      path.join(ws, '.lore', '.cache', 'hook-sessions'),
    ])
      fs.rmSync(dir, { recursive: true, force: true });
  }
  const [bare, version, capture, toolCall, session, perPrompt, withTopics] = measured;
  const baseline = baselineOf("node -e '' (a bare Node start)", 'ms', bare.wall);
  const notes = [
    `store: ${FILES} note files, 4 KB digest, SQLite index; the prompt names ${named} and matches decisions`,
    `context: ${reply.length} characters; medians: node ${formatNumber(median(bare.wall))} ms, lore --version ${formatNumber(median(version.wall))} ms`,
  ];
  return [
    makeResult({ name: 'lore --version (CLI start-up)', unit: 'ms', samples: version.wall, baseline }),
    makeResult({ name: 'lore hook SessionEnd (capture, refused transcript)', unit: 'ms', samples: capture.wall, baseline }),
    makeResult({
      name: "lore hook PostToolUse (the tool call's file recorded)",
      unit: 'ms',
      samples: toolCall.wall,
      baseline,
      target: { on: 'ratio', op: '<=', threshold: RATIO_TARGET },
    }),
    makeResult({
      name: 'lore hook SessionStart (digest)',
      unit: 'ms',
      samples: session.wall,
      baseline,
      target: { on: 'ratio', op: '<=', threshold: RATIO_TARGET },
    }),
    makeResult({
      name: "lore hook UserPromptSubmit (a session's first prompt: digest + notes + hits)",
      unit: 'ms',
      samples: perPrompt.wall,
      baseline,
      target: { on: 'ratio', op: '<=', threshold: RATIO_TARGET },
      notes,
    }),
    makeResult({
      name: 'lore hook UserPromptSubmit with 20 topics',
      unit: 'ms',
      samples: withTopics.wall,
      baseline,
      target: { on: 'ratio', op: '<=', threshold: RATIO_TARGET },
      notes: [
        `context: ${topicReply.length} characters with {topics}; topic files parsed once (cached by their hash), tiers 1 and 2, two topics injected with a subscription`,
      ],
    }),
  ];
}
