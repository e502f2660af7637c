/**
 * Importer for VS Code chat session logs, `workspaceStorage/<hash>/chatSessions/<id>.jsonl`, which
 * VS Code writes instead of the `.json` snapshots since 1.109. The file is a mutation log of the
 * same session data: the first line holds the whole session (`{kind: 0, v}`), each later line
 * changes it — `kind: 1` sets the value at path `k`, `kind: 2` pushes `v` onto the array at `k`
 * (after cutting it to length `i` when given), `kind: 3` deletes `k`. VS Code rewrites the file
 * from a fresh `kind: 0` line once the log grows long. Replaying the log gives the snapshot shape,
 * which copilotChat.ts turns into turns (tool output, thinking and injected context dropped there).
 * Written from microsoft/vscode src/vs/workbench/contrib/chat/common/model/objectMutationLog.ts
 * (commit 047238f9) and chatSessionOperationLog.ts (commit 03d43368).
 */
import type { Conversation, Importer } from '../../model/conversation';
import { conversationIdFromPath } from './conversationId';
import { chatSessionConversation } from './copilotChat';
import { cleanText, countSkip, emptyConversation, finishConversation, forEachJsonLine, isObject, type JsonObject } from './importSupport';

/** The first record of a log: the whole session state, with the keys VS Code writes first. */
const INITIAL_RECORD = /^\s*\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{/;
/** Path segments that would reach an object's prototype rather than its data. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function detect(fileName: string, head: string): number {
  if (!INITIAL_RECORD.test(head) || !/"sessionId"\s*:/.test(head)) return 0;
  return /\.jsonl$/i.test(fileName) ? 0.95 : 0.8;
}

/**
 * Replays a session log to the session data it describes (the snapshot shape), or undefined when
 * no `kind: 0` record starts it. Records that do not apply are counted in `skipped`, never thrown.
 */
export function replayChatSessionLog(rawText: string, skipped: Record<string, number> = {}): JsonObject | undefined {
  let state: JsonObject | undefined;
  forEachJsonLine(cleanText(rawText), skipped, (record) => {
    if (record.kind === 0 && isObject(record.v)) {
      state = record.v;
    } else if (state === undefined || !applyMutation(state, record)) {
      // A change before any state, or one whose path leads nowhere, is not this log's.
      countSkip(skipped, record.kind === 1 || record.kind === 2 || record.kind === 3 ? 'malformed' : 'unknown');
    }
  });
  return state;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const state = replayChatSessionLog(rawText, skipped);
  if (state === undefined)
    return finishConversation(emptyConversation(conversationIdFromPath(sourcePath), 'copilot-chat', sourcePath), skipped);
  return chatSessionConversation(state, sourcePath, skipped);
}

/** Applies one `kind` 1/2/3 record to the state; false when it is not one or its path does not exist. */
function applyMutation(state: JsonObject, record: JsonObject): boolean {
  const path = record.k;
  if (!Array.isArray(path) || path.length === 0) return false;
  if (!path.every((seg) => (typeof seg === 'string' && !UNSAFE_KEYS.has(seg)) || Number.isInteger(seg))) return false;
  let parent: unknown = state;
  for (const seg of path.slice(0, -1)) {
    parent = isContainer(parent) ? (parent as Record<string | number, unknown>)[seg as string | number] : undefined;
  }
  if (!isContainer(parent)) return false;
  const target = parent as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  switch (record.kind) {
    case 1:
      target[last] = record.v;
      return true;
    case 3:
      delete target[last];
      return true;
    case 2: {
      const list = Array.isArray(target[last]) ? (target[last] as unknown[]) : [];
      if (Number.isInteger(record.i) && (record.i as number) >= 0) list.length = Math.min(list.length, record.i as number);
      if (Array.isArray(record.v)) for (const item of record.v) list.push(item);
      target[last] = list;
      return true;
    }
    default:
      return false;
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** The VS Code chat session log importer. */
export const copilotChatLog: Importer = { format: 'copilot-chat', label: 'Copilot Chat session log', jsonl: true, detect, parse };
