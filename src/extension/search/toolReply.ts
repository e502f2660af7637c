/**
 * How Lore's language model tools answer: plain text for the model, redacted at this boundary
 * (whatever it was read from) and without invisible characters (core's invisibleChars), and
 * knowledge framed as quoted data (core's dataFraming), never as instructions. Every tool reply
 * goes through here.
 */
import * as vscode from 'vscode';
import { frameAsData } from '../../core/model/safety/dataFraming';
import { stripInvisible } from '../../core/model/safety/invisibleChars';
import { redactSecrets } from '../../core/model/safety/redact';

/** A reply that is Lore's own words (status, refusals, confirmations of a write). */
export function plainReply(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(stripInvisible(redactSecrets(text)))]);
}

/** A reply that hands out knowledge: framed as data, then a line of Lore's own (omissions, hints) when given. */
export function knowledgeReply(knowledge: string, footer?: string): vscode.LanguageModelToolResult {
  return plainReply(frameAsData(knowledge.trimEnd()) + (footer ? `\n${footer}` : ''));
}

/** The reply when the workspace has no store: said plainly, so the agent does not retry. */
export const NO_STORE_REPLY = 'This workspace has no Lore knowledge store yet (a person creates one with "Lore: Initialize Store").';

/** The reply without a store: none created yet, or none in this window (no folder open, the global store not chosen). */
export function noStoreReply(store: { readonly available: boolean }): string {
  return store.available
    ? NO_STORE_REPLY
    : 'Lore has no knowledge store in this window: no folder is open and the person has not chosen the global store (lore.store.location: global).';
}

/** A line saying how many matches the token budget left out, or undefined. */
export function omittedFooter(omitted: number): string | undefined {
  return omitted > 0
    ? `(${omitted} more match${omitted === 1 ? '' : 'es'} did not fit the token budget; pass a larger tokenBudget to see them)`
    : undefined;
}
