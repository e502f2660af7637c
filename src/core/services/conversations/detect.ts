/**
 * Picks the importer for a file and runs it. Detection asks every importer for a score from the
 * file name and the first characters of the text, then confirms the guess by parsing
 * (formatCheck.ts): a format holds only when its import has turns and, for JSONL formats, when
 * most lines are its records; otherwise the next likeliest format is tried. Plain text is the
 * fallback for prose only. Anything else (JSON no importer reads, a file surely of a format but
 * without turns) comes back without turns and with `unrecognized` saying why, so the harvest
 * keeps it. Importing never throws.
 */
import type { Conversation, ConversationFormat, Importer } from '../../model/conversation';
import { aider } from './aider';
import { claudeCode } from './claudeCode';
import { cline } from './cline';
import { codex } from './codex';
import { continueDev } from './continueDev';
import { conversationIdFromPath, sanitizeConversationId } from './conversationId';
import { copilotChat } from './copilotChat';
import { copilotChatLog } from './copilotChatLog';
import { copilotCli } from './copilotCli';
import { cursorAgent } from './cursorAgent';
import { cursorAgentText } from './cursorAgentText';
import { cursorExport } from './cursorExport';
import { geminiCli } from './geminiCli';
import { formatProblem, looksLikeJson, type FormatProblem } from './formatCheck';
import { emptyConversation } from './importSupport';
import { loreTranscript } from './loreTranscript';
import { opencode } from './opencode';
import { DEFAULT_PRIVATE_MARKERS, stripPrivateSpans, type PrivateMarkers } from '../../model/safety/privateSpans';
import { plainText } from './plainText';
import { specstory } from './specstory';
import { unsupportedFormatName } from './unsupportedFormats';
import { windsurf } from './windsurf';

// Re-exported so callers find the id helpers next to importConversation; they live in
// conversationId.ts because every importer needs them and this module imports every importer.
export { conversationIdFromPath, sanitizeConversationId };

/** How much of a file detection looks at. */
export const DETECT_HEAD_CHARS = 16 * 1024;

/**
 * A score at which detection is sure of the format (a file name or marker that only the format
 * has): such a file without turns is not read again as plain text.
 */
const SURE_SCORE = 0.9;

/**
 * The highest score an importer gives (a file name or marker only its format has); a higher one
 * counts as this. An importer that scores it comes first whatever the others score (ties keep
 * IMPORTERS order), so its parse is tried before the others are asked.
 */
const TOP_SCORE = 0.95;

/** Every importer, in tie-break order (most specific formats first, plain text last). */
const IMPORTERS: readonly Importer[] = [
  loreTranscript,
  claudeCode,
  codex,
  aider,
  specstory,
  copilotChatLog,
  copilotChat,
  geminiCli,
  cline,
  continueDev,
  copilotCli,
  cursorAgent,
  cursorAgentText,
  cursorExport,
  windsurf,
  opencode,
  plainText,
];

/** The most likely format of a file, from its name (or path) and the start of its text. */
export function detectFormat(fileName: string, head: string): ConversationFormat {
  return rank(fileName, head)[0]?.importer.format ?? 'plain';
}

interface Candidate {
  importer: Importer;
  score: number;
}

/** The importers (plain text aside) that think the file may be theirs, likeliest first, ties in IMPORTERS order. */
function rank(fileName: string, head: string): Candidate[] {
  const sample = detectSample(head);
  const candidates: Candidate[] = [];
  for (const importer of IMPORTERS) {
    if (importer === plainText) continue;
    const score = scoreOf(importer, fileName, sample);
    if (score > 0) candidates.push({ importer, score });
  }
  // Array.prototype.sort is stable, so equal scores keep IMPORTERS order.
  return candidates.sort((a, b) => b.score - a.score);
}

/**
 * The importer rank() would put first when one scores TOP_SCORE, found without asking the
 * importers after it: detection scans the head of the file with every importer's patterns,
 * which for most files costs more than this one question.
 */
function topCandidate(fileName: string, head: string): Importer | undefined {
  const sample = detectSample(head);
  return IMPORTERS.find((importer) => importer !== plainText && scoreOf(importer, fileName, sample) === TOP_SCORE);
}

function detectSample(head: string): string {
  return head.length > DETECT_HEAD_CHARS ? head.slice(0, DETECT_HEAD_CHARS) : head;
}

/** An importer's score, at most TOP_SCORE; 0 when its detection fails. */
function scoreOf(importer: Importer, fileName: string, sample: string): number {
  try {
    return Math.min(importer.detect(fileName, sample), TOP_SCORE);
  } catch {
    return 0;
  }
}

/** How a conversation is read: the private-span markers that apply besides the default pair. */
export interface ImportOptions {
  /** Marker pairs around private text (privateSpans.ts); the default `<private>` pair always applies. */
  privateMarkers?: readonly PrivateMarkers[];
}

