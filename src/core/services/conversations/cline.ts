/**
 * Importer for the task histories of Cline and its forks Roo Code and Kilo Code:
 * `<globalStorage>/<extension>/tasks/<task id>/api_conversation_history.json`, a JSON array of
 * Anthropic-style messages (`{role, content: string | blocks, ts?, modelInfo?}`). The task id (the
 * folder name) is the conversation id.
 *
 * User messages carry more than the person typed: the task is wrapped in `<task>` and later words
 * in `<feedback>` / `<answer>` / `<user_message>`, each message ends with an `<environment_details>`
 * block (open files, terminals, the file list), and tool results come back as user messages
 * (`tool_result` blocks, or `[read_file for 'x'] Result:` text blocks in older versions). Only the
 * person's words are kept. Agent messages call tools either as native `tool_use` blocks or, in the
 * older protocol, as XML in the text (`<execute_command><command>npm test</command></execute_command>`):
 * both become tool lines, except that the words a tool says to the person (the completion result,
 * a follow-up question, a plan) stay text. Thinking is dropped.
 * Written from cline/cline src/shared/messages/content.ts (`ClineStorageMessage`), src/core/prompts
 * (the XML tool protocol) and src/core/task (how user content is wrapped), read at main in 2026-11.
 */
import * as path from 'node:path';
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import {
  addTool,
  addToolInOrder,
  arr,
  countSkip,
  emptyConversation,
  finishConversation,
  isObject,
  obj,
  parseJsonDocument,
  removeTagBlocks,
  str,
  tagContent,
  toIso,
  trimBlankLines,
  type JsonObject,
} from './importSupport';
import { genericSummary, toolLine } from './toolSummary';

const FILE_NAME = /(?:^|[/\\])api_conversation_history\.json$/i;
/** Tags around the person's own words in a user message. */
const USER_WORDS = ['task', 'feedback', 'answer', 'user_message'];
/** Context the extension adds to user messages. */
const INJECTED = ['environment_details', 'file_content', 'explicit_instructions'];
/** An older tool response: `[execute_command for 'npm test'] Result:`, `[write_to_file for 'a.ts'] The user denied…`. */
const TOOL_RESULT_TEXT = /^\[[\w-]+(?: for [^\]\n]{0,2000})?\] /;
/** Tools whose argument is a message to the person: it stays the agent's text. */
const SPOKEN_PARAM: Record<string, string> = {
  attempt_completion: 'result',
  ask_followup_question: 'question',
  plan_mode_respond: 'response',
};
/** The XML tool protocol's tool names (Cline, Roo Code, Kilo Code). */
const XML_TOOLS = new Set([
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'insert_content',
  'search_and_replace',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'codebase_search',
  'browser_action',
  'web_fetch',
  'use_mcp_tool',
  'access_mcp_resource',
  'load_mcp_documentation',
  'ask_followup_question',
  'attempt_completion',
  'plan_mode_respond',
  'new_task',
  'switch_mode',
  'update_todo_list',
  'fetch_instructions',
  'condense',
  'new_rule',
  'report_bug',
  'focus_chain',
]);
/** Parameters worth a tool line, in order of preference. */
const XML_PARAMS = ['command', 'path', 'regex', 'url', 'query', 'server_name', 'uri', 'mode_slug', 'action'];

function detect(fileName: string, head: string): number {
  const start = head.trimStart();
  if (!start.startsWith('[') || !/"role"\s*:\s*"(?:user|assistant)"/.test(head)) return 0;
  if (FILE_NAME.test(fileName)) return 0.95;
  // Cline's first message opens with the task tag.
  return /"text"\s*:\s*"<task>/.test(head) ? 0.8 : 0;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(taskId(sourcePath), 'cline', sourcePath);
  const data = parseJsonDocument(rawText, skipped, Array.isArray);
  if (!data) return finishConversation(conv, skipped);
  for (const message of data) {
    if (!isObject(message)) countSkip(skipped, 'malformed');
    else if (message.role === 'user') conv.turns.push(userTurn(message, skipped));
    else if (message.role === 'assistant') assistantTurns(conv, message, skipped);
    else countSkip(skipped, 'unknown');
  }
  conv.startedAt = conv.turns.find((t) => t.at)?.at;
  return finishConversation(conv, skipped);
}

/** The task folder's name, when the file sits where Cline keeps it; else the file stem. */
function taskId(sourcePath: string): string {
  if (!FILE_NAME.test(sourcePath)) return conversationIdFromPath(sourcePath);
  return sanitizeConversationId(path.basename(path.dirname(sourcePath))) || conversationIdFromPath(sourcePath);
}

function blocks(content: unknown): unknown[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : arr(content);
}

