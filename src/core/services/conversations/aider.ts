/**
 * Importer for Aider's `.aider.chat.history.md`. Aider appends every session to the same file:
 * `# aider chat started at <time>` opens a session, `#### ` lines ending in two spaces are what the
 * user typed (consecutive ones are one message), `> ` lines are Aider's own console output, and everything
 * else is the model's reply. All sessions of a file become one conversation, in order.
 *
 * In architect mode Aider hands the architect's reply to the editor model as a user message and
 * logs it as `#### ` lines: that message is the model's, not the user's, and is dropped (counted as
 * `architect-handoff`). It is recognized by repeating the reply just logged, not by the
 * `Edit the files?` question before it: since `--auto-accept-architect` became the default
 * (v0.77) Aider no longer asks.
 */
import * as path from 'node:path';
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath } from './conversationId';
import { addTool, cleanText, countSkip, finishConversation, oneLine, trimBlankLines } from './importSupport';
import { toolLine } from './toolSummary';

const SESSION_START = /^# aider chat started at (\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/;
const USER_LINE = /^####(?: |$)/;
const TYPED_LINE_END = '  ';
const OUTPUT_LINE = /^>(?: |$)/;
const APPLIED_EDIT = /^Applied edit to (.+)$/;
const COMMIT = /^Commit ([0-9a-f]{7,40}) (.+)$/;
const MODEL = /^(?:Main model|Model): (\S+)/;
/** The line closing the reasoning some models write inline (Aider's `reasoning_tag: think`): the handoff omits it. */
const REASONING_END = '</think>';

/** A line logged since the last user message; `output` marks Aider's own `> ` lines. */
interface LoggedLine {
  text: string;
  output: boolean;
}

function detect(fileName: string, head: string): number {
  if (path.basename(fileName).toLowerCase().endsWith('.aider.chat.history.md')) return 0.95;
  if (/^# aider chat started at /m.test(head)) return 0.9;
  return 0;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv: Conversation = { id: conversationIdFromPath(sourcePath), format: 'aider', sourcePath, turns: [] };
  /** Start time of the current session, given to its first user message. */
  let sessionAt: string | undefined;
  let user: string[] | undefined;
  let reply: { turn: Turn; lines: string[] } | undefined;
  let thinking: 'tag' | 'marker' | undefined;
  /** What was logged since the last user message, and before the current one: a handoff repeats it. */
  let logged: LoggedLine[] = [];
  let loggedBefore: LoggedLine[] = [];
  /** The reply the current user message follows: the editor's work after a handoff continues it. */
  let replyBefore: typeof reply;

  const endUser = (): void => {
    if (!user) return;
    const text = trimBlankLines(user.join('\n'));
    if (repeatsReply(user, loggedBefore)) {
      countSkip(skipped, 'architect-handoff');
      // One exchange, one reply: the architect's plan, then the editor's edits (Aider logs a
      // blank line before every reply, which separates them).
      reply = replyBefore;
      while (reply?.lines.at(-1) === '') reply.lines.pop();
    } else if (text !== '') {
      conv.turns.push({ role: 'user', text, ...(sessionAt ? { at: sessionAt } : {}) });
      sessionAt = undefined;
    }
    user = undefined;
  };
  const endReply = (): void => {
    if (reply) reply.turn.text = trimBlankLines(reply.lines.join('\n'));
    reply = undefined;
  };
  /** The reply of the current exchange, created on first use. */
  const replyTurn = (): { turn: Turn; lines: string[] } => {
    if (!reply) {
      reply = { turn: { role: 'assistant', text: '' }, lines: [] };
      conv.turns.push(reply.turn);
    }
    return reply;
  };

  const lines = cleanText(rawText).split('\n');
  // Aider ends every typed line it logs with two spaces (a markdown line break). Where the file
  // kept them, a `#### ` line without them is the model's own heading, not something typed.
  const typedEndsKept = lines.some((l) => USER_LINE.test(l) && l.endsWith(TYPED_LINE_END));
  for (const rawLine of lines) {
    const line = rawLine.trimEnd();
    const start = SESSION_START.exec(line);
    if (start) {
      endUser();
      endReply();
      thinking = undefined;
      logged = [];
      sessionAt = `${start[1]}T${start[2]}`;
      conv.startedAt ??= sessionAt;
      continue;
    }
    if (USER_LINE.test(line) && (!typedEndsKept || rawLine.endsWith(TYPED_LINE_END))) {
      if (!user) {
        replyBefore = reply;
        endReply();
        user = [];
        loggedBefore = logged;
        logged = [];
      }
      user.push(line.slice(5));
      continue;
    }
    endUser();
    if (OUTPUT_LINE.test(line)) {
      logged.push({ text: line.trim(), output: true });
      output(line.slice(2).trim(), conv, replyTurn, skipped);
      continue;
    }
    // Reasoning models' thoughts: `<thinking-content-…>` blocks, or older ► THINKING / ► ANSWER.
    if (thinking === 'tag') {
      if (line.includes('</thinking-content-')) thinking = undefined;
      continue;
    }
    if (thinking === 'marker') {
      if (line.trim() === '► **ANSWER**') thinking = undefined;
      continue;
    }
    if (line.trimStart().startsWith('<thinking-content-')) {
      countSkip(skipped, 'thinking');
      if (!line.includes('</thinking-content-')) thinking = 'tag';
      continue;
    }
    if (line.trim() === '► **THINKING**') {
      countSkip(skipped, 'thinking');
      thinking = 'marker';
      continue;
    }
    if (!reply && line.trim() === '') continue;
    logged.push({ text: line.trim(), output: false });
    if (conv.turns.length === 0) {
      // Text before any user message is not a reply to anything.
      countSkip(skipped, 'preamble');
      continue;
    }
    replyTurn().lines.push(line);
  }
  endUser();
  endReply();
  return finishConversation(conv, skipped);
}

/**
 * Whether a user message repeats the model text logged before it, line for line: architect mode's
 * handoff. Aider's own `> ` lines between (token counts, the `Edit the files?` question) are passed
 * over unless the message repeats them (a quoted line of the reply); a reasoning block the reply
 * opens with may be missing from the handoff, which Aider passes on without it.
 */
function repeatsReply(message: string[], before: LoggedLine[]): boolean {
  const said = message.map((line) => line.trim()).filter((line) => line !== '');
  const lines = before.filter((line) => line.text !== '');
  const reasoningEnd = lines.findLastIndex((line) => !line.output && line.text === REASONING_END);
  const reply = lines.slice(reasoningEnd + 1);
  if (said.length === 0 || !reply.some((line) => !line.output)) return false;
  let next = 0;
  for (const line of reply) {
    if (next < said.length && line.text === said[next]) next++;
    else if (!line.output) return false;
  }
  return next === said.length;
}

/** Aider console output: edits and commits become tool lines, the model is noted, the rest dropped. */
function output(text: string, conv: Conversation, replyTurn: () => { turn: Turn }, skipped: Record<string, number>): void {
  const edit = APPLIED_EDIT.exec(text);
  const commit = COMMIT.exec(text);
  const model = MODEL.exec(text);
  if (model) conv.model ??= model[1];
  if (edit && conv.turns.length > 0) addTool(replyTurn().turn, toolLine('edit', edit[1]));
  else if (commit && conv.turns.length > 0) addTool(replyTurn().turn, toolLine('commit', `${commit[1]} ${oneLine(commit[2])}`));
  else countSkip(skipped, 'aider-output');
}

/** The Aider chat history importer. */
export const aider: Importer = { format: 'aider', label: 'Aider chat history', detect, parse };
