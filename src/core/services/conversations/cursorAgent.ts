/**
 * Importer for Cursor's agent transcripts, `~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`
 * (the IDE's agent and `cursor-agent` alike): one message per line, exactly
 * `{role, message: {content: [blocks]}}`, blocks `{type: "text", text}` and
 * `{type: "tool_use", name, input}` (input an object, or a string for ApplyPatch); no ids, no
 * model, no title, and only user prompts carry a time, inside the text:
 * `<timestamp>Friday, May 8, 2026, 6:05 AM (UTC+5:30)</timestamp>` before `<user_query>…</user_query>`.
 * Tool output is not recorded. The folder and file are named by the session (composer) id.
 * Written from HulkInTherapy/potsherd docs/formats/cursor.md (a characterisation of 857 records
 * of real transcripts, at 43eb42f4) and the fixtures of other public Cursor readers, read in 2026-11.
 */
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath } from './conversationId';
import {
  addTool,
  addToolInOrder,
  arr,
  cleanText,
  countSkip,
  emptyConversation,
  finishConversation,
  forEachJsonLine,
  isObject,
  str,
  tagContent,
  trimBlankLines,
  type JsonObject,
} from './importSupport';
import { statedTimeToIso } from './statedTime';
import { patchFiles, summarizeToolUse, toolLine } from './toolSummary';

/** The record shape, at the start of a line: role first, then the message. */
const RECORD_START = /^\s*\{"role"\s*:\s*"(?:user|assistant)"\s*,\s*"message"\s*:\s*\{\s*"content"\s*:/m;
const QUERY_OPEN = '<user_query>';
const QUERY_CLOSE = '</user_query>';
/**
 * Prompts Cursor writes as the user after a subagent or background task ends. Nobody typed
 * them, so they are no user turns (the two literals seen in real transcripts).
 */
const INJECTED_PROMPTS = ['The above subagent result is already visible to the user', 'Briefly inform the user about the task result'];

function detect(fileName: string, head: string): number {
  if (!RECORD_START.test(head)) return 0;
  if (/[/\\]agent-transcripts[/\\]/.test(fileName)) return 0.95;
  return head.includes(QUERY_OPEN) ? 0.9 : 0.6;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'cursor', sourcePath);
  /** The agent's records between two prompts are one turn: Cursor writes each message, often one tool call, on its own line. */
  let agent: Turn | undefined;
  forEachJsonLine(cleanText(rawText), skipped, (record) => {
    const content = isObject(record.message) ? record.message.content : undefined;
    if (record.type === 'turn_ended') {
      countSkip(skipped, 'turn-ended');
      return;
    }
    if ((record.role !== 'user' && record.role !== 'assistant') || !Array.isArray(content)) {
      countSkip(skipped, 'unknown');
      return;
    }
    if (record.role === 'user') {
      const turn = userTurn(content, skipped);
      if (turn) {
        conv.turns.push(turn);
        agent = undefined;
      }
      return;
    }
    if (!agent) {
      agent = { role: 'assistant', text: '' };
      conv.turns.push(agent);
    }
    agent = addAgentBlocks(conv, agent, content, skipped);
  });
  for (const turn of conv.turns) turn.text = trimBlankLines(turn.text);
  return finishConversation(conv, skipped);
}

function userTurn(content: unknown[], skipped: Record<string, number>): Turn | undefined {
  const text = content
    .filter((b): b is JsonObject => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
  return promptTurn(text, skipped);
}

/**
 * A prompt: what the person typed inside `<user_query>`, its stamp and attachments from the
 * preamble; undefined for a prompt Cursor wrote itself. Shared with the older text transcripts.
 */
export function promptTurn(text: string, skipped: Record<string, number>): Turn | undefined {
  const open = text.indexOf(QUERY_OPEN);
  // Only what comes before the query is Cursor's preamble: angle brackets inside it are the user's (pasted tracebacks).
  const preamble = open < 0 ? text : text.slice(0, open);
  const close = text.lastIndexOf(QUERY_CLOSE);
  let body = open < 0 ? removeStamp(text) : text.slice(open + QUERY_OPEN.length, close > open ? close : undefined);
  body = trimBlankLines(body).trim();
  if (INJECTED_PROMPTS.some((prompt) => body.startsWith(prompt))) {
    countSkip(skipped, 'injected');
    return undefined;
  }
  const turn: Turn = { role: 'user', text: body };
  const stamp = tagContent(preamble, 'timestamp');
  const at = stamp ? statedTimeToIso(stamp) : undefined;
  if (at) turn.at = at;
  if (/^\[Image\]|<image_files>/m.test(preamble)) addTool(turn, '[attachment:image]');
  if (preamble.includes('<uploaded_documents>')) addTool(turn, '[attachment:document]');
  return turn;
}

function removeStamp(text: string): string {
  const stamp = tagContent(text, 'timestamp');
  return stamp === undefined ? text : text.replace(`<timestamp>${stamp}</timestamp>`, '');
}

/** Adds an agent record's blocks in order (see turnForTool); returns the turn the next record continues. */
function addAgentBlocks(conv: Conversation, agent: Turn, content: unknown[], skipped: Record<string, number>): Turn {
  let turn = agent;
  for (const block of content) {
    if (!isObject(block)) {
      countSkip(skipped, 'malformed');
      continue;
    }
    if (block.type === 'text' && typeof block.text === 'string') {
      turn.text = turn.text === '' ? block.text : `${turn.text}\n\n${block.text}`;
    } else if (block.type === 'tool_use') {
      // One real transcript names a tool "Grep path\n/Users/…": the name is its first word.
      const name = (str(block.name) ?? 'tool').trim().split(/\s/)[0];
      turn = addToolInOrder(conv.turns, turn, cursorToolLine(name, block.input));
    } else {
      countSkip(skipped, str(block.type) ?? 'block');
    }
  }
  if (arr(content).length === 0) countSkip(skipped, 'empty-message');
  return turn;
}

/** A Cursor tool call's line: ApplyPatch's string input names its files, Glob its own fields. */
export function cursorToolLine(name: string, input: unknown): string {
  if (typeof input === 'string') return toolLine(name, patchFiles(input) ?? input.split('\n')[0]);
  // Cursor's Glob names its fields differently from Claude Code's.
  if (name === 'Glob' && isObject(input) && str(input.glob_pattern)) {
    const where = str(input.target_directory);
    return toolLine(name, where ? `${str(input.glob_pattern)} in ${where}` : str(input.glob_pattern));
  }
  return summarizeToolUse(name, input);
}

/** The Cursor agent transcript importer. */
export const cursorAgent: Importer = { format: 'cursor', label: 'Cursor agent transcript', jsonl: true, detect, parse };
