/**
 * Importer for Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`). Current files
 * wrap every item as `{timestamp, type, payload}`; files from before mid 2025 have a bare header
 * line `{id, timestamp, instructions}` and bare items. Both are read. Kept: the user's and the
 * agent's messages and one-line tool calls; dropped: instructions, injected context, reasoning
 * (including `encrypted_content`) and tool output.
 */
import type { Conversation, Importer, Turn } from '../../model/conversation';
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
  str,
  trimBlankLines,
  turnForTool,
  type JsonObject,
} from './importSupport';
import { SCRIPT_TOOLS, scriptCalls, type ScriptCall } from './codexScript';
import { genericSummary, patchFiles, shellCommand, toolLine } from './toolSummary';

/** Response items that are known and not conversation. */
const SKIPPED_ITEMS = new Set(['reasoning', 'function_call_output', 'custom_tool_call_output', 'local_shell_call_output', 'compaction']);
/** Item types of the pre-envelope format, which appear at the top level of a line. */
const BARE_ITEMS = new Set(['message', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', ...SKIPPED_ITEMS]);
/** The opening tag of injected user-role context: `<environment_context>`, `<permissions instructions>`. */
const WRAPPER_OPEN = /^<([A-Za-z_][\w -]{0,60})>/;
const EXIT_CODE = /Process exited with code (\d+)/;

interface State {
  conv: Conversation;
  skipped: Record<string, number>;
  id?: string;
  /** Tool lines by call id, so an output can mark its call failed. */
  calls: Map<string, { turn: Turn; index: number }>;
  /** Turns rebuilt from event_msg records, used only when a file has no response_item messages. */
  eventTurns: Turn[];
  sawMessages: boolean;
}

function detect(fileName: string, head: string): number {
  if (/"type"\s*:\s*"(?:session_meta|response_item|turn_context)"/.test(head)) return 0.95;
  if (/"record_type"\s*:\s*"state"/.test(head)) return 0.9;
  const firstLine = head.slice(0, head.indexOf('\n') < 0 ? head.length : head.indexOf('\n'));
  if (/^\{"id"\s*:/.test(firstLine.trim()) && /"instructions"\s*:/.test(firstLine)) return 0.85;
  if (/\.jsonl$/i.test(fileName) && /"type"\s*:\s*"message"/.test(head) && /"(?:input|output)_text"/.test(head)) return 0.7;
  return 0;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const s: State = {
    conv: { id: '', format: 'codex', sourcePath, turns: [] },
    skipped: {},
    calls: new Map(),
    eventTurns: [],
    sawMessages: false,
  };
  forEachJsonLine(cleanText(rawText), s.skipped, (rec) => record(s, rec));
  if (!s.sawMessages && s.eventTurns.length > 0) s.conv.turns = s.eventTurns;
  s.conv.id = s.id ? sanitizeConversationId(s.id) : conversationIdFromPath(sourcePath);
  return finishConversation(s.conv, s.skipped);
}

function record(s: State, rec: JsonObject): void {
  const type = str(rec.type);
  const payload = obj(rec.payload);
  const ts = str(rec.timestamp);
  if (type === 'session_meta' && payload) {
    // base_instructions and instructions are the agent's system prompt: never conversation.
    s.id ??= str(payload.id);
    s.conv.cwd ??= str(payload.cwd);
    s.conv.startedAt ??= str(payload.timestamp) ?? ts;
    s.conv.model ??= str(payload.model);
  } else if (type === 'turn_context' && payload) {
    s.conv.model ??= str(payload.model);
    s.conv.cwd ??= str(payload.cwd);
  } else if (type === 'response_item' && payload) {
    item(s, payload, ts);
  } else if (type === 'event_msg' && payload) {
    eventMessage(s, payload, ts);
  } else if (type !== undefined && BARE_ITEMS.has(type)) {
    item(s, rec, ts);
  } else if (type === undefined && rec.record_type !== undefined) {
    countSkip(s.skipped, 'state');
  } else if (type === undefined && str(rec.id) && str(rec.timestamp)) {
    // The pre-envelope header line.
    s.id ??= str(rec.id);
    s.conv.startedAt ??= str(rec.timestamp);
    s.conv.cwd ??= str(rec.cwd);
    s.conv.model ??= str(rec.model);
  } else {
    countSkip(s.skipped, type ? `unknown:${type}` : 'unknown');
  }
}

function item(s: State, it: JsonObject, ts: string | undefined): void {
  const type = str(it.type) ?? 'untyped';
  if (type === 'message') return message(s, it, ts);
  if (SKIPPED_ITEMS.has(type)) {
    if (type !== 'reasoning') markFailure(s, it);
    return countSkip(s.skipped, type);
  }
  let line: string | undefined;
  if (type === 'function_call') line = functionCall(str(it.name) ?? 'unknown', it.arguments);
  else if (type === 'custom_tool_call') {
    const name = str(it.name) ?? 'unknown';
    const input = str(it.input) ?? '';
    const calls = SCRIPT_TOOLS.has(name) ? scriptCalls(input) : [];
    if (calls.length > 0) return scriptLines(s, calls, ts);
    line = toolLine(name, name === 'apply_patch' ? patchFiles(input) : input);
  } else if (type === 'local_shell_call') {
    const command = arr(obj(it.action)?.command).filter((a): a is string => typeof a === 'string');
    line = toolLine('shell', command.length > 0 ? shellCommand(command) : undefined);
  } else if (type === 'web_search_call') line = toolLine('web_search', str(obj(it.action)?.query));
  if (line === undefined) return countSkip(s.skipped, `unknown:${type}`);
  const turn = agentTurn(s, ts);
  addTool(turn, line);
  const callId = str(it.call_id);
  if (callId) s.calls.set(callId, { turn, index: turn.tools!.length - 1 });
}

function message(s: State, it: JsonObject, ts: string | undefined): void {
  const role = str(it.role);
  if (role !== 'user' && role !== 'assistant') return countSkip(s.skipped, role ?? 'message');
  const texts: string[] = [];
  let images = 0;
  for (const block of arr(it.content)) {
    if (!isObject(block)) continue;
    const text = str(block.text);
    if (text !== undefined && (block.type === 'input_text' || block.type === 'output_text' || block.type === 'text')) texts.push(text);
    else if (block.type === 'input_image') images++;
  }
  const text = trimBlankLines(texts.join('\n\n'));
  if (role === 'user' && isInjected(text)) return countSkip(s.skipped, 'injected-context');
  s.sawMessages = true;
  if (text === '' && images === 0) return;
  const last = s.conv.turns[s.conv.turns.length - 1];
  if (role === 'assistant' && last?.role === 'assistant' && last.text === '') {
    // The tool calls that led to this message share its turn (§2.1: tool lines, then text).
    last.text = text;
    return;
  }
  const turn: Turn = { role, text, at: ts };
  for (let i = 0; i < images; i++) addTool(turn, '[attachment:image]');
  s.conv.turns.push(turn);
}

/** Event messages duplicate response items; they are kept aside as a fallback only. The thread's name is read from them. */
function eventMessage(s: State, payload: JsonObject, ts: string | undefined): void {
  const type = str(payload.type) ?? 'untyped';
  // A name the person gave the thread (`/rename`, the app's rename); a later one replaces it.
  if (type === 'thread_name_updated') s.conv.title = str(payload.thread_name)?.trim() || s.conv.title;
  const text = str(payload.message);
  if ((type === 'user_message' || type === 'agent_message') && text && !isInjected(text)) {
    s.eventTurns.push({ role: type === 'user_message' ? 'user' : 'assistant', text: trimBlankLines(text), at: ts });
  }
  countSkip(s.skipped, `event:${type}`);
}

/**
 * True for context Codex injects as a user message: a whole message wrapped in one XML-ish tag
 * (`<environment_context>…</environment_context>`, `<user_instructions>`, …) or AGENTS.md.
 */
function isInjected(text: string): boolean {
  const t = text.trimStart();
  if (t.startsWith('# AGENTS.md instructions')) return true;
  const m = WRAPPER_OPEN.exec(t);
  return m !== null && t.includes(`</${m[1]}>`);
}

/** The agent's turn a tool call lands in: the last turn when it is the agent's (see turnForTool), else a new one. */
function agentTurn(s: State, ts: string | undefined): Turn {
  const last = s.conv.turns[s.conv.turns.length - 1];
  if (last && last.role === 'assistant') return turnForTool(s.conv.turns, last, ts);
  const turn: Turn = { role: 'assistant', text: '', at: ts };
  s.conv.turns.push(turn);
  return turn;
}

/**
 * A code-mode or js_repl script as the calls it makes, one tool line each, as if the agent had
 * made them directly. A failed script cannot say which of its calls failed, so none is marked.
 */
function scriptLines(s: State, calls: ScriptCall[], ts: string | undefined): void {
  const turn = agentTurn(s, ts);
  for (const call of calls) {
    const input = call.input;
    if (typeof input === 'string') addTool(turn, toolLine(call.name, call.name === 'apply_patch' ? patchFiles(input) : input));
    else addTool(turn, callLine(call.name, input ?? {}));
  }
}

function functionCall(name: string, rawArgs: unknown): string {
  let args: unknown = rawArgs;
  if (typeof rawArgs === 'string') {
    try {
      args = JSON.parse(rawArgs);
    } catch {
      return toolLine(name, rawArgs);
    }
  }
  return callLine(name, obj(args) ?? {});
}

/** A call's line from its arguments: the command it ran, the files it patched, or its first telling field. */
function callLine(name: string, a: JsonObject): string {
  if (name === 'apply_patch') return toolLine(name, patchFiles(str(a.input) ?? str(a.patch) ?? '') ?? genericSummary(a));
  if (name === 'update_plan') return toolLine(name, `${arr(a.plan).length} steps`);
  const command = a.cmd ?? a.command;
  if (Array.isArray(command)) return toolLine(name, shellCommand(command.filter((c): c is string => typeof c === 'string')));
  return toolLine(name, str(command) ?? genericSummary(a));
}

/** Appends `→ exit N` to a call whose output reports a non-zero exit. */
function markFailure(s: State, output: JsonObject): void {
  const ref = s.calls.get(str(output.call_id) ?? '');
  if (!ref) return;
  let code: number | undefined;
  const raw = output.output;
  const text = typeof raw === 'string' ? raw : undefined;
  const m = text ? EXIT_CODE.exec(text.slice(0, 400)) : null;
  if (m) code = Number(m[1]);
  else if (text?.startsWith('{')) {
    try {
      const exit = obj(obj(JSON.parse(text))?.metadata)?.exit_code;
      if (typeof exit === 'number') code = exit;
    } catch {
      // Not JSON: no exit code to report.
    }
  }
  if (code !== undefined && code !== 0) ref.turn.tools![ref.index] += ` → exit ${code}`;
}

/** The Codex CLI rollout JSONL importer. */
export const codex: Importer = { format: 'codex', label: 'Codex rollout JSONL', jsonl: true, detect, parse };
