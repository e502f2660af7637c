/**
 * Findings stated in prose: the conclusions an agent (or a person) draws while working, "The
 * test fails because …", "The root cause is …", "It turns out …", "X is configured in Y". They
 * are the facts most sessions hold and no heading announces. A hypothesis is not a finding: a
 * sentence that hedges ("maybe", "I think", "probably") or plans ("let me check") is left out,
 * and a causal finding is dropped when the conversation later says it was wrong ("that wasn't
 * it", "still fails", "the real cause is …"): memories that keep dead ends as truth are the
 * field's top complaint.
 */

import { clean } from './rulesMarkers';
import type { Transcript } from './rulesTranscript';

/** A finding, where it was stated, and whether it is a conclusion (a cause, a limitation: those are the ones retracted). */
export interface Finding {
  statement: string;
  turn: number;
  line: number;
  causal: boolean;
}

/** Conclusions about a failure or a cause. */
const CAUSAL: readonly RegExp[] = [
  /^(?:the\s+)?(?:root cause|underlying cause|cause|culprit|real (?:issue|problem|cause))\s+(?:of\s+[^,]{3,60}?\s+)?(?:is|was)\b/i,
  /^(?:the\s+)?(?:issue|problem|bug|error|failure|crash|regression|flakiness)\s+(?:here\s+|(?:you(?:'re| are| were)?|we(?:'re| are| were)?)\s+(?:seeing|experiencing|hitting|getting|had)\s+|with\s+[^,;]{2,40}?\s+)?(?:is|was)\s+(?:that|caused by|due to|because|coming from|in)\b/i,
  // "reads the results from X": after an article or possessive, "results" is a noun.
  /^[^,;:]{3,80}?(?<!\b(?:the|these|those|its|their|our|your|of)\s)\b(?:stems?|stemmed|comes?|came|results?|resulted|originates?|originated)\s+from\b/i,
  /^[^,;:]{3,80}?\b(?:is|was|are|were)\s+due to\b/i,
  /^[^,;:]{3,80}?\b(?:occurs?|occurred|happens?|happened|appears?|appeared)\s+(?:only\s+)?(?:because|when|since)\b/i,
  /^[^,;:]{3,80}?\b(?:fails?|failing|failed|breaks?|broke|crash(?:es|ed)?|hangs?|times? out|timed out|errors? out|doesn't work|does not work|didn't work|did not work|isn't working|wasn't working)\b[^.;]{0,60}?\b(?:because|since|due to|when)\b/i,
  /^[^,;:]{3,80}?\b(?:is|was|are|were)\s+caused\s+by\b/i,
];
/** Conclusions about where something lives or how it is set up. */
const LOCATING =
  /^[^,;:]{3,80}?\b(?:is|are)\s+(?:configured|defined|set|declared|registered|stored|generated|pinned|kept|set up|wired up)\s+(?:in|by|from|via|through|at|with)\s+\S/i;
/**
 * A limitation found: "There is no way to make `npm version` ignore a folder", "No — there's no
 * `skills pull` command". It needs what is missing spelled out (a code span or "to …"):
 * "there is no clear indication" or "there's no way that works" says nothing.
 */
