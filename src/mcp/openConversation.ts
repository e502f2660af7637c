/**
 * The MCP `open_conversation` tool's reply: the conversation behind a `[from: ID, date]`, as the
 * store keeps it in transcripts/, from the heading of the turn the item came from (the same
 * resolution the editor's provenance links use). Raw conversation files are not read out (they
 * can be large session logs of another tool); the reply names them instead.
 *
 * A line that reads as an instruction to an agent is withheld, as the review queue holds such
 * items out of every agent reply: an agent asking where a fact came from must not receive the
 * planted command beside it. A person reads the whole transcript in the editor.
 */
import * as fs from 'node:fs';
import { provenanceTarget } from '../core/knowledge/provenanceTarget';
import { flagInstruction, flagKinds } from '../core/safety/instructionFlags';
import { storeRelative, type StorePaths } from '../core/store/storePaths';

/** At most this much transcript text per reply (an agent can ask again with another item). */
export const MAX_CONVERSATION_REPLY_CHARS = 12_000;

/** The line, or a note in its place when it reads as an instruction to an agent. */
function withheldIfInstruction(line: string): string {
  const kinds = flagKinds(flagInstruction(line));
  return kinds.length ? `[line withheld: it reads as an instruction to an agent (${kinds.join(', ')})]` : line;
}

/** The reply text for `source` (a conversation id) and, optionally, the item line it is asked about. */
export function openConversationText(paths: StorePaths, source: string, item: string): { text: string; found: boolean } {
  const target = provenanceTarget(paths, source, item);
  switch (target.kind) {
    case 'transcript': {
      const lines = fs.readFileSync(target.file, 'utf8').split('\n');
      let text = '';
      let shown = target.line;
      for (; shown < lines.length; shown++) {
        const line = withheldIfInstruction(lines[shown]);
        if (text.length + line.length + 1 > MAX_CONVERSATION_REPLY_CHARS) break;
        text += `${line}\n`;
      }
      const more = shown < lines.length ? `\n(cut at ${MAX_CONVERSATION_REPLY_CHARS} characters; lines ${shown + 1}-${lines.length} not shown)` : '';
      const from = target.line > 0 ? `, from line ${target.line + 1}, the turn the item came from` : '';
      return { text: `# ${storeRelative(paths, target.file)}${from}\n${text.trimEnd()}${more}`, found: true };
    }
    case 'conversation':
      return { text: `conversation ${source} has no stored transcript yet (not harvested, or harvested with transcripts off); its file is ${target.file}, line ${target.line + 1}`, found: true };
    case 'ledger':
      return { text: `conversation ${source} was harvested and reclaimed before Lore kept transcripts; only its ledger entry remains (${storeRelative(paths, target.file)}, line ${target.line + 1})`, found: true };
    default:
      return { text: `no conversation ${source} is recorded in this store`, found: false };
  }
}
