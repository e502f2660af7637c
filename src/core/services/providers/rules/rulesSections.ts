/**
 * The section rules of the rules extractor. People and agents structure what they want kept:
 * a list under "Key decisions" is a list of decisions whoever wrote it, a "Summary" after the
 * last request says what was done, a list of `commands` under "Justfile" is a playbook. These
 * rules read the heading or bold label line above a list, and the few sentence shapes in which a
 * person states a rule or a convention for the project.
 */

/** What the list under a heading holds. */
export type SectionKind = 'decisions' | 'facts' | 'summary' | 'commands';

/** A heading or a bold label line alone on its line. */
export interface SectionHeading {
  /** 1–6 for `#` headings; bold labels rank below every `#` heading. */
  level: number;
  text: string;
}

/** The level of a bold label line (`**Summary:**`), below every `#` heading. */
export const LABEL_LEVEL = 7;

const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BOLD_LABEL = /^\s{0,3}(?:\*\*|__)([^*_]+?)(?:\*\*|__)\s*[:：]?\s*(?:\*\*|__)?\s*$/;
const TOP_LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+(.*)$/;
const COMMAND_ITEM = /^`[^`]+`/;
/** "`dev`: Start development server": a script's bare name, read off package.json, is not a command to type. */
const SCRIPT_NAME_ITEM = /^`[\w:.-]+`/;

/** Checked in order: "Key findings summary" is findings, not a summary of work done. */
const KINDS: ReadonlyArray<readonly [SectionKind, RegExp]> = [
  ['facts', /\b(?:findings|facts|learned|lessons learned|gotchas|what we found)\b/i],
  ['decisions', /\b(?:decisions?|decided|design choices|trade-?offs|adaptations)\b/i],
  ['commands', /\b(?:commands|justfile|makefile|npm scripts|how to run)\b/i],
  [
    'summary',
    /^(?:final\s+)?summary$|^summary of (?:the )?(?:changes|work|fix(?:es)?)\b|^(?:key |main )?(?:\w+ )?(?:changes|work)(?: made| done)?$|^what (?:i|we) (?:changed|fixed)\b|^(?:主要改动|变更要点|处理措施|修改内容)/i,
  ],
];
/** A list of commands that were checked or reviewed is a report, not a playbook. */
const NOT_A_PLAYBOOK = /\b(?:validation|validated|review|checked|analysis)\b/i;

/** `**Summary:** text`: the text is the summary. */
const INLINE_SUMMARY = /^(?:\*\*|__)?summary(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(\S.*)$/i;
/** `Done. I've added:` announces a list of what was done. */
const DONE_INTRO = /^done[.!]\s+.*:\s*$/i;
/** "create a rule that says …": the person states the rule in the request. */
const RULE_REQUEST =
  /\b(?:create|write|add|make)\s+(?:a\s+)?(?:new\s+)?(?:cursor\s+)?rule\s+(?:that|which)\s+(?:says|specifies|states|requires|enforces)\s+(?:that\s+)?(\S.{9,})$/i;
