/**
 * The agent's last reply in the tail of a transcript, for the output watchers. Claude Code's
 * transcripts are JSON lines (`{"type": "assistant", "message": {"content": [{"type": "text",
 * "text": …}]}}`); VS Code's format is not a stable API, so any JSON line with an assistant role
 * and text is read the same way. The tail may start mid-line: lines that are not JSON are skipped.
 * Only text the agent wrote counts (no tool calls, no tool results, no thinking).
 */

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (part): part is { type: string; text: string } =>
        !!part &&
        typeof part === 'object' &&
        (part as { type?: unknown }).type === 'text' &&
        typeof (part as { text?: unknown }).text === 'string',
    )
    .map((part) => part.text)
    .join('\n');
}

function assistantText(entry: Record<string, unknown>): string | undefined {
  const message = (entry.message && typeof entry.message === 'object' ? entry.message : entry) as Record<string, unknown>;
  const role = message.role ?? entry.role ?? entry.type;
  if (role !== 'assistant') return undefined;
  const text = textOf(message.content ?? message.text);
  return text.trim() ? text : undefined;
}

/**
 * The text of the last assistant turn: consecutive assistant entries at the end (one reply may be
 * split over several lines) joined, or '' when the tail holds none.
 */
export function lastAssistantReply(tail: string): string {
  const lines = tail.split('\n');
  const parts: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line.startsWith('{')) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!entry || typeof entry !== 'object') continue;
    const record = entry as Record<string, unknown>;
    const text = assistantText(record);
    if (text !== undefined) parts.unshift(text);
    // A user turn (not a tool result) ends the reply.
    else if (parts.length && (record.type === 'user' || record.role === 'user') && !/tool_result/.test(line)) break;
  }
  return parts.join('\n');
}
