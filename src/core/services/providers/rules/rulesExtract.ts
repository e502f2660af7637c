/**
 * The rules extractor proper: runs the marker rules (rulesMarkers) and the section rules
 * (rulesSections) over a transcript's turns. Precision first: it takes what people wrote down to
 * be kept (markers, key decisions, findings, the final summary, a stated rule), never tool lines,
 * code, quotes or file edits (rulesTranscript blanks those), never an agent's plan checklist, and
 * no longer every question a user asked: a question to an agent is a request, not knowledge.
 */

import { emptyItems, type HarvestItems } from '../../../model/categories';
import { clean, listItemText, matchMarker, splitDetail, splitPlaybook, stripLead, MAX_STEPS_CHARS } from './rulesMarkers';
import {
  caveatOfItem,
  classifySection,
  decisionOfLets,
  doneSentence,
  inlineSummary,
  isCommandItem,
  isConventionLine,
  isConventionsRequest,
  isDoneIntro,
  isPlanned,
  isScriptInventory,
  ruleOfRequest,
  sectionHeading,
  summarySentence,
  topListItem,
  withoutEmphasis,
  LABEL_LEVEL,
  type SectionKind,
} from './rulesSections';
import type { Transcript, TranscriptTurn } from './rulesTranscript';
import { agreedDecisions } from './rulesAgreement';
import { attemptsOf } from './rulesAttempts';
import { addressesPerson, conclusionTurns, doneWithList, doneWorkOf, isStatedDone, isWorthKeepingDone } from './rulesConclusions';
import {
  announcedFinding,
  findingOf,
  isDiscoveryAnnouncement,
  isReviewOpinion,
  isThinkingAloud,
  sentencesOf,
  withoutRetracted,
  type Finding,
} from './rulesFindings';
import { isMachineState, isNoiseStatement, isOutputLine, pastedTurns, withoutLocalLinks } from './rulesNoise';
import { isChoiceReplaced, isTrivialDone, mayBeSuperseded } from './rulesSuperseded';

/** What the extractor found, and which lines carried it (the summary keeps those lines). */
export interface RulesExtraction {
  items: HarvestItems;
  /** `turnIndex:lineIndex` of every line that contributed an item, and of the headings above them. */
  keptLines: Set<string>;
  /**
   * The items no one marked to be kept (`Decision: …`): what the rules read into prose. They go to
   * the review queue for a person to confirm, not straight into the store.
   */
  inferred: Set<object>;
}

/** The section a line is in: the last classified heading above it in the turn. */
interface Section {
  kind: SectionKind;
  level: number;
  /** The heading's line index and text (a commands list becomes a playbook named by it). */
  headingIndex: number;
  name: string;
  /** A list was seen; for a bold label, prose after it ends the section. */
  sawList: boolean;
  /** The summary's first prose line was taken. */
  tookProse: boolean;
  commands: string[];
}

/** `marked`: a person or agent wrote a marker (`Decision: …`) to have this kept. */
type Add = <K extends keyof HarvestItems>(category: K, item: HarvestItems[K][number], key: string, marked?: boolean) => void;

