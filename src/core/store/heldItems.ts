/**
 * Which knowledge items may reach an agent. An item that reads as an instruction to an agent
 * (safety/instructionFlags) is held back from the digest, the context layers, the instruction
 * files and MCP/LM replies until a person accepts it; accepted lines are recorded in review.md.
 * This applies to items that got into a category file by hand or before flagging existed too,
 * so the filter runs wherever knowledge is handed out, not only when a harvest writes it.
 */
import * as path from 'node:path';
import { flagInstruction } from '../model/safety/instructionFlags';
import { stripInvisible } from '../model/safety/invisibleChars';
import { readTextIfExists } from '../base/readText';
import { personalStorePaths, type StorePaths } from './storePaths';
import { readDigestText } from './digestSwitch';
import { continuesItem, isItemLine, lineIdentity, recordLine } from '../model/itemLines';
import { parseReview, REVIEW_FILE } from '../model/reviewFile';
import { isCurrent } from '../model/supersession';

/** Decides for one item (its text or its `- …` line, provenance included) whether an agent may see it. */
export type AgentItemFilter = (item: string) => boolean;

/**
 * Identities of the lines a person accepted, from review.md; for the shared store also those the
 * person accepted into their personal layer (its own review.md), since both reach their agents.
 */
export function acceptedIdentities(paths: StorePaths): Set<string> {
  const accepted = acceptedIdentitiesIn(readReviewText(paths));
  if (paths.layer === 'personal') return accepted;
  for (const identity of acceptedIdentitiesIn(readReviewText(personalStorePaths(paths)))) accepted.add(identity);
  return accepted;
}

/** review.md as it is on disk (undefined when there is none). */
export function readReviewText(paths: StorePaths): string | undefined {
  return readTextIfExists(path.join(paths.root, REVIEW_FILE));
}

/** Identities of the lines a person accepted, from review.md's text. */
export function acceptedIdentitiesIn(reviewText: string | undefined): Set<string> {
  return new Set(parseReview(reviewText).accepted.map(lineIdentity));
}

/**
 * A filter that lets clean items through, and flagged ones only when accepted. The accepted
 * lines may be given as a function, called once, when the first flagged item needs them.
 */
export function itemFilter(accepted: ReadonlySet<string> | (() => ReadonlySet<string>) = new Set()): AgentItemFilter {
  let known = typeof accepted === 'function' ? undefined : accepted;
  const acceptedLines = () => (known ??= (accepted as () => ReadonlySet<string>)());
  return (item) => flagInstruction(item).length === 0 || acceptedLines().has(lineIdentity(item));
}

/**
 * The filter for handing this store's knowledge to agents (reads review.md at most once, when
 * an item reads as an instruction: a search whose hits are all clean reads nothing): clean or
 * accepted items that are current. A superseded item (supersession.ts) is not served as
 * knowledge: it stays in its file for people, search by ids still finds it, and `superseded`
 * lets it through for a caller that asked for superseded items by name.
 */
export function agentItemFilter(paths: StorePaths, options: { superseded?: boolean } = {}): AgentItemFilter {
  const keep = itemFilter(() => acceptedIdentities(paths));
  // An agent that asked for superseded items (search with include superseded) gets them, marked as such.
  return options.superseded ? keep : (item) => isCurrent(item) && keep(item);
}

/**
 * Whether an agent may see a search record: a knowledge item (its text without provenance; the
 * provenance is put back so an accepted line is recognised). Conversation excerpts are not
 * knowledge items: they are quoted conversation, handed out framed as data, and running the
 * rules over multi-KB chunks on every query cost more than the query itself.
 */
export function keepsRecord(
  keep: AgentItemFilter,
  record: { category: string; text: string; source?: string; date?: string; flagged?: boolean },
  options: { superseded?: boolean } = {},
): boolean {
  if (record.category === 'transcripts') return true;
  if (record.flagged === false) return options.superseded === true || isCurrent(record.text);
  return keep(recordLine(record));
}

/**
 * A markdown text (a digest) without the list items the filter holds back. Used on digest.md as
 * it is on disk, which may predate the flags or have been edited by hand.
 */
export function withoutHeldItems(markdown: string, keep: AgentItemFilter): string {
  const lines = markdown.split('\n');
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    if (isItemLine(line)) dropping = !keep(line);
    else if (!continuesItem(line)) dropping = false;
    if (!dropping) kept.push(line);
  }
  return kept.length === lines.length ? markdown : kept.join('\n');
}

/** digest.md as agents may see it (undefined when it does not exist: "delete to turn off"). */
export function readAgentDigest(paths: StorePaths): string | undefined {
  const digest = readDigestText(paths);
  // Stripped here too: digest.md on disk may be older than the stripping, or edited by hand.
  return digest === undefined ? undefined : stripInvisible(withoutHeldItems(digest, agentItemFilter(paths)));
}