const LIMITATION =
  /^(?:no\s*[,—–-]\s*)?(there(?:'s| is) no (?:built-in |native |supported |official |automatic |direct )?(?:`[^`]+`\s+)?(?:way|option|flag|command|setting|support|api)\b.*)$/i;
const LIMITATION_OBJECT = /`|\bto\b/;
/** "Found it.", "I found exactly how it works.", "Here's what I found:": the next sentence states the finding. */
const DISCOVERY =
  /^(?:(?:great|ok(?:ay)?|perfect|aha)[,!.]?\s+)?(?:i(?:'ve| have)?\s+)?(?:found|figured out|tracked down|identified)\s+(?:it|the (?:issue|problem|cause|culprit|bug|answer|root cause)|(?:exactly\s+)?(?:how|where|why) (?:it|this) (?:works|is (?:set|configured|defined|done)|happens))\s*[.!:]*$|^here(?:'s| is) what i found\s*[.!:]*$/i;
/** A finding needs a subject and a verb: at least this many words. */
const MIN_FINDING_WORDS = 5;
/** "It turns out (that) X": X is the finding. */
const TURNS_OUT = /^(?:(?:so|ok(?:ay)?|ah|aha)[,!]?\s+)?(?:it\s+|as it\s+)?turns out,?\s+(?:that\s+)?(\S.*)$/i;
/** Openers that carry no content: "So, ", "Found it: ", "Great! ", "I see that ". */
const OPENER =
  /^(?:(?:so|ok(?:ay)?|ah|aha|actually|great|good|right|alright|interesting|found it|got it|i (?:can |now )?see that|i see|i(?:'ve| have)? (?:found|noticed|confirmed|discovered) that)[,:!.]?\s+)+/i;
/** "The problem is in how X parses Y", "because of how X handles Y": where to look, not what was found. */
const VAGUE = /\b(?:in|because of|due to|with) how\b/i;
/** Hedges and plans: a sentence with one is a hypothesis or a next step, not a conclusion. */
const HEDGE =
  /\b(?:maybe|might|may|could|possibly|probably|likely|unlikely|perhaps|presumably|apparently|suspect|guess|assum(?:e|ing)|seems?|appears? (?:to|that)|it appears|i think|i believe|not sure|hypothes[ie]s|let me|let's|i'll|i will|we'll|we need to|should|would|if|unless|whether|try|trying)\b/i;
/** "Create a frontend that reads …": a request in the imperative, not a finding. */
const IMPERATIVE =
  /^(?:please\s+)?(?:create|add|make|write|implement|build|fix|update|use|remove|change|set|put|move|rename|ensure|run|install|generate|refactor|convert)\s/i;
/**
 * "The failure only appears when …", "The error is coming from X": the error of the moment, never
 * named, so the sentence is a fragment of the one before it (a cause, "is that …", still counts).
 */
const UNNAMED_FAILURE =
  /^the (?:error|failure|issue|problem|bug|crash|exception)\s+(?:only\s+)?(?:(?:is|was)\s+)?(?:only\s+)?(?:coming|comes|came|occurs?|occurred|occurring|appears?|appeared|happens?|happened|happening)\s+(?:only\s+)?(?:when|if|in|from|at|on|with)\b/i;
/**
 * "The bash attempt reached WSL but failed because …", "The previous error was due to the edit
 * tool": what went wrong with one try, at that moment. A failed attempt is kept only as "Did not
 * work:" next to what worked (rulesAttempts), never as a fact.
 */
const MOMENT_FAILURE =
  /^(?:the|my|our|that|this)\s+(?:(?:previous|last|earlier|first|second|initial|above|same|\S+)\s+)?(?:attempt|try|retry|edit)s?\b|^the\s+(?:previous|last|earlier|first|initial|above)\s+(?:error|failure|run|command|build)\b/i;
/** A sentence whose subject is a bare pronoun says nothing on its own ("This fails because …"). */
const DEICTIC = /^(?:this|that|it|these|those|they|which|here)\b/i;
/** A later sentence saying a conclusion was wrong. */
const RETRACTION =
  /\b(?:that (?:wasn't|was not|isn't|is not) it|(?:wasn't|was not|isn't|is not) the (?:issue|problem|cause|culprit)|i was wrong|my (?:earlier|previous|initial) (?:analysis|assumption|diagnosis|guess)|the (?:real|actual) (?:cause|issue|problem|culprit)|on closer (?:inspection|look)|actually,)/i;
/** A person's reply that the failure is still there. */
const STILL_FAILING =
  /^(?:no\b|nope\b|that(?:'s| is) not it|that didn't|it didn't|it still|still (?:fail|broken|the same|not|doesn't|happening|getting|seeing|see)|same (?:error|issue|problem)|(?:the )?(?:same|new) error)/i;
const MAX_FINDING_CHARS = 240;
/** A paragraph that reasons about the request ("The user wants …", "Okay, let's tackle …") is thinking aloud. */
const THINKING_ALOUD = /\b(?:the user (?:wants|mentioned|asked|said|is asking)|okay, (?:let's|so)|hmm\b|wait,)/i;
/** Findings sharing this share of their words say the same thing; the first is kept. */
const SAME_FINDING = 0.5;

/** Whether a paragraph is an agent reasoning about the request rather than stating what it found. */
export function isThinkingAloud(paragraph: string): boolean {
  return THINKING_ALOUD.test(paragraph);
}

/**
 * "The plan does not cover …", "Three optional fields is not the best fit for …": a reviewer's
 * verdict on a proposal, which lasts only as long as the proposal does; not a fact of the code.
 */
const REVIEW_OPINION =
  /^(?:the\s+)?(?:plan|proposal|proposed\s+\w+|draft|pr|pull request|approach|design)\s+(?:does(?: not|n't)|is(?: not|n't)|lacks|misses|ignores|should|needs)\b|\bis(?: not|n't) the (?:best|right|ideal|most \w+) (?:fit|choice|approach|option)\b/i;

/** Whether a fact is a reviewer's verdict on a proposal rather than something found in the code. */
export function isReviewOpinion(statement: string): boolean {
  return REVIEW_OPINION.test(statement.trim());
}

/** The finding a sentence states, if it states one. */
export function findingOf(sentence: string): { statement: string; causal: boolean } | undefined {
  let text = sentence.trim().replace(OPENER, '');
  if (!text || text.endsWith('?') || text.endsWith(':') || text.length > MAX_FINDING_CHARS) return undefined;
  const turnsOut = TURNS_OUT.exec(text);
  if (turnsOut) text = turnsOut[1];
  const limitation = LIMITATION.exec(text);
  if (limitation && LIMITATION_OBJECT.test(limitation[1])) text = limitation[1];
  else if (limitation) return undefined;
  if (HEDGE.test(text) || DEICTIC.test(text) || VAGUE.test(text) || IMPERATIVE.test(text) || UNNAMED_FAILURE.test(text)) return undefined;
  if (MOMENT_FAILURE.test(text)) return undefined;
  const causal = CAUSAL.some((pattern) => pattern.test(text));
  if (!causal && !turnsOut && !limitation && !LOCATING.test(text)) return undefined;
  const statement = clean(text.charAt(0).toUpperCase() + text.slice(1)).replace(/[.!]+$/, '');
  return statement ? { statement, causal: causal || Boolean(turnsOut) || Boolean(limitation) } : undefined;
}

/** Whether a sentence announces that the next one states what was found. */
export function isDiscoveryAnnouncement(sentence: string): boolean {
  return DISCOVERY.test(sentence.trim());
}

/**
 * The finding stated right after an announcement ("Found it."), whatever its shape, if it is a
 * statement: not a hedge, a plan, a question or a bare pronoun's. Causal, so a later "that
 * wasn't it" takes it back.
 */
export function announcedFinding(sentence: string): { statement: string; causal: boolean } | undefined {
  const text = sentence.trim().replace(OPENER, '');
  if (!text || /[?:]$/.test(text) || text.length > MAX_FINDING_CHARS || text.split(/\s+/).length < MIN_FINDING_WORDS) return undefined;
  if (HEDGE.test(text) || DEICTIC.test(text) || VAGUE.test(text)) return undefined;
  const statement = clean(text.charAt(0).toUpperCase() + text.slice(1)).replace(/[.!]+$/, '');
  return statement ? { statement, causal: true } : undefined;
}

/** The sentences of a prose line. */
export function sentencesOf(line: string): string[] {
  return line
    .split(/(?<=[.!?])\s+(?=[A-Z`*"])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Drops the causal findings the conversation later takes back: a retraction in a later sentence
 * drops every causal finding before it; a person's "still fails" drops those of the agent turns
 * it answers.
 */
export function withoutRetracted(findings: Finding[], transcript: Transcript): Finding[] {
  const dropped = new Set<Finding>();
  let answeredFrom = 0;
  transcript.turns.forEach((turn, t) => {
    if (turn.role === 'user') {
      const first = turn.lines.find((line) => line.trim()) ?? '';
      if (STILL_FAILING.test(first.trim())) for (const f of findings) if (f.causal && f.turn >= answeredFrom && f.turn < t) dropped.add(f);
      answeredFrom = t + 1;
      return;
    }
    turn.lines.forEach((line, i) => {
      if (!RETRACTION.test(line)) return;
      for (const f of findings) if (f.causal && (f.turn < t || (f.turn === t && f.line < i))) dropped.add(f);
    });
  });
  const kept: Finding[] = [];
  for (const f of findings) if (!dropped.has(f) && !kept.some((k) => overlap(k.statement, f.statement) >= SAME_FINDING)) kept.push(f);
  return kept;
}

/** Share of words two statements have in common (Jaccard on lower-case words). */
function overlap(a: string, b: string): number {
  const wa = new Set(a.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const wb = new Set(b.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / Math.max(1, wa.size + wb.size - shared);
}
