/**
 * Decisions both sides agreed to: the agent proposes ("I recommend we use X", "Option A: X") and
 * the person's next turn accepts ("yes", "ok do that", "go with A"). A proposal nobody answered,
 * or one the person answered with "no", "but" or "instead", is not a decision.
 */

import { clean } from './rulesMarkers';
import type { Transcript } from './rulesTranscript';

/** A decision and the lines it came from (`turn:line`), for the summary to keep. */
export interface AgreedDecision {
  statement: string;
  lines: string[];
}

const RECOMMENDATION =
  /\b(?:i(?:'d| would)?\s+(?:suggest|recommend|propose)|my (?:suggestion|recommendation) (?:is|would be)|i'd go with|the (?:best|simplest|cleanest) (?:option|approach|choice) (?:is|would be)|recommendation:)\s*(?:that\s+)?(?:we\s+|you\s+)?(?:should\s+)?(?:go with\s+)?(\S.{3,})$/i;
const OPTION =
  /^\s{0,3}(?:#{1,6}\s*)?(?:[-*+]\s+)?(?:\*\*|__)?(?:option|approach|alternative)\s+([a-z]|\d{1,2})\b(?:\*\*|__)?\s*[:.)—–-]*\s*(?:\*\*|__)?\s*(\S.*)$/i;
/**
 * A reply that only agrees: "yes", "ok, do that", "sounds good, go ahead", "implement the plan".
 * One that adds its own choice is not agreement.
 */
const AGREE =
  /^(?:(?:yes|yep|yeah|yup|ok(?:ay)?|sure|sounds good|agreed|i agree|agree|lgtm|perfect|great|good|go ahead|do it|do that|do this|let'?s do (?:it|that|this)|let'?s go|please do|please|makes sense|that works|go for it|ship it|proceed|with (?:that|this|it|your recommendation|the recommendation)|(?:implement|build|apply|execute) (?:the |this |that |your )?(?:plan|proposal|recommendation|it|that|this)|thanks|thank you)[\s,.!]*)+$/i;
const CHOICE = /\b(?:option|approach|alternative|go with|let'?s do|let'?s go with)\s+(?:option\s+)?([a-z]|\d{1,2})\b/i;
const BARE_CHOICE = /^\(?([a-z]|\d{1,2})\)?[.!]?(?:\s+please)?[.!]?$/i;
const ORDINAL: Record<string, string> = { first: '1', second: '2', third: '3' };
const ORDINAL_CHOICE = /\b(?:the\s+)?(first|second|third)\s+(?:one|option|approach)\b/i;
/** A reply with a reservation is not an agreement to the proposal as stated. */
const RESERVATION = /\b(?:but|instead|no|not|don't|do not|rather|except|however|wait)\b/i;
/** Agreement is a short reply; a long one says something else too. */
const MAX_REPLY_CHARS = 160;

/**
 * The decisions agreed in a conversation, skipping the given turns (pasted documents). The answer
 * a reply agrees to is every agent turn since the person last spoke: an agent that works in
 * several messages may recommend in the first and report progress in the last.
 */
export function agreedDecisions(transcript: Transcript, skip: Set<number>): AgreedDecision[] {
  const out: AgreedDecision[] = [];
  const turns = transcript.turns;
  let answerFrom = 0;
  for (let u = 0; u < turns.length; u++) {
    if (turns[u].role !== 'user') continue;
    const from = answerFrom;
    answerFrom = u + 1;
    if (u === 0 || turns[u - 1].role !== 'agent' || skip.has(u)) continue;
    const reply = replyOf(turns[u].lines);
    if (!reply) continue;
    const { recommendation, options } = proposalsOf(turns, from, u);
    const choice = chosenOption(reply.text);
    let picked: Proposal | undefined;
    if (choice) picked = options.get(choice);
    else if (AGREE.test(reply.text) && recommendation) {
      const named = chosenOption(recommendation.text);
      picked = named ? options.get(named) : recommendation;
    }
    const statement = picked && decisionText(picked.text);
    if (statement) out.push({ statement, lines: [picked!.line, `${u}:${reply.line}`] });
  }
  return out;
}

/** A proposal's text and its line (`turn:line`). */
interface Proposal {
  text: string;
  line: string;
}

function replyOf(lines: string[]): { text: string; line: number } | undefined {
  const prose = lines.map((text, line) => ({ text: text.trim(), line })).filter((l) => l.text);
  const text = prose.map((l) => l.text).join(' ');
  if (prose.length === 0 || text.length > MAX_REPLY_CHARS || RESERVATION.test(text)) return undefined;
  return { text, line: prose[0].line };
}

function proposalsOf(turns: Transcript['turns'], from: number, to: number): { recommendation?: Proposal; options: Map<string, Proposal> } {
  const options = new Map<string, Proposal>();
  let recommendation: Proposal | undefined;
  for (let t = from; t < to; t++) {
    if (turns[t].role !== 'agent') continue;
    turns[t].lines.forEach((line, index) => {
      const option = OPTION.exec(line);
      if (option) options.set(option[1].toLowerCase(), { text: option[2], line: `${t}:${index}` });
      const recommended = RECOMMENDATION.exec(line.replace(/\*\*/g, ''));
      // The last recommendation is the one the reply answers.
      if (recommended) recommendation = { text: recommended[1], line: `${t}:${index}` };
    });
  }
  return { recommendation, options };
}

function chosenOption(text: string): string | undefined {
  const choice = CHOICE.exec(text) ?? BARE_CHOICE.exec(text.trim());
  if (choice) return choice[1].toLowerCase();
  const ordinal = ORDINAL_CHOICE.exec(text);
  return ordinal ? ORDINAL[ordinal[1].toLowerCase()] : undefined;
}

/** The proposal as a decision: its first sentence, without emphasis or a trailing question. */
function decisionText(text: string): string | undefined {
  const first = text.replace(/\*\*/g, '').split(/(?<=[.!?])\s+/)[0];
  const statement = clean(first.replace(/[.!:]+$/, ''));
  if (!statement || statement.endsWith('?') || statement.split(/\s+/).length < 2) return undefined;
  return statement.charAt(0).toUpperCase() + statement.slice(1);
}
