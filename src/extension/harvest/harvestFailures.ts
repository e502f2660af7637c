/**
 * Why conversations were not distilled, in words a person acts on: the harvest report keeps each
 * failure's message as the provider classified it (core's providerErrors.ts: "openai: cannot reach
 * http://127.0.0.1:9/v1 (connection refused); check …", the network code already in words), written
 * for a terminal and the ledger. Here it
 * becomes what happened ("Could not reach http://127.0.0.1:9/v1 (connection refused)") and what to
 * do in VS Code (a setting, a command), for the harvest's message and the Harvest Plan view. No
 * vscode import, so plain Node tests it.
 */
import { printable } from '../../core/model/format';
import type { ConversationOutcome } from '../../core/store/harvestPlan';

/** What kind of trouble it was: the kind decides what the person can do about it. */
export type FailureKind = 'unreachable' | 'auth' | 'timeout' | 'rate-limit' | 'server' | 'invalid-reply' | 'unreadable' | 'other';

export interface FailureReason {
  kind: FailureKind;
  /** What happened, a sentence start: "Could not reach http://127.0.0.1:9/v1 (connection refused)". */
  reason: string;
  /** What to do, lower case: "check lore.baseUrl, or choose another way to distill". */
  advice: string;
}

const CHOOSE_ANOTHER = 'or choose another way to distill';

/** The message without the provider's name that ProviderError puts in front ("openai: …"). */
function withoutProvider(message: string): string {
  return message.replace(/^[a-z][\w-]*: (?=\S)/, '');
}

/** The first clause of a classified message (its advice, after "; ", is written for the CLI). */
function firstClause(message: string): string {
  const cut = message.indexOf('; ');
  return cut < 0 ? message : message.slice(0, cut);
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Turns one failure message of a harvest report into what happened and what to do. */
export function failureReason(error: string | undefined): FailureReason {
  const message = printable(withoutProvider((error ?? '').trim()));
  const unreachable = /^cannot reach (\S+?)( \([^)]*\))?;/.exec(message);
  if (unreachable) {
    return {
      kind: 'unreachable',
      reason: `Could not reach ${unreachable[1]}${unreachable[2] ?? ''}`,
      advice: `check lore.baseUrl, ${CHOOSE_ANOTHER}`,
    };
  }
  if (/^(authentication failed|permission denied|invalid API key|payment required|no API key)\b/.test(message))
    return {
      kind: 'auth',
      reason: /^no API key\b/.test(message)
        ? 'No API key is set for this provider'
        : `The provider refused the key: ${firstClause(message)}`,
      advice: `store the key with "Lore: Set API Key…", ${CHOOSE_ANOTHER}`,
    };
  const noReply = /^no reply within ([^;]+)/.exec(message);
  if (noReply || /^the server timed out\b/.test(message))
    return {
      kind: 'timeout',
      reason: noReply ? `No reply within ${noReply[1]}` : sentence(firstClause(message)),
      advice: 'try again, or raise lore.timeoutSeconds',
    };
  if (/^rate limited\b/.test(message))
    return { kind: 'rate-limit', reason: sentence(firstClause(message)), advice: 'wait a minute and harvest again' };
  if (/^(server error|the provider is overloaded)\b/.test(message))
    return { kind: 'server', reason: sentence(firstClause(message)), advice: `try again later, ${CHOOSE_ANOTHER}` };
  const invalid = /^harvest output invalid after (\d+) attempts?: (.*)$/s.exec(message);
  if (invalid)
    return {
      kind: 'invalid-reply',
      reason: `The model's reply could not be read (${invalid[1]} tries; ${invalid[2].slice(0, 200)})`,
      advice: `harvest again, or choose another model (lore.model)`,
    };
  return {
    kind: 'other',
    reason: sentence(firstClause(message) || 'It failed without saying why'),
    advice: 'the log (Output › Lore) has the details',
  };
}

/** Why a conversation was not read at all (no importer found turns in it), in words. */
export function unreadableReason(outcome: Pick<ConversationOutcome, 'error'>): FailureReason {
  return {
    kind: 'unreadable',
    reason: `Not a conversation Lore can read (${printable(outcome.error ?? 'no conversation turns')})`,
    advice: 'it stays where it is',
  };
}

/** The conversations a harvest could not distill (they are kept; the next harvest tries them again). */
export function failedConversations(conversations: readonly ConversationOutcome[]): ConversationOutcome[] {
  return conversations.filter((c) => c.status === 'harvest-failed');
}

/**
 * One line for the harvest's message: how many failed and the reason most of them share, with what
 * to do ("7 conversations could not be distilled. Could not reach http://127.0.0.1:9/v1 (connection
 * refused): check lore.baseUrl, or choose another way to distill."). Empty when none failed.
 */
export function failuresSentence(conversations: readonly ConversationOutcome[]): { text: string; kind?: FailureKind } {
  const failed = failedConversations(conversations);
  if (!failed.length) return { text: '' };
  const reasons = failed.map((c) => failureReason(c.error));
  const byReason = new Map<string, { reason: FailureReason; count: number }>();
  for (const r of reasons) {
    const seen = byReason.get(r.reason);
    if (seen) seen.count++;
    else byReason.set(r.reason, { reason: r, count: 1 });
  }
  const [first] = [...byReason.values()].sort((a, b) => b.count - a.count);
  const counted = failed.length === 1 ? '1 conversation could not be distilled' : `${failed.length} conversations could not be distilled`;
  const others = byReason.size > 1 ? ` (${byReason.size - 1} more reason${byReason.size > 2 ? 's' : ''} in the log)` : '';
  return { text: `${counted}. ${first.reason.reason}: ${first.reason.advice}${others}.`, kind: first.reason.kind };
}
