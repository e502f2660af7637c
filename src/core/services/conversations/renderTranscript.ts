/**
 * Renders any Conversation as a §2.1 markdown transcript. This text is what a model receives and
 * what the offline 'rules' extractor reads, so its shape is a contract:
 *
 *     ---
 *     session_id: <id>
 *     started: <ISO>          (when known)
 *     model: <model>          (when known)
 *     source: <format>
 *     cwd: <dir>              (when known)
 *     ---
 *
 *     # <title or id>
 *
 *     ## HH:MM — user         (UTC; `## user` when the turn has no time)
 *     > [tool:…] …            (tool lines, then a blank line)
 *     <text>
 *
 * Turns with neither text nor tools are left out. Parsing the output with loreTranscript and
 * rendering again gives the same text.
 *
 * The copy a store keeps in transcripts/ (`stored`) has the same body under the frontmatter
 * Autopoiesis §2.1 gives an archived transcript: `id`, `tool`, `started`, `ended`, `model`,
 * `raw_sha256` (the identity of the raw file it was rendered from, the ledger's key), `turns`,
 * then `cwd`. loreTranscript reads both headers.
 */
import type { Conversation, Turn } from '../../model/conversation';
import { cleanText, trimBlankLines } from './importSupport';
import { formatClock, isToolString, looksLikeTurnHeading, parseToolLine, yamlScalar } from '../../model/transcriptSyntax';

/**
 * Whether a line may read back as a turn heading (looksLikeTurnHeading) or a tool line
 * (parseToolLine): only one starting `##` or `> [` can (searched as plain strings, which is
 * several times faster than a regex anchored at line starts).
 */
function mayNeedEscape(text: string): boolean {
  return text.startsWith('##') || text.startsWith('> [') || text.includes('\n##') || text.includes('\n> [');
}

const ROLE_WORD: Record<Turn['role'], string> = { user: 'user', assistant: 'agent', system: 'system' };

/** What makes a rendering the stored copy of a conversation (see the module comment). */
export interface StoredTranscriptInfo {
  /** sha256 of the raw conversation file. */
  rawSha256: string;
}

/** Renders a conversation as the §2.1 transcript (ends with a newline); `stored` gives the transcripts/ header. */
export function renderTranscript(conv: Conversation, stored?: StoredTranscriptInfo): string {
  return `${transcriptPieces(conv, stored).join('\n')}\n`;
}

/**
 * The UTF-8 size of renderTranscript(conv), summed piece by piece: a dry run measures every
 * conversation, and joining tens of megabytes into one string only to count its bytes costs
 * more than the count. Pieces are joined by `\n` (one byte), which cannot pair with a surrogate.
 */
export function renderedTranscriptBytes(conv: Conversation): number {
  const pieces = transcriptPieces(conv);
  let bytes = pieces.length; // A `\n` after each piece, the last one included.
  for (const piece of pieces) bytes += Buffer.byteLength(piece, 'utf8');
  return bytes;
}

/** The transcript's pieces (see the module comment): header lines, headings, tool lines, each turn's text; joined by `\n`. */
function transcriptPieces(conv: Conversation, stored?: StoredTranscriptInfo): string[] {
  const body: string[] = [];
  let turns = 0;
  for (const turn of conv.turns) {
    const tools = (turn.tools ?? []).map(renderTool).filter((line) => line !== '');
    const text = renderText(turn.text);
    if (tools.length === 0 && text === '') continue;
    turns++;
    const clock = formatClock(turn.at);
    body.push('', clock ? `## ${clock} — ${ROLE_WORD[turn.role]}` : `## ${ROLE_WORD[turn.role]}`);
    body.push(...tools);
    if (tools.length > 0 && text !== '') body.push('');
    if (text !== '') body.push(text);
  }
  // A transcript without `started` could not date its HH:MM headings when read back.
  const started = conv.startedAt ?? conv.turns.find((t) => t.at)?.at;
  const tool = conv.sourceFormat ?? conv.format;
  const out: string[] = ['---'];
  if (stored) {
    const ended = conv.endedAt ?? conv.turns.findLast((t) => t.at)?.at;
    out.push(`id: ${yamlScalar(conv.id)}`, `tool: ${tool}`);
    if (started) out.push(`started: ${yamlScalar(started, true)}`);
    if (ended) out.push(`ended: ${yamlScalar(ended, true)}`);
    if (conv.model) out.push(`model: ${yamlScalar(conv.model)}`);
    out.push(`raw_sha256: ${stored.rawSha256}`, `turns: ${turns}`);
  } else {
    out.push(`session_id: ${yamlScalar(conv.id)}`);
    if (started) out.push(`started: ${yamlScalar(started, true)}`);
    if (conv.model) out.push(`model: ${yamlScalar(conv.model)}`);
    out.push(`source: ${tool}`);
  }
  if (conv.cwd) out.push(`cwd: ${yamlScalar(conv.cwd)}`);
  out.push('---', '', `# ${singleLine(conv.title ?? '') || conv.id}`);
  for (const line of body) out.push(line); // Not spread: a long conversation has more lines than a call takes arguments.
  return out;
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A tool summary as a `> [kind…] …` line; anything not already in that shape is labelled `[tool]`. */
function renderTool(tool: string): string {
  const flat = singleLine(tool.replace(/\u0000/g, ''));
  if (flat === '') return '';
  return `> ${isToolString(flat) ? flat : `[tool] ${flat}`}`;
}

/**
 * The turn text, trimmed of blank edges. A text line that could read back as a turn heading or a
 * tool line gets one leading space, which keeps it text (and is itself stable on re-rendering).
 */
function renderText(text: string): string {
  const clean = cleanText(text);
  // Only a line starting `##` or `> [` can need the space: most turns have none, and are only trimmed.
  if (!mayNeedEscape(clean)) return trimBlankLines(clean);
  const lines = clean.split('\n');
  let start = 0;
  while (start < lines.length && lines[start].trim() === '') start++;
  const kept = lines.slice(start).map((line) => (looksLikeTurnHeading(line) || parseToolLine(line) !== undefined ? ` ${line}` : line));
  return kept.join('\n').trimEnd();
}
