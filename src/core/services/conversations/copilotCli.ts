/**
 * Importer for GitHub Copilot CLI sessions, `~/.copilot/session-state/<session id>/events.jsonl`
 * (older CLIs: `session-state/<session id>.jsonl`): one session event per line,
 * `{type, data, id, timestamp, parentId}`. `user.message` events give user turns (`content`, what
 * the person typed; `transformedContent` adds injected context and is not read), `assistant.message`
 * events agent turns with their `toolRequests` as tool lines, and a failed `tool.execution_complete`
 * marks its tool line `→ error`. Reasoning, tool results, sub-agent messages and the many
 * bookkeeping events are dropped.
 * Written from github/copilot-sdk nodejs/src/generated/session-events.ts (the CLI's session event
 * schema: `StartEvent`, `UserMessageData`, `AssistantMessageData`, `AssistantMessageToolRequest`,
 * `ToolExecutionCompleteData`), read at commit 01396124.
 */
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import {
  addToolInOrder,
  arr,
  cleanText,
  countSkip,
  emptyConversation,
  finishConversation,
  forEachJsonLine,
  isObject,
  obj,
  str,
  trimBlankLines,
} from './importSupport';
import { genericSummary, toolLine } from './toolSummary';

const ERROR_MARK = ' → error';
/** An event type: dotted lower-case words, `session.start`, `tool.execution_complete`. */
const EVENT_TYPE = /^[a-z]+(?:[._][a-z_]+)+$/;

function detect(fileName: string, head: string): number {
  if (/^\s*\{"type"\s*:\s*"session\.start"\s*,\s*"data"\s*:/.test(head)) return 0.95;
  if (/"type"\s*:\s*"(?:user|assistant)\.message"/.test(head) && /"parentId"\s*:/.test(head))
    return /\.jsonl$/i.test(fileName) ? 0.85 : 0.6;
  return 0;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'copilot-cli', sourcePath);
  // `events.jsonl` says nothing by its name: the session folder is the id until session.start says it.
  if (/(?:^|[/\\])events\.jsonl$/i.test(sourcePath))
    conv.id = sanitizeConversationId(sourcePath.split(/[/\\]/).slice(-2, -1)[0]) || conv.id;
  /** Where each tool call's line is, to mark it when the call fails. */
  const calls = new Map<string, { turn: Turn; index: number }>();
  forEachJsonLine(cleanText(rawText), skipped, (event) => {
    const type = str(event.type);
    const data = obj(event.data);
    if (!type || !EVENT_TYPE.test(type) || !data) {
      countSkip(skipped, 'unknown');
      return;
    }
    const at = str(event.timestamp);
    if (type === 'session.start') {
      const id = str(data.sessionId);
      if (id) conv.id = sanitizeConversationId(id);
      conv.cwd ??= str(obj(data.context)?.cwd);
      conv.model ??= str(data.selectedModel);
    } else if (type === 'session.model_change') {
      conv.model ??= str(data.newModel);
    } else if (type === 'user.message') {
      conv.turns.push({ role: 'user', text: trimBlankLines(str(data.content) ?? ''), ...(at ? { at } : {}) });
    } else if (type === 'assistant.message' && !event.agentId && !data.parentToolCallId) {
      let turn: Turn = { role: 'assistant', text: trimBlankLines(str(data.content) ?? ''), ...(at ? { at } : {}) };
      conv.turns.push(turn);
      if (str(data.reasoningText) || str(data.reasoningOpaque)) countSkip(skipped, 'reasoning');
      // A message's tool requests were made after its text was written.
      for (const request of arr(data.toolRequests)) {
        if (!isObject(request)) continue;
        turn = addToolInOrder(conv.turns, turn, toolLine(str(request.name) ?? 'tool', genericSummary(obj(request.arguments) ?? {})));
        const callId = str(request.toolCallId);
        if (callId) calls.set(callId, { turn, index: turn.tools!.length - 1 });
      }
    } else if (type === 'tool.execution_complete' && data.success === false) {
      const ref = calls.get(str(data.toolCallId) ?? '');
      if (ref && !ref.turn.tools![ref.index].endsWith(ERROR_MARK)) ref.turn.tools![ref.index] += ERROR_MARK;
      countSkip(skipped, type);
    } else {
      countSkip(skipped, event.agentId || data.parentToolCallId ? 'sub-agent' : type);
    }
  });
  conv.startedAt = conv.turns.find((t) => t.at)?.at;
  return finishConversation(conv, skipped);
}

/** The Copilot CLI session importer. */
export const copilotCli: Importer = { format: 'copilot-cli', label: 'Copilot CLI session', jsonl: true, detect, parse };