/** Runs every rule over every turn. Deterministic: same transcript, same result. */
export function extractItems(transcript: Transcript): RulesExtraction {
  const items = emptyItems();
  const keptLines = new Set<string>();
  const inferred = new Set<object>();
  const seen = new Set<string>();
  // Done work a summary offered, kept or not: when a list said what was done, a closing sentence adds nothing.
  let doneOffered = 0;
  // The turn being read when it comes before the last request: its work done may have been replaced since.
  let earlierTurn: number | undefined;
  const add: Add = (category, item, key, marked) => {
    if (category === 'tasks_done') doneOffered++;
    // Output, bare links and script steps are never knowledge, whichever rule found them.
    const withStatement = item as { statement?: string };
    // "[.gitignore](/Users/me/app/.gitignore)": the file's name is the knowledge, its place on one machine is not.
    if (withStatement.statement !== undefined) withStatement.statement = withoutLocalLinks(withStatement.statement);
    const statement = withStatement.statement;
    if (statement !== undefined && isNoiseStatement(statement, marked)) return;
    // "Your setup is working", "Your MacBook crashed": about the person's machine, not the project.
    if (statement !== undefined && !marked && (category === 'facts' || category === 'tasks_done') && addressesPerson(statement)) return;
    // "764 session files on this system": a condition of one machine that day.
    if (statement !== undefined && !marked && isMachineState(statement)) return;
    if (statement !== undefined && !marked && category === 'facts' && isReviewOpinion(statement)) return;
    if (statement !== undefined && !marked && category === 'tasks_done') {
      if (!isWorthKeepingDone(statement) || isTrivialDone(statement)) return;
      if (earlierTurn !== undefined && mayBeSuperseded(statement, earlierTurn, transcript)) return;
    }
    // Case and spacing differences are still the same item.
    const id = `${category}\u0000${key.toLowerCase().replace(/\s+/g, ' ')}`;
    if (seen.has(id)) return;
    seen.add(id);
    (items[category] as unknown[]).push(item);
    if (!marked) inferred.add(item);
  };
  // A summary is final when no request follows it: earlier ones describe plans or steps.
  let lastUser = -1;
  transcript.turns.forEach((turn, t) => {
    if (turn.role === 'user') lastUser = t;
  });
  const doneBefore = doneOffered;
  let closing: { statement: string; line: string } | undefined;
  // A pasted spec, document or log is nobody's knowledge: its checklists are not tasks, its links not decisions.
  const pasted = pastedTurns(transcript);
  const findings: Finding[] = [];
  const conclusions = conclusionTurns(transcript);
  transcript.turns.forEach((turn, t) => {
    if (pasted.has(t)) return;
    const keep = (index: number): void => {
      keptLines.add(`${t}:${index}`);
    };
    const finding = (statement: string, causal: boolean, line: number): void => {
      findings.push({ statement, causal, turn: t, line });
    };
    const finalAgent = turn.role === 'agent' && t > lastUser;
    earlierTurn = finalAgent ? undefined : t;
    const doneBeforeTurn = doneOffered;
    const closes = conclusions.has(t);
    const choiceReplaced = (choice: string): boolean => isChoiceReplaced(choice, t, transcript);
    const found = extractTurn(turn, { add, keep, finding, finalAgent, conclusion: finalAgent || closes, closes, choiceReplaced });
    if (found.closing) closing ??= { statement: found.closing.statement, line: `${t}:${found.closing.index}` };
    // "I've updated X to Y" closes an answer that has no summary list of its own.
    if (found.done && doneOffered === doneBeforeTurn) {
      [found.done.index, ...(found.done.listed ?? [])].forEach(keep);
      add('tasks_done', { statement: found.done.statement }, found.done.statement);
    }
  });
  earlierTurn = undefined;
  for (const f of withoutRetracted(findings, transcript)) {
    keptLines.add(`${f.turn}:${f.line}`);
    add('facts', { statement: f.statement }, f.statement);
  }
  for (const agreed of agreedDecisions(transcript, pasted)) {
    agreed.lines.forEach((line) => keptLines.add(line));
    add('decisions', { statement: agreed.statement }, agreed.statement);
  }
  for (const attempt of attemptsOf(transcript)) {
    attempt.lines.forEach((line) => keptLines.add(line));
    add('playbooks', { name: attempt.name, steps: `\`${attempt.worked}\`` }, attempt.name);
    const statement = `Did not work: \`${attempt.failed}\` (\`${attempt.worked}\` did)`;
    add('facts', { statement }, statement);
  }
  // "Done. I read X, changed it and committed." closes an answer that has no summary of its own.
  if (closing && doneOffered === doneBefore) {
    keptLines.add(closing.line);
    add('tasks_done', { statement: closing.statement }, closing.statement);
  }
  return { items, keptLines, inferred };
}

interface TurnContext {
  add: Add;
  keep: (index: number) => void;
  /** Records a finding stated in prose; kept unless the conversation takes it back later. */
  finding: (statement: string, causal: boolean, line: number) => void;
  /** An agent turn after the last user turn: its summaries are the conversation's outcome. */
  finalAgent: boolean;
  /** An agent turn whose summaries are a request's outcome: a final one, or one that closes a request. */
  conclusion: boolean;
  /** The agent's last turn before the person speaks again (or the last one): where it says what it did. */
  closes: boolean;
  /** Whether a later request of the person's settles the same kind of choice again ("let's use X instead"). */
  choiceReplaced: (choice: string) => boolean;
}

