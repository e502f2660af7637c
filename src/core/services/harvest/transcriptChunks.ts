/**
 * Cutting a long transcript into chunks a model summarizes one at a time. Chunks end at line
 * boundaries, preferably before a turn heading; a chunk that starts inside a turn begins with
 * that turn's heading again, marked `[continued]`, so whoever reads it (a model, or the offline
 * extractor, which reads text under no heading as nobody's words) knows who is speaking.
 */
import { SUMMARY_CHUNK_BYTES } from '../../model/constants';
import { continuedTurnHeading, parseTurnHeading } from '../../model/transcriptSyntax';

/** Cuts a transcript into chunks of at most `maxBytes` of UTF-8, at line boundaries, preferring turn headings. */
export function chunkTranscript(text: string, maxBytes = SUMMARY_CHUNK_BYTES): string[] {
  const chunks: string[] = [];
  /** The heading of the turn the text read so far belongs to. */
  let turnHeading: string | undefined;
  let current = '';
  let bytes = 0;
  /** True once the chunk holds a line of the transcript, not only a repeated heading. */
  let body = false;
  const cut = (insideTurn: boolean): void => {
    if (body) chunks.push(current);
    current = insideTurn && turnHeading !== undefined ? `${continuedTurnHeading(turnHeading)}\n` : '';
    bytes = Buffer.byteLength(current, 'utf8');
    body = false;
  };
  for (const line of text.split('\n')) {
    const lineBytes = Buffer.byteLength(line, 'utf8') + 1;
    const isHeading = parseTurnHeading(line) !== undefined;
    if (body && (bytes + lineBytes > maxBytes || (isHeading && bytes > maxBytes * 0.75))) cut(!isHeading);
    if (isHeading) {
      turnHeading = line;
      if (!body) cut(false); // a new turn needs no repeated heading above its own
    }
    if (bytes + lineBytes > maxBytes) {
      // One giant line (a pasted log): split it by characters, each piece under its turn's heading, under the cap.
      const room = Math.max(1, Math.floor((maxBytes - bytes) / 4));
      for (let i = 0; i < line.length; i += room) chunks.push(`${current}${line.slice(i, i + room)}`);
      cut(true);
      continue;
    }
    current += `${line}\n`;
    bytes += lineBytes;
    body = true;
  }
  if (body && current.trim()) chunks.push(current);
  return chunks;
}