/**
 * Reads a conversation file's text with the first importer whose format the text confirms.
 * `filePath` is recorded as the conversation's source and used for the file-stem id. Never
 * throws; a conversation with `unrecognized` set has no turns. Private spans are removed here,
 * from every turn, so nothing downstream (the model, transcripts, caches, the index) sees them.
 */
export function importConversation(filePath: string, text: string, options: ImportOptions = {}): Conversation {
  return withoutPrivateSpans(importAny(filePath, text), options.privateMarkers ?? [DEFAULT_PRIVATE_MARKERS]);
}

/** The conversation with private spans removed from its title, each turn's text and its tool summaries. */
function withoutPrivateSpans(conv: Conversation, markers: readonly PrivateMarkers[]): Conversation {
  const all = [DEFAULT_PRIVATE_MARKERS, ...markers.filter((m) => m !== DEFAULT_PRIVATE_MARKERS)];
  const strip = (text: string) => stripPrivateSpans(text, all);
  return {
    ...conv,
    ...(conv.title !== undefined ? { title: strip(conv.title) } : {}),
    turns: conv.turns.map((t) => ({ ...t, text: strip(t.text), ...(t.tools ? { tools: t.tools.map(strip) } : {}) })),
  };
}

function importAny(filePath: string, text: string): Conversation {
  // The likeliest format, when it is sure, and its text confirms it: what the loop below would
  // return first. Otherwise every format is ranked and tried, this one again (parsing is pure).
  const top = topCandidate(filePath, text);
  if (top) {
    try {
      const conv = top.parse(text, filePath);
      if (formatProblem(top, conv, text) === undefined) return conv;
    } catch {
      // Tried again below, where a crash is recorded.
    }
  }
  const candidates = rank(filePath, text);
  /** The likeliest format's failed attempt: its conversation keeps the diagnostics. */
  let refused: { conv?: Conversation; problem: FormatProblem } | undefined;
  const crashed: string[] = [];
  for (const { importer } of candidates) {
    let conv: Conversation;
    try {
      conv = importer.parse(text, filePath);
    } catch {
      // An importer bug must not stop a batch import: try the next format.
      crashed.push(importer.format);
      refused ??= { problem: { reason: `the ${importer.label} importer failed on it`, foreign: false } };
      continue;
    }
    const problem = formatProblem(importer, conv, text);
    if (problem === undefined) return conv;
    refused ??= { conv, problem };
  }
  const json = looksLikeJson(text);
  if (!json && (candidates[0]?.score ?? 0) < SURE_SCORE) {
    const conv = plainImport(filePath, text);
    for (const format of crashed) conv.skipped = { ...conv.skipped, [`importer-error:${format}`]: 1 };
    if (conv.turns.length > 0) return conv;
    refused ??= { conv, problem: { reason: conv.skipped?.binary ? 'binary content, not text' : 'no text', foreign: false } };
  }
  // Of a refused attempt only the format it was taken for and its skip counts are kept, for
  // diagnostics: what it read (a session id from another tool's records, a title) is not trusted.
  const conv = emptyConversation(conversationIdFromPath(filePath), refused?.conv?.format ?? 'plain', filePath);
  const skipped = { ...refused?.conv?.skipped };
  for (const format of crashed) skipped[`importer-error:${format}`] = 1;
  if (Object.keys(skipped).length > 0) conv.skipped = skipped;
  conv.unrecognized = unrecognizedReason(text, refused?.problem, json);
  return conv;
}

function plainImport(filePath: string, text: string): Conversation {
  try {
    return plainText.parse(text, filePath);
  } catch {
    return { ...emptyConversation(conversationIdFromPath(filePath), 'plain', filePath), skipped: { 'importer-error:plain': 1 } };
  }
}

/** Why no importer read the file, naming the format it looks like when Lore knows it. */
function unrecognizedReason(text: string, problem: FormatProblem | undefined, json: boolean): string {
  if (problem && !problem.foreign) return problem.reason;
  const what =
    problem?.reason ?? (json ? `${isJsonLines(text) ? 'JSON Lines' : 'JSON'} that no importer reads` : 'text that no importer reads');
  const known = unsupportedFormatName(text.slice(0, DETECT_HEAD_CHARS));
  return known ? `looks like ${known}, which Lore does not read yet (${what})` : `not a supported conversation format: ${what}`;
}

/** JSON Lines rather than one JSON document: the first line is a whole JSON value of its own. */
function isJsonLines(text: string): boolean {
  const start = text.replace(/^\ufeff/, '').trimStart();
  const newline = start.indexOf('\n');
  if (newline < 0 || start.slice(newline).trim() === '') return false;
  try {
    JSON.parse(start.slice(0, newline));
    return true;
  } catch {
    return false;
  }
}
