/**
 * `lore hook`: what Claude Code's and VS Code's agent hooks run (`lore hooks install` writes the
 * configuration). It reads the hook's JSON on stdin and finds the store of the agent's folder.
 * SessionEnd, PreCompact and Stop queue the session for the next harvest
 * (src/core/hooks/hookCapture.ts) and print nothing; PreToolUse and PostToolUse record the files
 * the tool call names (src/core/hooks/toolFiles.ts); SessionStart and UserPromptSubmit print the
 * store's knowledge as `hookSpecificOutput.additionalContext` (src/core/hooks/hookContext.ts).
 * An agent must never wait on it or fail because of it: it always exits 0, gives up on the slow
 * parts after a time limit, and says what it could not do in `<store>/.cache/hook.log`. A folder
 * without a store is left alone (a user-level hook runs in every project).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { currentHost } from '../../core/services/discovery/host';
import { captureSession, HookRefusal, readTranscriptTail } from '../../core/services/hooks/hookCapture';
import { CONTEXT_EVENTS, TOOL_EVENTS } from '../../core/services/hooks/hookEvents';
import { parseHookInput, type HookInput } from '../../core/services/hooks/hookInput';
import { foreignFolderReason } from '../../core/services/hooks/hookScope';
import { logHook } from '../../core/services/hooks/hookLog';
import { takeLinkNotices } from '../../core/base/storeLinks';
import { recordUses } from '../../core/store/lifecycle/usageLog';
import { stripPrivateSpans } from '../../core/model/safety/privateSpans';
import { storePrivateMarkers } from '../../core/store/storeConfig';
import { storePaths, type StorePaths } from '../../core/store/storePaths';
import { selfParsedCommand } from '../command';
import { EXIT_OK, cwdOf, envOf, storeForFolder, type Output } from '../cliSupport';
import { lazy } from '../../core/base/lazy';

const sessionContextModule = lazy(
  () => require('../../core/services/hooks/sessionContext') as typeof import('../../core/services/hooks/sessionContext'),
);
const toolFilesModule = lazy(() => require('../../core/services/hooks/toolFiles') as typeof import('../../core/services/hooks/toolFiles'));
const lastReplyModule = lazy(
  () => require('../../core/services/topics/lastReply') as typeof import('../../core/services/topics/lastReply'),
);
const outputWatchModule = lazy(
  () => require('../../core/services/topics/outputWatch') as typeof import('../../core/services/topics/outputWatch'),
);

// Parsed here, not from the declaration: a hook written by another Lore version may pass an option this one does not know.
export const hookCommand = selfParsedCommand({
  name: 'hook',
  usage: ['[--root DIR]'],
  description: `
Run by agent hooks (Claude Code, VS Code), with the hook's JSON on stdin; set up with "lore hooks install".
SessionEnd and PreCompact (and VS Code's Stop) copy the session's transcript into the store's inbox;
Claude Code's Stop queues it where it lies, for the next harvest; these print nothing. On Stop the
topics' output watchers also run on the agent's last reply, leaving corrective topics for the next prompt.
PostToolUse (and PreToolUse) record the files the tool call names (file_path, notebook_path, path;
VS Code's files, filePath) for the session, at most 20, in <store>/.cache/tool-files/; they print nothing.
SessionStart and UserPromptSubmit print {"hookSpecificOutput": {"hookEventName", "additionalContext"}}:
the digest once per session (at SessionStart, again after /clear or a compaction), and with each prompt
only what the session was not given before (kept per session in <store>/.cache/hook-sessions/):
the notes of files the prompt names, the topics the prompt activates (tiers 1 and 2, glob
triggers matched against the files the prompt names and the session's recent tool files; the
gate is never asked in a hook, so gated topics follow the no-gate rows) and the items that best match the prompt, at most
10,000 characters, framed as data, each note and item with its id, redacted, without items held for
review (nothing when there is nothing new). The store is the one of the agent's folder (cwd in the input) unless --root
is given. Always exits 0; problems go to <store>/.cache/hook.log.`,
  options: {},
  run: hook,
});

/** A hook's input is a few hundred bytes; anything near this is not one. */
const MAX_INPUT_BYTES = 1024 * 1024;
/** A caller that never closes stdin must not hold the agent: give up reading after this. */
const INPUT_TIMEOUT_MS = 5000;
/** Context must not hold a prompt up: after this the notes and the search are skipped. */
const CONTEXT_TIME_LIMIT_MS = 1500;

async function hook(argv: string[], io: Output, help: string): Promise<number> {
  try {
    return await runHook(argv, io, help);
  } catch {
    return EXIT_OK; // Even a Lore bug must not fail the agent.
  }
}

