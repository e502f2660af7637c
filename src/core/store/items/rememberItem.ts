/**
 * One item an agent asks Lore to remember through VS Code (the `lore_remember` language model
 * tool): a fact, decision, open question, open task or a note on a workspace file. The line and
 * its file come from the agents' write rules (agentWrites: redaction, line neutralization,
 * instruction flagging, de-duplication, the store lock, the guarded replace, digest regeneration);
 * the person confirms the exact line in VS Code, so it is written straight in rather than queued.
 *
 * `planRemember` is the pure part (no write): the line exactly as it would be written and where,
 * so a confirmation can show it; `rememberItem` writes that same line.
 */
import * as fs from 'node:fs';
import type { InstructionFlagKind } from '../../model/safety/instructionFlags';
import { redactSecrets } from '../../model/safety/redact';
import type { StorePaths } from '../storePaths';
import { newItemFlags, planNewItem, rememberItem as rememberAgentItem, sameStatementOf } from './agentWrites';
import { forgottenLineTest } from '../../model/tombstones';
import { readLedger } from '../ledger';
import { itemId } from '../../model/itemId';
import { REVIEW_FILE } from '../../model/reviewFile';

import { REMEMBER_KINDS, REMEMBER_MAX_CHARS, type RememberKind } from '../../model/rememberKinds';

export { REMEMBER_KINDS, REMEMBER_MAX_CHARS, type RememberKind };

export interface RememberInput {
  kind: RememberKind;
  /** The statement (or the note). */
  text: string;
  /** Why, or more context: `statement — detail` (not for notes). */
  detail?: string;
  /** For a note: the workspace-relative (or absolute) path of the file it is about. */
  path?: string;
}

/** The line to write and where: what a confirmation shows, and what rememberItem writes. */
export type RememberPlan =
  | {
      ok: true;
      kind: RememberKind;
      line: string;
      /** The item's id (itemId of the line). */
      id: string;
      /** Store-relative file the line goes to (a note file for notes). */
      file: string;
      /** For a note: the workspace-relative path of the file it is about. */
      notedPath?: string;
      /** Set when the line reads as an instruction: it will be held in review.md instead. */
      held?: InstructionFlagKind[];
      /** Set when the file already says this (model/sameStatement.ts): that item is answered, no second line is written. */
      existing?: { id: string; line: string };
    }
  | { ok: false; reason: string };

/** The line and its target, without writing anything: the agents' write rules (agentWrites.planNewItem). */
export function planRemember(paths: StorePaths, input: RememberInput, source: string, today: Date): RememberPlan {
  if (!(REMEMBER_KINDS as readonly string[]).includes(input.kind))
    return { ok: false, reason: `unknown kind "${String(input.kind)}"; one of ${REMEMBER_KINDS.join(', ')}` };
  const text = redactSecrets(String(input.text ?? '')).trim();
  if (!text) return { ok: false, reason: 'the text is empty' };
  if (text.length > REMEMBER_MAX_CHARS) return { ok: false, reason: `the text is longer than ${REMEMBER_MAX_CHARS} characters` };
  if (input.kind === 'note' && !input.path?.trim()) return { ok: false, reason: 'a note needs the path of the file it is about' };
  const plan = planNewItem(paths, { kind: input.kind, statement: text, detail: input.detail, path: input.path }, source, today);
  if (!plan.ok) return plan;
  if (forgottenLineTest(readLedger(paths.ledger))?.(plan.line))
    return { ok: false, reason: 'a person forgot this statement for good (lore forget); it is not remembered again' };
  const same = sameStatementOf(paths, plan);
  const kinds = newItemFlags(paths, plan.line);
  const notedPath = 'notedPath' in plan.target ? plan.target.notedPath : undefined;
  return {
    ok: true,
    kind: input.kind,
    line: plan.line,
    id: itemId(plan.line),
    file: plan.file,
    ...(notedPath !== undefined ? { notedPath } : {}),
    ...(kinds.length ? { held: kinds } : {}),
    ...(same ? { existing: { id: itemId(same), line: same.trim() } } : {}),
  };
}

export type RememberResult =
  | { ok: true; plan: Extract<RememberPlan, { ok: true }>; added: boolean; where: 'file' | 'review'; written: string }
  | { ok: false; reason: string };

/**
 * Writes the planned line, as the agents' writes do (agentWrites.rememberItem) but straight in:
 * the person confirmed this very line in VS Code. A line that reads as an instruction is still
 * held in review.md. Refused, with the reason, when there is no store: an agent never creates one.
 */
export async function rememberItem(paths: StorePaths, input: RememberInput, source: string, today: Date): Promise<RememberResult> {
  if (!fs.existsSync(paths.root)) return { ok: false, reason: `there is no knowledge store at ${paths.root}` };
  const plan = planRemember(paths, input, source, today);
  if (!plan.ok) return plan;
  const result = await rememberAgentItem(
    paths,
    { kind: input.kind, statement: input.text, detail: input.detail, path: input.path },
    { source, today, mode: 'direct' },
  );
  switch (result.status) {
    case 'recorded':
    case 'unchanged':
      // A statement already there is not added again (its source may be: see agentWrites.addSourceTo).
      return { ok: true, plan, added: result.status === 'recorded' && !plan.existing, where: 'file', written: result.file ?? plan.file };
    case 'held':
    case 'pending':
      return { ok: true, plan, added: true, where: 'review', written: REVIEW_FILE };
    default:
      return { ok: false, reason: result.reason ?? result.status };
  }
}
