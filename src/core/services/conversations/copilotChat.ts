/**
 * Importer for VS Code Copilot Chat's "Export Chat…" JSON (`{requesterUsername, requests: [...]}`)
 * and the closely related `chatSessions/*.json` snapshots (`{version, sessionId, requests}`). Each
 * request gives a user turn (`message.text`) and an agent turn (the markdown `value` parts of
 * `response`, concatenated). Tool invocations and edits become tool lines; thinking parts and the
 * rendered prompt in `result.metadata` (injected context) are dropped.
 */
import * as path from 'node:path';
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import {
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
import { toolLine } from './toolSummary';

function detect(fileName: string, head: string): number {
  if (/"requesterUsername"\s*:/.test(head) && /"requests"\s*:/.test(head)) return 0.95;
  if (/"requesterUsername"\s*:/.test(head)) return 0.8;
  if (/\.json$/i.test(fileName) && /"requests"\s*:/.test(head) && /"(?:responderUsername|sessionId|creationDate)"\s*:/.test(head))
    return 0.8;
  return 0;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'copilot-chat', sourcePath);
  const data = parseJsonDocument(rawText, skipped, isObject);
  return data ? chatSessionConversation(data, sourcePath, skipped) : finishConversation(conv, skipped);
}

/**
 * A chat session's serialized data (`ISerializableChatData`: a `.json` snapshot, or the state a
 * `.jsonl` session log replays to) as a conversation. `skipped` already holds the caller's counts.
 */
export function chatSessionConversation(data: JsonObject, sourcePath: string, skipped: Record<string, number>): Conversation {
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'copilot-chat', sourcePath);
  const sessionId = str(data.sessionId);
  if (sessionId) conv.id = sanitizeConversationId(sessionId);
  const title = str(data.customTitle);
  if (title) conv.title = title;
  const created = toIso(data.creationDate);
  if (created) conv.startedAt = created;
  for (const request of arr(data.requests)) {
    if (isObject(request)) requestTurns(conv, request, skipped);
    else countSkip(skipped, 'malformed');
  }
  return finishConversation(conv, skipped);
}

function requestTurns(conv: Conversation, request: JsonObject, skipped: Record<string, number>): void {
  const at = toIso(request.timestamp);
  conv.model ??= str(request.modelId);
  const message = obj(request.message);
  const userText =
    str(message?.text) ??
    arr(message?.parts)
      .map((p) => (isObject(p) ? (str(p.text) ?? '') : ''))
      .join('');
  conv.turns.push({ role: 'user', text: trimBlankLines(userText), ...(at ? { at } : {}) });

  let turn: Turn = { role: 'assistant', text: '' };
  const elapsed = obj(obj(request.result)?.timings)?.totalElapsed;
  const doneAt = typeof request.timestamp === 'number' && typeof elapsed === 'number' ? toIso(request.timestamp + elapsed) : at;
  if (doneAt) turn.at = doneAt;
  conv.turns.push(turn);
  // The response's parts are in the order they streamed: markdown fragments, then a tool, then more.
  let text = '';
  const tool = (line: string): void => {
    turn.text = trimBlankLines(text);
    text = '';
    turn = addToolInOrder(conv.turns, turn, line);
  };
  for (const part of arr(request.response)) {
    if (!isObject(part)) continue;
    const kind = str(part.kind);
    if (kind === undefined || kind === 'markdownContent' || kind === 'markdownVuln') {
      const value = typeof part.value === 'string' ? part.value : str(obj(part.content)?.value);
      if (value !== undefined) text += value;
    } else if (kind === 'inlineReference') {
      const name = referenceName(part.inlineReference ?? part);
      if (name) text += `\`${name}\``;
    } else if (kind === 'toolInvocationSerialized') {
      tool(toolInvocation(part));
    } else if (kind === 'textEditGroup' || kind === 'notebookEditGroup') {
      tool(toolLine('edit', uriPath(part.uri)));
    } else {
      countSkip(skipped, kind);
    }
  }
  turn.text = trimBlankLines(text);
}

/** `[tool:<toolId>] <what it did>`, preferring a terminal command, then the past-tense message. */
function toolInvocation(part: JsonObject): string {
  const id = str(part.toolId) ?? str(part.toolName) ?? 'tool';
  const command = str(obj(part.toolSpecificData)?.command);
  const said = command ?? messageText(part.pastTenseMessage) ?? messageText(part.invocationMessage);
  // Cut first: the message only feeds a one-line summary, and a short input keeps unlink cheap.
  return toolLine(id, said === undefined ? undefined : unlink(said.slice(0, 2000)));
}

function messageText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : str(obj(value)?.value);
}

/** `[label](url)` → label, or the file name of the url when the label is empty. */
function unlink(markdown: string): string {
  return markdown.replace(/\[([^\]\n]{0,300})\]\(([^)\s]{0,1000})\)/g, (_m, label: string, url: string) => {
    if (label.trim() !== '') return label;
    const bare = url.replace(/#.*$/, '');
    try {
      return path.posix.basename(decodeURIComponent(bare));
    } catch {
      return path.posix.basename(bare);
    }
  });
}

function referenceName(ref: unknown): string | undefined {
  const r = obj(ref);
  if (!r) return undefined;
  const named = str(r.name);
  if (named) return named;
  const p = uriPath(r.uri ?? obj(r.location)?.uri ?? r);
  return p ? path.posix.basename(p.replace(/\\/g, '/')) : undefined;
}

function uriPath(uri: unknown): string | undefined {
  if (typeof uri === 'string') return uri.replace(/^file:\/\//, '');
  const u = obj(uri);
  return u ? (str(u.fsPath) ?? str(u.path)) : undefined;
}

/** The Copilot Chat export importer. */
export const copilotChat: Importer = { format: 'copilot-chat', label: 'Copilot Chat JSON', detect, parse };
