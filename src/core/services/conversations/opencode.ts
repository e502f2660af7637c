/**
 * Importer for OpenCode sessions as `opencode export <session>` writes them, and as
 * opencodeStore.ts assembles them from OpenCode's storage folder or database:
 * `{info: Session, messages: [{info: Message, parts: Part[]}]}`. User messages' text parts are
 * the person's words (parts OpenCode adds itself are marked `synthetic` and dropped); assistant
 * messages, one per model step, are merged into one agent turn until the next user message, with
 * tool parts as tool lines. A `task` tool's output is its subagent's answer and is kept as a
 * labelled agent turn (subagentReport.ts). Reasoning, step, snapshot and patch parts are dropped.
 * Written from OpenCode's own source (anomalyco/opencode, formerly sst/opencode, read in 2026-11):
 * packages/opencode/src/cli/cmd/export.ts for the document, session/message-v2.ts for messages and
 * parts, storage/json-migration.ts for the storage layout and the database tables.
 */
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
  str,
  toIso,
  trimBlankLines,
  type JsonObject,
} from './importSupport';
import { subagentReportTurn } from './subagentReport';
import { genericSummary, toolLine } from './toolSummary';

/** OpenCode's placeholder titles until it names a session: `New session - 2025-…`, `Child session - …`. */
const PLACEHOLDER_TITLE = /^(?:New|Child) session - \d{4}-/;
/** Parts that carry no words of the conversation. */
const DROPPED_PARTS = new Set(['reasoning', 'step-start', 'step-finish', 'snapshot', 'patch', 'retry', 'compaction', 'agent']);

function detect(_fileName: string, head: string): number {
  if (!/"info"\s*:\s*\{/.test(head) || !/"messages"\s*:\s*\[/.test(head)) return 0;
  return /"ses_[0-9A-Za-z]+"/.test(head) ? 0.95 : 0;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'opencode', sourcePath);
  const doc = parseJsonDocument(
    rawText,
    skipped,
    (v): v is JsonObject & { info: JsonObject; messages: unknown[] } => isObject(v) && isObject(v.info) && Array.isArray(v.messages),
  );
  if (!doc) return finishConversation(conv, skipped);
  const id = str(doc.info.id);
  if (id) conv.id = sanitizeConversationId(id);
  const title = str(doc.info.title);
  if (title && !PLACEHOLDER_TITLE.test(title)) conv.title = title;
  conv.cwd = str(doc.info.directory);
  conv.startedAt = toIso(obj(doc.info.time)?.created);
  let agent: Turn | undefined;
  for (const entry of doc.messages) {
    const info = obj(obj(entry)?.info);
    if (!info) {
      countSkip(skipped, 'malformed');
      continue;
    }
    const at = toIso(obj(info.time)?.created);
    const parts = arr(obj(entry)?.parts).filter(isObject);
    if (info.role === 'user') {
      agent = undefined;
      conv.turns.push(userTurn(parts, at, skipped));
    } else if (info.role === 'assistant') {
      conv.model ??= str(info.modelID);
      agent = agentParts(conv, agent, at, parts, skipped);
      if (info.error) countSkip(skipped, 'error');
    } else {
      countSkip(skipped, 'unknown');
    }
  }
  for (const turn of conv.turns) turn.text = trimBlankLines(turn.text);
  return finishConversation(conv, skipped);
}

function userTurn(parts: JsonObject[], at: string | undefined, skipped: Record<string, number>): Turn {
  const turn: Turn = { role: 'user', text: '', ...(at ? { at } : {}) };
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.synthetic === true || part.ignored === true) countSkip(skipped, 'synthetic');
      else appendText(turn, str(part.text) ?? '');
    } else if (part.type === 'file') {
      const mime = str(part.mime) ?? '';
      addTool(turn, mime.startsWith('image/') ? '[attachment:image]' : `[attachment:file] ${str(part.filename) ?? ''}`.trimEnd());
    } else if (part.type === 'subtask') {
      addTool(turn, toolLine('task', [str(part.description), str(part.agent) && `(${str(part.agent)})`].filter(Boolean).join(' ')));
    } else {
      countSkip(skipped, str(part.type) ?? 'part');
    }
  }
  return turn;
}

/**
 * Adds an assistant message's parts to the agent's turns in the order they came (see
 * turnForTool), with a subagent's report right after the task call that produced it. Returns the
 * agent turn the next message continues, none after a report: the agent's next words come after
 * it, as a turn of their own.
 */
function agentParts(
  conv: Conversation,
  agent: Turn | undefined,
  at: string | undefined,
  parts: JsonObject[],
  skipped: Record<string, number>,
): Turn | undefined {
  let turn = agent;
  const current = (): Turn => {
    if (!turn) {
      turn = { role: 'assistant', text: '', ...(at ? { at } : {}) };
      conv.turns.push(turn);
    }
    return turn;
  };
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.synthetic === true) countSkip(skipped, 'synthetic');
      else if ((str(part.text) ?? '').trim() !== '') appendText(current(), str(part.text)!);
    } else if (part.type === 'tool') {
      const name = str(part.tool) ?? 'tool';
      const state = obj(part.state) ?? {};
      const input = obj(state.input) ?? {};
      const line = toolLine(name, toolSummary(name, input));
      turn = addToolInOrder(conv.turns, current(), state.status === 'error' ? `${line} → error` : line, toIso(obj(state.time)?.start));
      if (name === 'task' && state.status === 'completed') {
        const report = subagentReportTurn(taskLabel(input), str(state.output) ?? '', toIso(obj(state.time)?.end));
        if (report) {
          conv.turns.push(report);
          turn = undefined;
        }
      }
    } else {
      countSkip(skipped, DROPPED_PARTS.has(str(part.type) ?? '') ? str(part.type)! : 'unknown-part');
    }
  }
  return turn;
}

/** OpenCode's tools name their path `filePath`; the others are read as any tool's. */
function toolSummary(name: string, input: JsonObject): string | undefined {
  if (name === 'task') return taskLabel(input);
  const file = str(input.filePath);
  if (file) return file;
  const pattern = str(input.pattern);
  if (pattern) return str(input.path) ? `${pattern} in ${str(input.path)}` : pattern;
  return genericSummary(input);
}

function taskLabel(input: JsonObject): string | undefined {
  const what = str(input.description) ?? str(input.prompt);
  const kind = str(input.subagent_type);
  return what && kind ? `${what} (${kind})` : (what ?? kind);
}

function appendText(turn: Turn, text: string): void {
  if (text.trim() === '') return;
  turn.text = turn.text === '' ? text : `${turn.text}\n\n${text}`;
}

/** The OpenCode session importer. */
export const opencode: Importer = { format: 'opencode', label: 'OpenCode session', detect, parse };