/** A sentence found in a turn, and its line. */
interface Found {
  statement: string;
  index: number;
  /** The lines of the list the statement took in, for a summary to keep with it. */
  listed?: number[];
}

/**
 * Runs the rules over one turn; returns the final answer's `Done. …` sentence and a concluding
 * turn's first "I've updated …" sentence, kept in reserve for when no summary list says more.
 */
function extractTurn(turn: TranscriptTurn, ctx: TurnContext): { closing?: Found; done?: Found } {
  const { add, keep } = ctx;
  let closing: Found | undefined;
  let done: Found | undefined;
  // Plain text without turn headings is read as one user turn: a person's notes.
  const person = turn.role === 'user';
  const lines = turn.lines;
  let section: Section | undefined;
  let conventions = false;
  const closeSection = (): void => {
    if (section?.kind === 'commands' && section.commands.length > 0 && !isScriptInventory(section.commands)) {
      add('playbooks', { name: section.name, steps: clean(section.commands.join('; '), MAX_STEPS_CHARS) }, section.name);
      keep(section.headingIndex);
    }
    section = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim() || isOutputLine(stripLead(line))) continue;
    const marker = matchMarker(line);
    if (marker && !(marker.kind === 'statement' && marker.peopleOnly && !person)) {
      keep(i);
      if (marker.kind === 'file') {
        add('files', { path: marker.path, note: marker.note }, `${marker.path}\u0000${marker.note}`, true);
      } else if (marker.kind === 'statement') {
        const item = marker.category === 'decisions' ? splitDetail(marker.text) : { statement: marker.text };
        if (item.statement) add(marker.category, item, item.statement, true);
      } else {
        i = addPlaybook(marker.text, lines, i, add, keep);
      }
      continue;
    }
    if (marker) continue;
    const body = stripLead(line);
    if (person) {
      const rule = ruleOfRequest(body);
      if (rule) {
        keep(i);
        add('decisions', { statement: clean(rule) }, rule);
        continue;
      }
      if (isConventionsRequest(body)) {
        conventions = true;
        continue;
      }
      const choice = decisionOfLets(body);
      if (choice && !ctx.choiceReplaced(choice)) {
        keep(i);
        add('decisions', { statement: clean(choice) }, choice);
        continue;
      }
      if (conventions && isConventionLine(body)) {
        keep(i);
        add('decisions', { statement: clean(body) }, body);
        continue;
      }
    }
    if (ctx.conclusion) {
      // "2. **Summary**: …" in a list is a field of something described (a commit message), not this answer's summary.
      const summary = topListItem(line) === undefined ? inlineSummary(body) : undefined;
      if (summary && !isPlanned(summary) && (ctx.finalAgent || isStatedDone(summary))) {
        keep(i);
        add('tasks_done', { statement: clean(withoutEmphasis(summary)) }, summary);
        continue;
      }
      if (isDoneIntro(body)) {
        closeSection();
        section = newSection('summary', LABEL_LEVEL + 1, i, body);
        section.tookProse = true;
        continue;
      }
      const doneLine = ctx.finalAgent ? doneSentence(body) : undefined;
      if (doneLine && !closing) {
        const statement = clean(summarySentence(withoutEmphasis(doneLine)));
        if (statement) closing = { statement, index: i };
      }
      if (ctx.closes && !done && topListItem(line) === undefined && !sectionHeading(line)) {
        const sentences = sentencesOf(withoutEmphasis(body));
        const list = collectList(lines, i + 1);
        const listed = doneWithList(sentences[sentences.length - 1] ?? '', list.steps);
        if (listed) done = { statement: listed, index: i, listed: list.indices };
        for (const sentence of listed ? [] : sentences) {
          const statement = doneWorkOf(sentence);
          if (statement) {
            done = { statement, index: i };
            break;
          }
        }
      }
    }
    const heading = sectionHeading(line);
    if (heading) {
      const kind = classifySection(heading.text);
      // A plain subheading inside findings or decisions ("### Session format") continues them.
      if (!kind && section && heading.level > section.level && (section.kind === 'facts' || section.kind === 'decisions')) continue;
      closeSection();
      if (kind) section = newSection(kind, heading.level, i, heading.text);
      continue;
    }
    const item = topListItem(line);
    const caveat = item === undefined ? undefined : caveatOfItem(item);
    if (caveat) {
      keep(i);
      add('facts', { statement: clean(caveat) }, caveat);
      continue;
    }
    // Prose, and list items outside a section that takes them, may state a finding.
    if (!(section && item !== undefined) && !isThinkingAloud(body)) {
      let announced = false;
      for (const sentence of sentencesOf(withoutEmphasis(body))) {
        // "Found it. The CLI has a hidden --cloud-url flag …": what follows the announcement is the finding.
        const found = findingOf(sentence) ?? (announced ? announcedFinding(sentence) : undefined);
        if (found) ctx.finding(found.statement, found.causal, i);
        announced = isDiscoveryAnnouncement(sentence);
      }
    }
    if (!section) continue;
    if (item === undefined) {
      if (section.level >= LABEL_LEVEL && section.sawList) closeSection();
      else if (section.kind === 'summary' && ctx.conclusion && !section.tookProse) {
        section.tookProse = true;
        const sentence = clean(summarySentence(withoutEmphasis(body)));
        if (sentence && !isPlanned(sentence) && (ctx.finalAgent || isStatedDone(sentence))) {
          keep(section.headingIndex);
          keep(i);
          add('tasks_done', { statement: sentence }, sentence);
        }
      }
      continue;
    }
    section.sawList = true;
    addSectionItem(section, item, i, ctx);
  }
  closeSection();
  return { closing, done };
}

