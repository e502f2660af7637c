/**
 * Importer for Lore's own markdown transcript (§2.1): YAML frontmatter, `# Title`, turns under
 * `## HH:MM — user|agent|system` headings, tool calls as `> [tool:name] …` lines. It is also what
 * renderTranscript.ts writes, so everything it produces parses back to the same conversation.
 */
import type { Conversation, ConversationFormat, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import { cleanText, countSkip, finishConversation, trimBlankLines } from './importSupport';
import {
  clockBase,
  clockToIso,
  frontmatterString,
  parseToolLine,
  parseTurnHeading,
  readFrontmatter,
  type ClockBase,
} from '../../model/transcriptSyntax';

const FORMATS: readonly ConversationFormat[] = [
  'lore-transcript',
  'claude-code',
  'codex',
  'aider',
  'specstory',
  'copilot-chat',
  'gemini-cli',
  'cline',
  'continue',
  'copilot-cli',
  'cursor',
  'windsurf',
  'opencode',
  'plain',
];
/** Clocks going back by more than this mean the session crossed midnight. */
const MIDNIGHT_ROLLBACK_MINUTES = 60;
/** `raw/conversations/YYYY/MM/DD/…`: the date of a transcript that has no `started`. */
const PATH_DATE = /(?:^|[\\/])(\d{4})[\\/](\d{2})[\\/](\d{2})[\\/][^\\/]*$/;

/** Detects §2.1 transcripts by a `session_id` (or a stored copy's `raw_sha256`) in the frontmatter or a timed turn heading. */
function detect(_fileName: string, head: string): number {
  const text = head.startsWith('\ufeff') ? head.slice(1) : head;
  if (/^---[ \t]*\r?\n/.test(text)) {
    const close = text.search(/\n---[ \t]*(?:\r?\n|$)/);
    const block = close < 0 ? text : text.slice(0, close);
    if (/^session_id:/m.test(block) || /^raw_sha256:/m.test(block)) return 0.95;
  }
  if (/^## \d{1,2}:\d{2}(?::\d{2})? [—–-]+ (?:user|agent)\b/im.test(text)) return 0.9;
  if (/^## user[ \t]*$/m.test(text) && /^## agent\b/m.test(text)) return 0.4;
  return 0;
}

/** Parses a §2.1 transcript. Text before the first turn heading other than the title is ignored. */
function parse(rawText: string, sourcePath: string): Conversation {
  const text = cleanText(rawText);
  const skipped: Record<string, number> = {};
  const fm = readFrontmatter(text);
  if (/^\ufeff?---[ \t]*\n/.test(text) && !fm) countSkip(skipped, 'invalid-frontmatter');
  const body = fm ? fm.body : text.startsWith('\ufeff') ? text.slice(1) : text;

  // `id` and `tool` are how a store's transcripts/ copy names what `session_id` and `source` do.
  const sessionId = fm ? (frontmatterString(fm, 'session_id') ?? frontmatterString(fm, 'id')) : undefined;
  const conv: Conversation = {
    id: sessionId !== undefined && sessionId.trim() !== '' ? sanitizeConversationId(sessionId) : conversationIdFromPath(sourcePath),
    format: 'lore-transcript',
    sourcePath,
    turns: [],
  };
  if (fm) {
    const started = frontmatterString(fm, 'started');
    if (started) conv.startedAt = started;
    const model = frontmatterString(fm, 'model');
    if (model) conv.model = model;
    const cwd = frontmatterString(fm, 'cwd');
    if (cwd) conv.cwd = cwd;
    const ended = frontmatterString(fm, 'ended');
    if (ended) conv.endedAt = ended;
    const source = frontmatterString(fm, 'source') ?? frontmatterString(fm, 'tool');
    if (source && (FORMATS as readonly string[]).includes(source)) conv.sourceFormat = source as ConversationFormat;
  }

  const base = clockBase(conv.startedAt) ?? pathDate(sourcePath);
  let dayOffset = 0;
  let previousMinutes = base?.minutes;
  let turn: Turn | undefined;
  let lines: string[] = [];
  const flush = (): void => {
    if (turn) {
      turn.text = trimBlankLines(lines.join('\n'));
      conv.turns.push(turn);
    }
    lines = [];
  };

  for (const line of body.split('\n')) {
    const heading = parseTurnHeading(line);
    if (heading) {
      flush();
      turn = { role: heading.role, text: '' };
      if (base && heading.hour !== undefined && heading.minute !== undefined) {
        const minutes = heading.hour * 60 + heading.minute;
        if (previousMinutes !== undefined && minutes < previousMinutes - MIDNIGHT_ROLLBACK_MINUTES) dayOffset++;
        previousMinutes = minutes;
        turn.at = clockToIso(base, dayOffset, heading.hour, heading.minute);
      }
      continue;
    }
    if (!turn) {
      if (conv.title === undefined && line.startsWith('# ') && line.slice(2).trim() !== '') conv.title = line.slice(2).trim();
      continue;
    }
    const tool = parseToolLine(line);
    if (tool !== undefined) (turn.tools ??= []).push(tool);
    else lines.push(line);
  }
  flush();
  return finishConversation(conv, skipped);
}

function pathDate(sourcePath: string): ClockBase | undefined {
  const m = PATH_DATE.exec(sourcePath);
  if (!m) return undefined;
  const dayMs = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Clocks in a §2.1 transcript are UTC (the renderer writes them so).
  return Number.isNaN(dayMs) ? undefined : { dayMs, minutes: 0, zoned: true };
}

/** The §2.1 markdown transcript importer. */
export const loreTranscript: Importer = { format: 'lore-transcript', label: 'Lore transcript', detect, parse };
