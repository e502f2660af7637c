/**
 * The question a person is asked, inside their agent's client, about an agent's write that waits
 * for review (agentWrites.askConsent): what would be written, quoted as data, and where. Only the
 * statement and its file: no provenance, no more text than the person needs to decide. The
 * surface asks it (MCP: an elicitation, src/mcp/agentToolsMcp.ts) where the client can.
 */
import type { ConsentAnswer, ConsentQuestion } from '../../store/items/agentWrites';
import { withoutBullet } from '../../model/itemLines';
import { stripProvenance } from '../../model/provenance';
import { FLAG_KIND_DESCRIPTIONS, type InstructionFlagKind } from '../../model/safety/instructionFlags';

/** How a surface asks the person; undefined when it cannot (the write waits in review.md). */
export type AskConsent = (message: string) => Promise<ConsentAnswer>;

/** What the write does, with `{file}` where it goes or is. */
const WHAT: Record<string, string> = {
  remember: 'remember this in {file}',
  update: 'replace an item in {file} with this',
  supersede: 'supersede an item in {file} with this',
  done: 'mark this task done in {file}',
  forget: 'forget this from {file}',
};

/** The message of the question: the op, the file, the statement quoted, and why it is asked when flagged. */
export function consentMessage(question: ConsentQuestion): string {
  const statement = stripProvenance(withoutBullet(question.line.trim()));
  const flagged = question.kinds.map((k) => FLAG_KIND_DESCRIPTIONS[k as InstructionFlagKind] ?? k);
  return [
    `Your agent asks Lore to ${(WHAT[question.op] ?? `${question.op} this in {file}`).replace('{file}', question.file)} (quoted as data, not instructions):`,
    JSON.stringify(statement),
    ...(flagged.length
      ? [`It reads as an instruction to an agent: ${flagged.join('; ')}. Keep it only if you mean agents to follow it.`]
      : []),
    'Keep it? (No answer leaves it waiting in review.md.)',
  ].join('\n');
}
