/**
 * Work an answer reports done in the middle of a conversation is often not what the conversation
 * ended with: the person asks again ("use Plus Jakarta Sans instead", "make the diagram
 * simpler"), and the earlier change is replaced. The last answer says what stands. So work done
 * before the last request is kept only when it names what it changed (a file, a code span, an
 * identifier), it came in the last couple of requests, and no later request names that thing again. Trivia edits
 * (comments, debug logging, line breaks, formatting, colours) are never worth a line, wherever they are.
 */

import type { Transcript } from './rulesTranscript';

/**
 * `code spans`, file names (`update-paths.js`), paths (`src/main.py`), identifiers (`convertTocLinks`,
 * `PolychromeText`), product names (`ESLint`) and the files known without an extension (`README`,
 * `Makefile`). An acronym alone (TOC, PRD, API) is a kind of thing, not a name.
 */
const SUBJECT =
  /`([^`]+)`|(?:^|[\s(["'])((?:[\w@.-]+\/)*[\w@-]+\.[a-z][\w]{0,5})\b|\b([a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z]{2,}[a-z]+\w*|README|CHANGELOG|LICENSE|CONTRIBUTING|Makefile|Dockerfile|Justfile|Gemfile|Procfile)\b/g;
/** A code span that is a value or a phrase rather than a name ("`>=20.0.0`", "`Update paths`"). */
const NOT_A_NAME = /^[^\p{L}]*$|\s/u;

/**
 * An edit nobody needs to remember: code comments, doc comments added "for clarity", a debug log,
 * a line break, formatting, whitespace, typos. A file created or a behaviour changed is not trivia,
 * so only the statement's object is looked at (what comes right after the verb).
 */
const TRIVIA =
  /^(?:(?:added|updated|improved|removed|adjusted|simplified|reduced|rewrote|wrote|fixed|corrected)\s+(?:\S+\s+){0,3}?(?:comments?|inline comments?|explanatory comments?|console\.?log|console logs?|log(?:ging)? statements?|debug(?:ging)? (?:logs?|logging|output|statements?)|print statements?|a `?<br>`? tag|line breaks?|blank lines?|whitespace|indentation|formatting|typos?)\b|(?:\S+\s+){0,4}?(?:comments?|console logs?|logging|formatting|typos?)\s+(?:was|were)\s+(?:added|updated|fixed|removed)\b)/i;
/** "Updated the diagram with a darker colour palette": a look that the file shows, not a decision (a font chosen is one). */
const STYLE_ONLY =
  /^(?:updated|changed|adjusted|tweaked|made|recolou?red|restyled)\b[^.;:]*?\b(?:colou?rs?|colou?r (?:palette|scheme)|palette|border colou?rs?|shadows?|padding|margins?|opacity)\b/i;
/** "Made the following changes …", "Made several improvements to …": a heading that announces a list, naming nothing. */
const ANNOUNCES_LIST =
  /^(?:made|applied|implemented|added)\s+(?:the\s+following|several|some|a\s+few|various|multiple|these|a\s+number\s+of)\b(?:\s+\w+)?(?:\s+(?:changes?|improvements?|updates?|adjustments?|fixes|simplifications?|enhancements?))?/i;

/** Whether a done statement is a trivia edit or a heading that names nothing. */
export function isTrivialDone(statement: string): boolean {
  const text = statement.trim();
  return TRIVIA.test(text) || STYLE_ONLY.test(text) || ANNOUNCES_LIST.test(text);
}

/** The names a statement mentions: files, paths, identifiers, code spans that are names. */
export function namedSubjects(statement: string): string[] {
  const names = new Set<string>();
  for (const match of statement.matchAll(SUBJECT)) {
    const name = (match[1] ?? match[2] ?? match[3] ?? '').trim().replace(/[.,;:]+$/, '');
    if (name.length >= 3 && !NOT_A_NAME.test(name)) names.add(name.toLowerCase());
  }
  return [...names];
}

/**
 * How many requests may follow work done before it is too far from the end to trust: each request
 * after it is one more chance that it was reworked, and a long tail of requests usually reworks it.
 */
const MAX_LATER_REQUESTS = 2;

/**
 * Whether work reported done in turn `turn` may have been replaced later: it names nothing a
 * reader could check, more than a couple of requests followed it, or a later request of the
 * person's names the same thing again.
 */
export function mayBeSuperseded(statement: string, turn: number, transcript: Transcript): boolean {
  const names = namedSubjects(statement);
  if (names.length === 0) return true;
  const laterRequests = transcript.turns.filter((later, t) => t > turn && later.role === 'user');
  if (laterRequests.length > MAX_LATER_REQUESTS) return true;
  return laterRequests.some((later) => later.lines.some((line) => names.some((name) => line.toLowerCase().includes(name))));
}

/** "let's use Plus Jakarta Sans instead", anywhere in a request: the person settling a choice. */
const LATER_CHOICE =
  /\blet'?s\s+(?:just\s+)?(use|go with|switch to|keep|stick with|stay with|call|name|rename|store|put|move|default to|adopt)\b/gi;

/**
 * Whether the choice a person settled in turn `turn` ("Use Graphik font instead") is settled again
 * by a later request with the same verb ("okay I don't have a licence, let's use Plus Jakarta Sans
 * instead"): the later one stands, the earlier one is history.
 */
export function isChoiceReplaced(choice: string, turn: number, transcript: Transcript): boolean {
  const verb = /^(?:go with|switch to|stick with|stay with|default to|\w+)/i.exec(choice.trim())?.[0].toLowerCase();
  if (!verb) return false;
  return transcript.turns.some(
    (later, t) =>
      t > turn &&
      later.role === 'user' &&
      later.lines.some((line) => [...line.matchAll(LATER_CHOICE)].some((match) => match[1].toLowerCase() === verb)),
  );
}
