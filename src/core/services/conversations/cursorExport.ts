/**
 * Importer for Cursor's "Export Chat" markdown: a `# <title>` heading, the line
 * `_Exported on 5/19/2025 at 11:13:55 EDT from Cursor (0.50.4)_`, then turns separated by `---`
 * lines, each opening with a `**User**` or `**Cursor**` line. Tool calls and their output are not
 * exported. Turns carry no times: the export stamp, written in the exporting machine's locale,
 * is the only date in the file, and it is kept as the start because it is the conversation's own
 * date (the day of its last turn at the latest), where a file's mtime changes with every copy.
 * Written from real exports committed to public repositories (Cursor 0.50 to 3.15, en-US, pt-BR,
 * ko-KR and zh-CN locales), found in 2026-11.
 */
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath } from './conversationId';
import { CodeFences } from './codeFence';
import { cleanText, emptyConversation, finishConversation, trimBlankLines } from './importSupport';
import { statedTimeToIso } from './statedTime';

const EXPORT_LINE = /^_Exported on (.+) from Cursor \(([^)]*)\)_\s*$/;
const ROLE_LINE = /^\*\*(User|Cursor)\*\*\s*$/;
const SEPARATOR = /^---\s*$/;

function detect(_fileName: string, head: string): number {
  if (/^_Exported on .+ from Cursor \([^)]*\)_\s*$/m.test(head)) return 0.95;
  return /^\*\*User\*\*\s*$/m.test(head) && /^\*\*Cursor\*\*\s*$/m.test(head) && /^---\s*$/m.test(head) ? 0.6 : 0;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'cursor', sourcePath);
  let turn: Turn | undefined;
  let lines: string[] = [];
  let heading: string | undefined;
  const fences = new CodeFences();
  const finishTurn = (): void => {
    if (!turn) return;
    // The `---` before the next role line separates turns; it is not the turn's text.
    while (lines.length > 0 && (lines[lines.length - 1].trim() === '' || SEPARATOR.test(lines[lines.length - 1]))) lines.pop();
    turn.text = trimBlankLines(lines.join('\n'));
    lines = [];
  };
  for (const line of cleanText(rawText)
    .replace(/^\ufeff/, '')
    .split('\n')) {
    if (fences.isCode(line)) {
      lines.push(line);
      continue;
    }
    const role = ROLE_LINE.exec(line);
    // A role line starts a turn only after a separator: `**User**` inside a turn's text is text.
    if (role && (turn === undefined || lastNonBlank(lines) === '---')) {
      finishTurn();
      conv.title ??= heading;
      turn = { role: role[1] === 'User' ? 'user' : 'assistant', text: '' };
      conv.turns.push(turn);
      continue;
    }
    if (!turn) {
      const exported = EXPORT_LINE.exec(line);
      if (exported) {
        conv.title = heading;
        heading = undefined;
        conv.startedAt = statedTimeToIso(exported[1]);
      } else if (/^# \S/.test(line)) heading = line.slice(2).trim();
      continue;
    }
    lines.push(line);
  }
  finishTurn();
  return finishConversation(conv, {});
}

function lastNonBlank(lines: string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].trim() !== '') return lines[i].trim();
  return undefined;
}

/** The Cursor "Export Chat" markdown importer. */
export const cursorExport: Importer = { format: 'cursor', label: 'Cursor chat export', detect, parse };