function newSection(kind: SectionKind, level: number, headingIndex: number, name: string): Section {
  return { kind, level, headingIndex, name: clean(name), sawList: false, tookProse: false, commands: [] };
}

function addSectionItem(section: Section, raw: string, index: number, ctx: TurnContext): void {
  const text = clean(withoutEmphasis(raw));
  if (!text) return;
  if (section.kind === 'commands') {
    if (isCommandItem(raw)) section.commands.push(text);
    ctx.keep(index);
    return;
  }
  // Before the last request, only items stated as done work are a summary: the others may be a plan.
  if (section.kind === 'summary' && (!ctx.conclusion || isPlanned(text) || (!ctx.finalAgent && !isStatedDone(text)))) return;
  ctx.keep(section.headingIndex);
  ctx.keep(index);
  if (section.kind === 'facts') ctx.add('facts', { statement: text }, text);
  else if (section.kind === 'decisions') ctx.add('decisions', { statement: text }, text);
  else ctx.add('tasks_done', { statement: text }, text);
}

/** A `Playbook:` marker: steps inline, or the list right after a name-only line. Returns the last line used. */
function addPlaybook(text: string, lines: string[], i: number, add: Add, keep: (index: number) => void): number {
  const { name, steps } = splitPlaybook(text);
  let allSteps = steps;
  let last = i;
  if (!allSteps) {
    const list = collectList(lines, i + 1);
    list.indices.forEach(keep);
    if (list.steps.length > 0) allSteps = clean(list.steps.join('; '), MAX_STEPS_CHARS);
    last = list.end - 1;
  }
  if (name && allSteps) add('playbooks', { name, steps: allSteps }, name, true);
  return last;
}

/** The list right after a name-only `Playbook:` line (blank lines before it are allowed). */
function collectList(lines: string[], start: number): { steps: string[]; indices: number[]; end: number } {
  let index = start;
  while (index < lines.length && !lines[index].trim()) index++;
  const steps: string[] = [];
  const indices: number[] = [];
  for (; index < lines.length; index++) {
    const step = listItemText(lines[index]);
    if (!step) break;
    steps.push(step);
    indices.push(index);
  }
  return steps.length > 0 ? { steps, indices, end: index } : { steps, indices, end: start };
}
