/**
 * Importer for Claude Code session logs (`~/.claude/projects/<dir>/<session>.jsonl`). Each line is
 * one record; only the main thread's user and assistant text is kept, tool calls become one-line
 * summaries, and everything else (thinking, tool output, snapshots, hooks, subagent sidechains) is
 * counted in `skipped`.
 */
import type { Conversation, Importer, Turn } from './conversation';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import {
  addTool,
  arr,
  cleanText,
  countSkip,
  finishConversation,
  forEachJsonLine,
  isObject,
  obj,
  oneLine,
  removeTagBlocks,
  str,
  tagContent,
  trimBlankLines,
  type JsonObject,
} from './importSupport';
import { summarizeToolUse } from './toolSummary';

/** Records that are known and deliberately not part of the conversation. */
const SKIPPED_TYPES = new Set(['file-history-snapshot', 'queue-operation', 'system', 'progress', 'attachment', 'last-prompt']);
/** Wrappers whose content is command output or injected context, never something the user wrote. */
const NOISE_TAGS = [
  'local-command-stdout',
  'local-command-stderr',
  'bash-stdout',
  'bash-stderr',
  'system-reminder',
  'command-message',
  'user-prompt-submit-hook',
  'ide_opened_file',
  'ide_diagnostics',
];
const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;
const ERROR_MARK = ' → error';

/** The assistant turn being built, the API message it belongs to and when that message began. */
interface Current {
  messageId: string | undefined;
  turn: Turn | undefined;
  at?: string;
}

/** Where a tool_use summary landed, so its result can mark it failed or answer it. */
interface ToolRef {
  turn: Turn;
  index: number;
  name: string;
}

function detect(fileName: string, head: string): number {
  const jsonl = /\.jsonl$/i.test(fileName);
  const claudeType = /"type"\s*:\s*"(?:user|assistant|summary|file-history-snapshot|queue-operation)"/.test(head);
  if (/"parentUuid"\s*:/.test(head) && /"sessionId"\s*:/.test(head)) return 0.95;
  if (/"type"\s*:\s*"file-history-snapshot"/.test(head)) return 0.9;
  if (claudeType && /"sessionId"\s*:/.test(head)) return 0.85;
  if (jsonl && /"type"\s*:\s*"summary"/.test(head) && /"leafUuid"\s*:/.test(head)) return 0.85;
  return 0;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv: Conversation = { id: '', format: 'claude-code', sourcePath, turns: [] };
  let sessionId: string | undefined;
  let current: Current = { messageId: undefined, turn: undefined };
  const tools = new Map<string, ToolRef>();

  forEachJsonLine(cleanText(rawText), skipped, (rec) => {
    sessionId ??= str(rec.sessionId);
    conv.startedAt ??= str(rec.timestamp);
    if (rec.type === 'summary') {
      const summary = str(rec.summary)?.trim();
      if (summary && conv.title === undefined) conv.title = summary;
      return;
    }
    const type = str(rec.type) ?? 'untyped';
    if (type !== 'user' && type !== 'assistant') {
      countSkip(skipped, SKIPPED_TYPES.has(type) ? type : `unknown:${type}`);
      return;
    }
    // Subagent chatter and injected context (slash-command expansions, hook feedback, caveats).
    if (rec.isSidechain === true) return countSkip(skipped, 'sidechain');
    if (rec.isMeta === true) return countSkip(skipped, 'meta');
    if (rec.isCompactSummary === true) return countSkip(skipped, 'compact-summary');
    conv.cwd ??= str(rec.cwd);
    const message = obj(rec.message);
    if (!message) return countSkip(skipped, 'malformed');
    if (type === 'assistant') {
      if (rec.isApiErrorMessage === true || message.model === '<synthetic>') return countSkip(skipped, 'synthetic');
      const model = str(message.model);
      if (model) conv.model ??= model;
      current = assistantRecord(conv, rec, message, current, tools, skipped);
    } else if (userRecord(conv, rec, message, tools, skipped)) {
      current = { messageId: undefined, turn: undefined };
    }
  });

  conv.id = sessionId ? sanitizeConversationId(sessionId) : conversationIdFromPath(sourcePath);
  return finishConversation(conv, skipped);
}

