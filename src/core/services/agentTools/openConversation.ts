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
import { provenanceTarget } from '../../store/items/provenanceTarget';
import { flagInstruction, flagKinds } from '../../model/safety/instructionFlags';
import { storeRelative, type StorePaths } from '../../store/storePaths';
import { readStoreFile } from '../../base/readText';

/** What the reply holds besides its text: where the excerpt sits, and where to go on. */
export interface ConversationExcerpt {
  text: string;
  found: boolean;
  /** Store-relative transcript file, when there is one. */
  file?: string;
  /** 1-based lines shown, and the total. */
  fromLine?: number;
  toLine?: number;
  totalLines?: number;
  /** The line to ask for next (from_line) when the excerpt was cut. */
  nextLine?: number;
}

/** The line, or a note in its place when it reads as an instruction to an agent. */
function withheldIfInstruction(line: string): string {
  const kinds = flagKinds(flagInstruction(line));
  return kinds.length ? `[line withheld: it reads as an instruction to an agent (${kinds.join(', ')})]` : line;
}

/**
 * The reply for `source` (a conversation id) and, optionally, the item line it is asked about:
 * at most `maxBytes` of transcript from the turn the item came from, or from `fromLine` (1-based)
 * when the caller goes on reading.
 */
export function openConversationText(
  paths: StorePaths,
  source: string,
  item: string,
  options: { maxBytes: number; fromLine?: number },
): ConversationExcerpt {
  const target = provenanceTarget(paths, source, item);
  switch (target.kind) {
    case 'transcript': {
      const lines = readStoreFile(target.file, 'utf8').split('\n');
      const start = options.fromLine !== undefined ? Math.min(Math.max(0, options.fromLine - 1), lines.length) : target.line;
      const file = storeRelative(paths, target.file);
      const from =
        options.fromLine !== undefined
          ? `, from line ${start + 1}`
          : target.line > 0
            ? `, from line ${target.line + 1}, the turn the item came from`
            : '';
      const heading = `# ${file}${from}\n`;
      let text = '';
      let size = Buffer.byteLength(heading);
      let shown = start;
      for (; shown < lines.length; shown++) {
        const line = withheldIfInstruction(lines[shown]);
        const cost = Buffer.byteLength(line) + 1;
        if (size + cost > options.maxBytes) break;
        text += `${line}\n`;
        size += cost;
      }
      if (shown === start && start < lines.length) {
        // One line longer than the budget: its start, so that asking again always moves on.
        text = `${withheldIfInstruction(lines[start]).slice(0, Math.max(0, Math.floor((options.maxBytes - size) / 4)))}…\n`;
        shown++;
      }
      const cut = shown < lines.length;
      const more = cut
        ? `\n(lines ${shown + 1}-${lines.length} not shown: call open_conversation again with from_line ${shown + 1}, or a larger max_tokens)`
        : '';
      return {
        text: `${heading}${text.trimEnd()}${more}`,
        found: true,
        file,
        fromLine: start + 1,
        toLine: shown,
        totalLines: lines.length,
        ...(cut ? { nextLine: shown + 1 } : {}),
      };
    }
    case 'conversation':
      return {
        text: `conversation ${source} has no stored transcript yet (not harvested, or harvested with transcripts off); its file is ${target.file}, line ${target.line + 1}`,
        found: true,
      };
    case 'ledger':
      return {
        text: `conversation ${source} was harvested and reclaimed before Lore kept transcripts; only its ledger entry remains (${storeRelative(paths, target.file)}, line ${target.line + 1})`,
        found: true,
      };
    default:
      return { text: `no conversation ${source} is recorded in this store`, found: false };
  }
}
