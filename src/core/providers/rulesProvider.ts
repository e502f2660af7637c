/**
 * The offline, deterministic "provider": a simple marker extractor, not a language model. It is
 * the CLI's default so Lore works with no key and no network, and it only finds what people
 * wrote down explicitly (`Decision: …`, `TODO: …`, `- [x] …`, a user's question). See
 * docs/rules-provider.md for the full list of markers.
 */

import { ITEM_CATEGORIES, emptyItems, type HarvestItems } from '../knowledge/categories';
import type { ModelReply, ModelRequest, Provider } from './provider';
import { cancelledError } from './providerErrors';
import { clean, listItemText, matchMarker, questionOf, splitDetail, splitPlaybook, MAX_STEPS_CHARS } from './rulesMarkers';
import { readTranscript, type Transcript } from './rulesTranscript';

/** Longest unmarked first line of a user turn carried into a summary. */
const SUMMARY_FIRST_LINE_CHARS = 200;
/** Below this input size the summary is not squeezed further. */
const SUMMARY_SQUEEZE_MIN_INPUT = 2048;

/** What the extractor found, and which lines carried it (the summary keeps those lines). */
export interface RulesExtraction {
  items: HarvestItems;
  /** `turnIndex:lineIndex` of every line that contributed an item. */
  keptLines: Set<string>;
}

/**
 * The rules provider. For `harvest` it returns the seven-category JSON object; for `summarize`
 * an extractive summary: every marked line plus the first line of each user turn, under the
 * original turn headings, so a later harvest of the summary finds the same items.
 */
export class RulesProvider implements Provider {
  readonly name = 'rules';
  readonly label = 'rules (offline marker extractor, not a language model)';
  readonly offline = true;

  async generate(request: ModelRequest): Promise<ModelReply> {
    if (request.signal?.aborted) throw cancelledError(this.name);
    const transcript = readTranscript(request.content);
    const extraction = extractItems(transcript);
    const text =
      request.task === 'summarize'
        ? summarizeTranscript(transcript, extraction, request.content.length)
        : JSON.stringify(orderedItems(extraction.items), null, 2);
    if (request.signal?.aborted) throw cancelledError(this.name);
    return { text, model: 'rules' };
  }
}

/** Runs the marker rules over every turn. Deterministic: same transcript, same result. */
function extractItems(transcript: Transcript): RulesExtraction {
  const items = emptyItems();
  const keptLines = new Set<string>();
  const seen = new Set<string>();
  const add = <K extends keyof HarvestItems>(category: K, item: HarvestItems[K][number], key: string): void => {
    // Case and spacing differences are still the same item ("What's this?" / "what's this?").
    const id = `${category}\u0000${key.toLowerCase().replace(/\s+/g, ' ')}`;
    if (seen.has(id)) return;
    seen.add(id);
    (items[category] as HarvestItems[K][number][]).push(item);
  };
  transcript.turns.forEach((turn, t) => {
    const lines = turn.lines;
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].trim()) continue;
      const marker = matchMarker(lines[i]);
      if (!marker) {
        const question = turn.role === 'user' ? questionOf(lines[i]) : undefined;
        if (question) {
          keptLines.add(`${t}:${i}`);
          add('questions', { statement: question }, question);
        }
        continue;
      }
      keptLines.add(`${t}:${i}`);
      if (marker.kind === 'file') {
        add('files', { path: marker.path, note: marker.note }, `${marker.path}\u0000${marker.note}`);
      } else if (marker.kind === 'statement') {
        const item = marker.category === 'decisions' ? splitDetail(marker.text) : { statement: marker.text };
        if (item.statement) add(marker.category, item, item.statement);
      } else {
        const { name, steps } = splitPlaybook(marker.text);
        let allSteps = steps;
        if (!allSteps) {
          const list = collectList(lines, i + 1);
          list.indices.forEach((index) => keptLines.add(`${t}:${index}`));
          if (list.steps.length > 0) allSteps = clean(list.steps.join('; '), MAX_STEPS_CHARS);
          i = list.end - 1;
        }
        if (name && allSteps) add('playbooks', { name, steps: allSteps }, name);
      }
    }
  });
  return { items, keptLines };
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

/**
 * Marked lines and first user lines under their turn headings. When that is not well under the
 * input, the unmarked first lines go: the marked lines are what a later harvest needs.
 */
function summarizeTranscript(transcript: Transcript, extraction: RulesExtraction, inputLength: number): string {
  const build = (withFirstLines: boolean): string => {
    const out: string[] = [];
    if (transcript.title) out.push(`# ${transcript.title}`, '');
    transcript.turns.forEach((turn, t) => {
      const first = turn.role === 'user' && withFirstLines ? turn.lines.findIndex((line) => line.trim()) : -1;
      const kept: string[] = [];
      turn.lines.forEach((line, i) => {
        if (extraction.keptLines.has(`${t}:${i}`)) kept.push(line.trim());
        else if (i === first) kept.push(clean(line, SUMMARY_FIRST_LINE_CHARS));
      });
      if (kept.length === 0) return;
      if (turn.heading) out.push(turn.heading);
      out.push(...kept, '');
    });
    return out.join('\n').trimEnd() + '\n';
  };
  const full = build(true);
  if (inputLength < SUMMARY_SQUEEZE_MIN_INPUT || full.length * 2 <= inputLength) return full;
  return build(false);
}

/** The reply object with its keys in schema order, whatever order items were found in. */
function orderedItems(items: HarvestItems): HarvestItems {
  const ordered = {} as Record<string, unknown>;
  for (const category of ITEM_CATEGORIES) ordered[category] = items[category];
  return ordered as unknown as HarvestItems;
}