async function runHook(argv: string[], io: Output, help: string): Promise<number> {
  let root: string | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { root: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      io.out(help);
      return EXIT_OK;
    }
    root = values.root;
  } catch {
    // A hook written by another Lore version may pass an option this one does not know: still act.
  }
  const input = await readInput(io);
  const parsed = input.problem ? { problem: input.problem } : parseHookInput(input.text);
  // The agent's folder when the input names one, else where the hook was started (the project).
  const folder = 'problem' in parsed ? cwdOf(io) : path.resolve(cwdOf(io), parsed.cwd);
  const paths: StorePaths = root !== undefined ? storePaths(path.resolve(cwdOf(io), root)) : storeForFolder(folder, io);
  if (!isFolder(paths.root)) return EXIT_OK;
  if ('problem' in parsed) {
    logHook(paths, `hook: ${parsed.problem}`);
    return EXIT_OK;
  }
  // Another project's session: no copy, no context from this store (hookScope.ts).
  const foreign = foreignFolderReason(paths, folder, currentHost(envOf(io)));
  if (foreign) {
    logHook(paths, `${parsed.event} ${parsed.sessionId}: refused: ${foreign}`);
    return EXIT_OK;
  }
  if (CONTEXT_EVENTS.includes(parsed.event)) return answerWithContext(paths, parsed, folder, io);
  if (TOOL_EVENTS.includes(parsed.event)) return recordTools(paths, parsed, folder);
  if (parsed.event === 'Stop') watchOutput(paths, parsed, io);
  try {
    const result = captureSession(paths, parsed, currentHost(envOf(io)));
    if (result.action === 'copied') {
      logHook(
        paths,
        `${parsed.event} ${parsed.sessionId}: copied to ${result.file}${result.superseded.length ? `, replacing ${result.superseded.join(', ')}` : ''}`,
      );
    }
  } catch (error) {
    const message =
      error instanceof HookRefusal ? error.message : `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${(error as Error).message}`;
    logHook(paths, `${parsed.event} ${parsed.sessionId}: nothing queued: ${message}`);
  }
  return EXIT_OK;
}

/** Prints the context for SessionStart / UserPromptSubmit; any failure is logged and prints nothing. */
function answerWithContext(paths: StorePaths, input: HookInput, folder: string, io: Output): number {
  const started = performance.now();
  try {
    const { sessionHookContext } = sessionContextModule();
    // The prompt is conversation text: its private spans name no file, activate no topic and reach no embedding model.
    const prompt = input.prompt === undefined ? undefined : stripPrivateSpans(input.prompt, storePrivateMarkers(paths.config));
    const { text, usedIds } = sessionHookContext(
      paths,
      { event: input.event, prompt, cwd: folder, sessionId: input.sessionId, source: input.source },
      {
        deadline: started + CONTEXT_TIME_LIMIT_MS,
        log: (message) => logHook(paths, `${input.event}: ${message}`),
      },
    );
    // Built completely before anything is printed: half a JSON object would be worse than none.
    if (text) io.out(JSON.stringify({ hookSpecificOutput: { hookEventName: input.event, additionalContext: text } }));
    // One appended line (never throws): what the agent was handed counts as used (lifecycle/decay.ts).
    if (text && usedIds?.length) recordUses(paths, usedIds, 'hook');
  } catch (error) {
    logHook(paths, `${input.event}: no context: ${(error as NodeJS.ErrnoException).code ?? 'error'}: ${(error as Error).message}`);
  }
  // A store file left out of the context as a link out of the store: the hook's log says which.
  for (const notice of takeLinkNotices()) logHook(paths, `${input.event}: ${notice}`);
  return EXIT_OK;
}

/**
 * PreToolUse / PostToolUse: the files the tool call names are kept for the session's next
 * prompts (the topics' glob triggers). Runs on every tool call: a read and a small write in
 * .cache, nothing else; prints nothing, so the tool call goes on as it would.
 */
function recordTools(paths: StorePaths, input: HookInput, folder: string): number {
  if (!input.toolFiles?.length) return EXIT_OK;
  try {
    const { recordToolFiles } = toolFilesModule();
    recordToolFiles(paths, input.sessionId, folder, input.toolFiles);
  } catch (error) {
    logHook(
      paths,
      `${input.event} ${input.sessionId}: tool files not recorded: ${(error as NodeJS.ErrnoException).code ?? 'error'}: ${(error as Error).message}`,
    );
  }
  return EXIT_OK;
}

/** The end of a transcript the output watchers read: the last reply is near the end. */
const REPLY_TAIL_BYTES = 256 * 1024;

/**
 * Stop: the topics' output watchers run on the agent's last reply and leave corrective topics for
 * the session's next prompt. Only when the store has topics; problems are logged.
 */
function watchOutput(paths: StorePaths, input: HookInput, io: Output): void {
  try {
    if (!isFolder(path.join(paths.root, 'topics'))) return;
    // Loaded only for a store with topics: the topic parser brings zod, which most hooks never need.
    const { lastAssistantReply } = lastReplyModule();
    const { watchReply } = outputWatchModule();
    const reply = lastAssistantReply(readTranscriptTail(paths, currentHost(envOf(io)), input.transcriptPath, REPLY_TAIL_BYTES));
    const pending = watchReply(paths, input.sessionId, reply);
    if (pending.length)
      logHook(paths, `Stop ${input.sessionId}: output watchers activated ${pending.map((p) => p.topic).join(', ')} for the next prompt`);
  } catch (error) {
    const message =
      error instanceof HookRefusal ? error.message : `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${(error as Error).message}`;
    logHook(paths, `Stop ${input.sessionId}: output watchers not run: ${message}`);
  }
}

function isFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** stdin as text, capped in size and time; never rejects. */
function readInput(io: Output): Promise<{ text: string; problem?: string }> {
  const stream = io.stdin ?? process.stdin;
  if (stream.isTTY) return Promise.resolve({ text: '', problem: 'stdin is a terminal, not a hook input' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (problem?: string) => {
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.removeAllListeners('end');
      stream.removeAllListeners('error');
      // Left open, a stdin nobody closes would keep the process (and the agent) waiting.
      if (problem) (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), problem });
    };
    const timer = setTimeout(() => finish(`stdin was not closed within ${INPUT_TIMEOUT_MS / 1000} s`), INPUT_TIMEOUT_MS);
    stream.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > MAX_INPUT_BYTES) return finish(`stdin is larger than ${MAX_INPUT_BYTES} bytes`);
      chunks.push(bytes);
    });
    stream.on('end', () => finish());
    stream.on('error', (error: Error) => finish(`stdin: ${error.message}`));
  });
}