/** "add markdown conventions to CONVENTIONS.md" opens a turn whose following lines are the conventions. */
const CONVENTIONS_REQUEST = /^(?:please\s+)?(?:add|write|create|document)\b.*\b(?:conventions?|guidelines?)\b/i;
/** "ok, let's just rename X to Y": a person settling a choice; verbs of trying or looking are not one. */
const LETS_DECIDE =
  /^(?:(?:ok(?:ay)?|yes|alright|fine|great)[,.!]?\s+)?(?:let'?s|let us)\s+(?:just\s+)?((?:rename|use|go with|keep|switch to|move|drop|remove|call|name|stick with|store|put|default to|adopt|stay with)\b.{3,})$/i;
/** A list item led by a bold caveat label states a fact about the system: `**CLI Limitation:** X`. */
const CAVEAT_ITEM = /^\*\*([^*]*\b(?:limitation|gotcha|caveat)s?)\s*:?\*\*\s*:?\s*(\S.*)$/i;
/** `Done. X`: the closing sentence of an answer, a summary when there is no other. */
const DONE_SENTENCE = /^done[.!]\s+(\S.*[^:\s])\s*$/i;
/** "X will be done": a summary in the future tense is a plan, not work done. */
const PLANNED = /\b(?:will|going to|shall|is to be|are to be)\b/i;
/** "Add a `--all` option": a summary item in the imperative is a step still to take. */
const IMPERATIVE_STEP =
  /^(?:add|update|create|implement|remove|fix|write|refactor|move|change|make|ensure|introduce|extend|rename|replace)\s/i;
/** A stated convention has a few words at least; "CONVENTIONS.md" alone is not one. */
const MIN_CONVENTION_WORDS = 4;

/** The heading or bold label a line is, if it is one. */
export function sectionHeading(line: string): SectionHeading | undefined {
  const heading = HEADING.exec(line);
  if (heading) return { level: heading[1].length, text: headingText(heading[2]) };
  const label = BOLD_LABEL.exec(line);
  return label ? { level: LABEL_LEVEL, text: headingText(label[1]) } : undefined;
}

/** What the list under a heading holds, if anything worth keeping. */
export function classifySection(text: string): SectionKind | undefined {
  for (const [kind, pattern] of KINDS) {
    if (!pattern.test(text)) continue;
    return kind === 'commands' && NOT_A_PLAYBOOK.test(text) ? undefined : kind;
  }
  return undefined;
}

/** The text of a top-level list item (nested items are details of their parent). */
export function topListItem(line: string): string | undefined {
  return TOP_LIST_ITEM.exec(line)?.[1];
}

/** Whether a list item starts with a command in backticks. */
export function isCommandItem(text: string): boolean {
  return COMMAND_ITEM.test(text.trim());
}

/**
 * Whether the commands of a list are all bare script names (`dev`, `build`, `lint`): an inventory
 * of what package.json offers, the same in every app, not a procedure anyone worked out.
 */
export function isScriptInventory(commands: string[]): boolean {
  return commands.length > 0 && commands.every((command) => SCRIPT_NAME_ITEM.test(command.trim()));
}

/** The text of `**Summary:** text`, if the line is one. */
export function inlineSummary(body: string): string | undefined {
  return INLINE_SUMMARY.exec(body)?.[1];
}

/** Whether the line announces a list of what was done. */
export function isDoneIntro(body: string): boolean {
  return DONE_INTRO.test(body.trim());
}

/** The rule stated in a request to create one, if the line is such a request. */
export function ruleOfRequest(body: string): string | undefined {
  const rule = RULE_REQUEST.exec(body)?.[1];
  return rule ? capitalize(rule) : undefined;
}

/** Whether a summary line describes work still to be done. */
export function isPlanned(text: string): boolean {
  return PLANNED.test(text) || IMPERATIVE_STEP.test(text.trim());
}

/** The choice a person settles with "let's just …", if the line is one. */
export function decisionOfLets(body: string): string | undefined {
  const choice = LETS_DECIDE.exec(body.trim())?.[1];
  return choice ? capitalize(choice.replace(/[.!]+$/, '')) : undefined;
}

/** The fact a list item led by a bold caveat label states (its first sentence), if it is one. */
export function caveatOfItem(item: string): string | undefined {
  const caveat = CAVEAT_ITEM.exec(item.trim());
  return caveat ? `${caveat[1].trim()}: ${firstSentence(caveat[2])}` : undefined;
}

/** The sentence after `Done.` that closes an answer, if the line is one. */
export function doneSentence(body: string): string | undefined {
  return DONE_SENTENCE.exec(body.trim())?.[1];
}

/** Whether a person's line asks to add conventions that the following lines state. */
export function isConventionsRequest(body: string): boolean {
  return CONVENTIONS_REQUEST.test(body.trim());
}

/** Whether a line following a conventions request is long enough to be a convention. */
export function isConventionLine(body: string): boolean {
  return body.trim().split(/\s+/).length >= MIN_CONVENTION_WORDS;
}

/**
 * The first sentence of a summary, without the speaker: "I ported X to Rust with the
 * following:" is "Ported X to Rust".
 */
export function summarySentence(text: string): string {
  const sentence = text
    .replace(/^(?:i(?:'ve| have)?|we(?:'ve| have)?)\s+(?:successfully\s+)?/i, '')
    .replace(/[\s,]*(?:with|as|including)?\s*(?:the\s+)?follow(?:ing|s)\s*:?\s*$/i, '')
    .replace(/[:.]\s*$/, '');
  return capitalize(sentence);
}

/** Inline bold goes: `**Location**: x` is kept as `Location: x` (underscores stay: `__init__`, `__store.db`). */
export function withoutEmphasis(text: string): string {
  return text.replace(/\*\*/g, '');
}

function firstSentence(text: string): string {
  const end = /[.!?](?=\s+[A-Z])/.exec(text);
  return end ? text.slice(0, end.index + 1) : text;
}

function headingText(raw: string): string {
  // Emoji and emphasis decorate headings ("### 🚀 **Key Features**"); the words classify them.
  return raw
    .replace(/[*_`]/g, '')
    .replace(/[^\p{L}\p{N}\s&'’-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