function userTurn(message: JsonObject, skipped: Record<string, number>): Turn {
  const turn: Turn = { role: 'user', text: '' };
  const at = toIso(message.ts);
  if (at) turn.at = at;
  const all = blocks(message.content).filter(isObject);
  // Once a message returns a tool's result, its untagged text is that result, not the person's.
  const answersTool = all.some((b) => b.type === 'tool_result' || (b.type === 'text' && TOOL_RESULT_TEXT.test(str(b.text) ?? '')));
  const said: string[] = [];
  for (const block of all) {
    if (block.type === 'text') {
      const words = personWords(str(block.text) ?? '', answersTool, skipped);
      if (words !== '') said.push(words);
    } else if (block.type === 'image') {
      addTool(turn, '[attachment:image]');
    } else {
      countSkip(skipped, str(block.type) ?? 'unknown');
    }
  }
  turn.text = said.join('\n\n');
  return turn;
}

/** The person's words in one text block: tagged words always, untagged text only outside tool results. */
function personWords(text: string, answersTool: boolean, skipped: Record<string, number>): string {
  for (const tag of USER_WORDS) {
    const inner = tagContent(text, tag);
    if (inner !== undefined) return trimBlankLines(inner);
  }
  if (answersTool || /^\[TASK RESUMPTION\]/.test(text)) {
    countSkip(skipped, 'tool_result');
    return '';
  }
  let rest = text;
  for (const tag of INJECTED) {
    if (rest.includes(`<${tag}>`)) {
      rest = removeTagBlocks(rest, tag);
      countSkip(skipped, 'injected-context');
    }
  }
  return trimBlankLines(rest);
}

/** Where an agent message's words and calls go, in the order the message has them. */
interface Reply {
  say(text: string): void;
  tool(line: string): void;
}

/** An agent message as turns: its words and tool calls in order (see turnForTool). */
function assistantTurns(conv: Conversation, message: JsonObject, skipped: Record<string, number>): void {
  let turn: Turn = { role: 'assistant', text: '' };
  const at = toIso(message.ts);
  if (at) turn.at = at;
  conv.turns.push(turn);
  conv.model ??= str(obj(message.modelInfo)?.modelId);
  const reply: Reply = {
    say: (text) => {
      if (text !== '') turn.text = turn.text === '' ? text : `${turn.text}\n\n${text}`;
    },
    tool: (line) => {
      turn = addToolInOrder(conv.turns, turn, line);
    },
  };
  for (const block of blocks(message.content)) {
    if (!isObject(block)) continue;
    if (block.type === 'text') {
      xmlToolCalls(str(block.text) ?? '', reply, skipped);
    } else if (block.type === 'tool_use') {
      const name = str(block.name) ?? 'tool';
      const input = obj(block.input) ?? {};
      const spoken = SPOKEN_PARAM[name] ? str(input[SPOKEN_PARAM[name]]) : undefined;
      if (spoken !== undefined) reply.say(trimBlankLines(spoken));
      else reply.tool(toolLine(name, genericSummary(input)));
    } else if (block.type === 'thinking' || block.type === 'redacted_thinking' || block.type === 'reasoning') {
      countSkip(skipped, 'thinking');
    } else {
      countSkip(skipped, str(block.type) ?? 'unknown');
    }
  }
}

/**
 * Takes the older protocol's XML tool calls out of an agent's text, as tool lines in the reply
 * after the words before them (or as text, for the tools that speak to the person), and drops
 * `<thinking>` blocks. Scans with indexOf so a huge `write_to_file` body costs one pass.
 */
function xmlToolCalls(text: string, reply: Reply, skipped: Record<string, number>): void {
  const say = (words: string): void => reply.say(trimBlankLines(words.replace(/\n{3,}/g, '\n\n')));
  let rest = text;
  if (rest.includes('<thinking>')) {
    rest = removeTagBlocks(rest, 'thinking');
    countSkip(skipped, 'thinking');
  }
  let out = '';
  let from = 0;
  for (let open = rest.indexOf('<', from); open >= 0; open = rest.indexOf('<', from)) {
    const close = rest.indexOf('>', open);
    const name = close > open ? rest.slice(open + 1, close) : '';
    if (!XML_TOOLS.has(name)) {
      out += rest.slice(from, open + 1);
      from = open + 1;
      continue;
    }
    out += rest.slice(from, open);
    const end = rest.indexOf(`</${name}>`, close);
    const body = end < 0 ? rest.slice(close + 1) : rest.slice(close + 1, end);
    const spoken = SPOKEN_PARAM[name] ? tagContent(body, SPOKEN_PARAM[name]) : undefined;
    if (spoken !== undefined) out += `\n\n${trimBlankLines(spoken)}\n\n`;
    else {
      say(out);
      out = '';
      reply.tool(toolLine(name, xmlParam(body)));
    }
    if (end < 0) return say(out);
    from = end + name.length + 3;
  }
  say(out + rest.slice(from));
}

function xmlParam(body: string): string | undefined {
  for (const param of XML_PARAMS) {
    const value = tagContent(body, param);
    if (value !== undefined && value.trim() !== '') return value;
  }
  return undefined;
}

/** The Cline / Roo Code / Kilo Code task history importer. */
export const cline: Importer = { format: 'cline', label: 'Cline task history', detect, parse };