/** Adds an assistant record's text and tool calls, merging records of the same API message. */
function assistantRecord(
  conv: Conversation,
  rec: JsonObject,
  message: JsonObject,
  current: Current,
  tools: Map<string, ToolRef>,
  skipped: Record<string, number>,
): Current {
  const messageId = str(message.id);
  const same = messageId !== undefined && messageId === current.messageId;
  // A new message right after tool-only activity continues that turn: the calls led to it, and
  // §2.1 renders a turn as its tool lines followed by its text.
  const last = conv.turns[conv.turns.length - 1];
  let turn = (same ? current.turn : undefined) ?? (last?.role === 'assistant' && last.text === '' ? last : undefined);
  // A message whose first lines were only thinking still began at its first line.
  const at = (same ? current.at : undefined) ?? str(rec.timestamp);
  const ensure = (): Turn => {
    if (!turn) {
      turn = { role: 'assistant', text: '', at };
      conv.turns.push(turn);
    }
    return turn;
  };
  const content = message.content;
  if (typeof content === 'string') appendText(ensure(), content);
  for (const block of arr(content)) {
    if (!isObject(block)) continue;
    const kind = str(block.type) ?? 'untyped';
    if (kind === 'text') {
      const text = str(block.text);
      if (text && text.trim() !== '') appendText(ensure(), text);
    } else if (kind === 'tool_use') {
      const id = str(block.id);
      if (id && tools.has(id)) continue; // the same call written twice
      const name = str(block.name) ?? 'unknown';
      const t = ensure();
      addTool(t, summarizeToolUse(name, block.input));
      if (id) tools.set(id, { turn: t, index: t.tools!.length - 1, name });
    } else if (kind === 'image') {
      addTool(ensure(), '[attachment:image]');
    } else {
      countSkip(skipped, kind === 'redacted_thinking' ? 'thinking' : kind);
    }
  }
  return { messageId, turn, at };
}

function appendText(turn: Turn, text: string): void {
  const clean = trimBlankLines(text);
  if (clean === '') return;
  // Some versions write the same block twice while streaming.
  if (turn.text === clean || turn.text.endsWith(`\n\n${clean}`)) return;
  turn.text = turn.text === '' ? clean : `${turn.text}\n\n${clean}`;
}

/**
 * Adds a user record: typed text (slash-command noise reduced), images as attachments. Tool
 * results are dropped, except that a failed call is marked `→ error` and the answers a person gave
 * to AskUserQuestion (their own words) become a user turn. Returns true when a user turn was added.
 */
function userRecord(conv: Conversation, rec: JsonObject, message: JsonObject, tools: Map<string, ToolRef>, skipped: Record<string, number>): boolean {
  const texts: string[] = [];
  const attachments: string[] = [];
  const content = message.content;
  if (typeof content === 'string') texts.push(content);
  for (const block of arr(content)) {
    if (!isObject(block)) continue;
    const kind = str(block.type) ?? 'untyped';
    if (kind === 'text') {
      const text = str(block.text);
      if (text) texts.push(text);
    } else if (kind === 'image' || kind === 'document') {
      attachments.push(`[attachment:${kind}]`);
    } else if (kind === 'tool_result') {
      const ref = tools.get(str(block.tool_use_id) ?? '');
      if (ref?.name === 'AskUserQuestion' && block.is_error !== true) {
        const answer = askAnswers(rec.toolUseResult) ?? askAnswerText(block.content);
        if (answer) texts.push(answer);
      } else if (ref && block.is_error === true && !ref.turn.tools![ref.index].endsWith(ERROR_MARK)) {
        ref.turn.tools![ref.index] += ERROR_MARK;
      }
      countSkip(skipped, 'tool_result');
    } else {
      countSkip(skipped, kind);
    }
  }
  const turnTools = [...attachments];
  const kept: string[] = [];
  for (const raw of texts) {
    const text = cleanUserText(raw);
    if (INTERRUPTED.test(text)) turnTools.push('[interrupted]');
    else if (text !== '') kept.push(text);
  }
  if (kept.length === 0 && turnTools.length === 0) return false;
  const turn: Turn = { role: 'user', text: kept.join('\n\n'), at: str(rec.timestamp) };
  if (turnTools.length > 0) turn.tools = turnTools;
  conv.turns.push(turn);
  return true;
}

/** `/command args` for a slash command, without output wrappers or injected reminders. */
function cleanUserText(raw: string): string {
  const name = tagContent(raw, 'command-name');
  if (name !== undefined) {
    const args = tagContent(raw, 'command-args')?.trim();
    const command = name.trim().startsWith('/') ? name.trim() : `/${name.trim()}`;
    return args ? `${command} ${args}` : command;
  }
  const bash = tagContent(raw, 'bash-input');
  if (bash !== undefined) return `! ${oneLine(bash, 400)}`;
  let text = raw;
  for (const tag of NOISE_TAGS) text = removeTagBlocks(text, tag);
  text = trimBlankLines(text);
  if (text.startsWith('Caveat: The messages below were generated by the user while running local commands')) return '';
  return text;
}

/** The answers recorded for an AskUserQuestion call, as `Question → answer` lines. */
function askAnswers(result: unknown): string | undefined {
  const answers = obj(obj(result)?.answers);
  if (!answers) return undefined;
  const lines = Object.entries(answers)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([question, answer]) => `${oneLine(question, 200)} → ${answer.trim()}`);
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** Older logs have no structured answers; the result text then carries them. */
function askAnswerText(content: unknown): string | undefined {
  const text = typeof content === 'string' ? content : undefined;
  const prefix = 'User has answered your questions:';
  if (!text?.startsWith(prefix)) return undefined;
  return text.slice(prefix.length).replace(/\s*You can now continue with the user's answers in mind\.?\s*$/, '').trim() || undefined;
}

/** The Claude Code session JSONL importer. */
export const claudeCode: Importer = { format: 'claude-code', label: 'Claude Code JSONL', jsonl: true, detect, parse };
