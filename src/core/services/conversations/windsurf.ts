/**
 * Importer for Windsurf's Cascade conversation export ("Download Trajectory" in the Cascade menu):
 * `# Cascade Chat Conversation`, a fixed `Note: _This is purely the output of the chat
 * conversation…_` line, then `### User Input` and `### Planner Response` sections. What the agent
 * did appears as whole italic lines between them (`*Viewed [a.md](file:///…/a.md) *`,
 * `*Edited relevant file*`, ``*User accepted the command `npm test`*``), which become tool lines of
 * the agent's turn. The export holds no times, no model and no title of its own (the heading is
 * the same in every file), so such a conversation is dated by its file.
 * Written from real exports committed to public repositories (Windsurf 2025–2026), found in 2026-11.
 */
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath } from './conversationId';
import { CodeFences } from './codeFence';
import { addToolInOrder, cleanText, countSkip, emptyConversation, finishConversation, trimBlankLines } from './importSupport';
import { toolLine } from './toolSummary';

const HEADING = /^# Cascade Chat Conversation\s*$/;
const USER = /^### User Input\s*$/;
const AGENT = /^### Planner Response\s*$/;
const NOTE = /^\s*Note: _This is purely the output of the chat conversation/;
/** A whole line in single asterisks: `*Viewed [x](uri) *`. */
const ACTION_LINE = /^\*([A-Z][^*]*?)\s*\*\s*$/;
/**
 * What Cascade's action lines look like; any other italic line is someone's emphasis and stays
 * text (a person's `*Read the docs first*` must not split their message). An action names a file
 * by a link, a command in backticks, or is one of Cascade's fixed phrases.
 */
const LINKED_ACTION = /^(?:Viewed|Listed directory|Edited|Opened|Read|Created|Deleted|Analyzed) \[[^\]]*\]\([^)\s]+\)$/;
const COMMAND_ACTION = /^User (?:accepted|rejected) the command `[^`]+`$/;
const FIXED_ACTIONS = new Set([
  'Edited relevant file',
  'Searched filesystem',
  'Grep searched codebase',
  'Semantic searched codebase',
  'Updated todo list',
  'Checked command status',
  'Found code context',
  'Asked user a question',
  'Searched web',
  'Read URL content',
  'Read page',
  'Read terminal output',
  'Ran preview',
  'Running MCP tool',
  'MCP Tool',
]);
/** Tool names for the phrases that name one action (the rest keep their first word). */
const ACTION_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/^User (?:accepted|rejected) the command/, 'Shell'],
  [/^Viewed\b/, 'Read'],
  [/^Listed directory\b/, 'ListDir'],
  [/^Edited\b/, 'Edit'],
  [/^Grep searched\b/, 'Grep'],
  [/^Searched web\b/, 'WebSearch'],
  [/^Searched\b/, 'Find'],
  [/^Found code context\b/, 'Search'],
  [/^Updated todo list\b/, 'TodoWrite'],
  [/^Checked command status\b/, 'CommandStatus'],
  [/^Asked user a question\b/, 'AskUser'],
];

function detect(_fileName: string, head: string): number {
  if (!/^# Cascade Chat Conversation\s*$/m.test(head)) return 0;
  return /^### (?:User Input|Planner Response)\s*$/m.test(head) ? 0.95 : 0.5;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'windsurf', sourcePath);
  let turn: Turn | undefined;
  const fences = new CodeFences();
  /** The agent's turn runs from its first response or action to the next user input. */
  const agentTurn = (): Turn => {
    if (turn?.role !== 'assistant') {
      turn = { role: 'assistant', text: '' };
      conv.turns.push(turn);
    }
    return turn;
  };
  for (const line of cleanText(rawText)
    .replace(/^\ufeff/, '')
    .split('\n')) {
    if (fences.isCode(line)) {
      if (turn) turn.text += `${line}\n`;
      continue;
    }
    if (USER.test(line)) {
      turn = { role: 'user', text: '' };
      conv.turns.push(turn);
    } else if (AGENT.test(line)) {
      // Several responses in a row are one turn, kept apart as paragraphs.
      appendLine(agentTurn(), '');
    } else if (isAction(line)) {
      turn = addToolInOrder(conv.turns, agentTurn(), actionTool(ACTION_LINE.exec(line)![1]));
    } else if (!turn) {
      if (!HEADING.test(line) && !NOTE.test(line) && line.trim() !== '') countSkip(skipped, 'preamble');
    } else {
      appendLine(turn, line);
    }
  }
  for (const t of conv.turns) t.text = trimBlankLines(t.text);
  return finishConversation(conv, skipped);
}

/** Adds a line outside code; the blank lines around dropped action lines collapse into one. */
function appendLine(turn: Turn, line: string): void {
  if (line.trim() === '' && (turn.text === '' || turn.text.endsWith('\n\n'))) return;
  turn.text += `${line}\n`;
}

function isAction(line: string): boolean {
  const action = ACTION_LINE.exec(line)?.[1];
  return action !== undefined && (LINKED_ACTION.test(action) || COMMAND_ACTION.test(action) || FIXED_ACTIONS.has(action));
}

/** `Viewed [a.md](file:///home/u/a.md)` → `[tool:Read] /home/u/a.md`; ``User accepted the command `x` `` → `[tool:Shell] x`. */
function actionTool(action: string): string {
  const name = ACTION_NAMES.find(([phrase]) => phrase.test(action))?.[1] ?? action.split(/\s/)[0];
  const command = /`([^`]+)`/.exec(action)?.[1];
  if (command) return toolLine(name, /^User rejected/.test(action) ? `${command} → rejected` : command);
  const link = /\[([^\]]*)\]\(([^)\s]+)\)/.exec(action);
  if (link) return toolLine(name, filePath(link[2]) ?? link[1]);
  return toolLine(name, undefined);
}

/** The path of a `file:///` link, without Cascade's `:line:col` range suffix. */
function filePath(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri.slice('file://'.length));
  } catch {
    decoded = uri.slice('file://'.length);
  }
  // Windows paths come as file:///d:/Projects/…
  return decoded.replace(/:\d+:\d+(?:-\d+:\d+)?$/, '').replace(/^\/([A-Za-z]:\/)/, '$1');
}

/** The Windsurf Cascade export importer. */
export const windsurf: Importer = { format: 'windsurf', label: 'Windsurf Cascade export', detect, parse };
