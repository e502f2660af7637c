/**
 * The offline, deterministic "provider": a rule-based extractor, not a language model. It is
 * the CLI's default so Lore works with no key and no network, and it only finds what people
 * wrote down to be kept (`Decision: …`, `TODO: …`, a list under "Key decisions", the final
 * summary; rulesExtract.ts). See docs/rules-provider.md for the full list of rules.
 */

import { ITEM_CATEGORIES, type HarvestItems } from '../../../model/categories';
import type { ModelReply, ModelRequest, Provider } from '../provider';
import { cancelledError } from '../providerErrors';
import { extractItems, type RulesExtraction } from './rulesExtract';
import { clean } from './rulesMarkers';
import { readTranscript, type Transcript } from './rulesTranscript';

/** Longest unmarked first line of a user turn carried into a summary. */
const SUMMARY_FIRST_LINE_CHARS = 200;
/** Below this input size the summary is not squeezed further. */
const SUMMARY_SQUEEZE_MIN_INPUT = 2048;

/**
 * The rules provider. For `harvest` it returns the seven-category JSON object; for `summarize`
 * an extractive summary: every marked line plus the first line of each user turn, under the
 * original turn headings, so a later harvest of the summary finds the same items.
 */
export class RulesProvider implements Provider {
  readonly name = 'rules';
  readonly label = 'the offline extractor (marked lines, stated findings, agreed choices, work reported done; no model, nothing sent)';
  readonly offline = true;

  async generate(request: ModelRequest): Promise<ModelReply> {
    if (request.signal?.aborted) throw cancelledError(this.name);
    const transcript = readTranscript(request.content);
    // A summarize chunk without any turn heading was cut from inside one long turn, whoever's:
    // unlike a plain notes file, it is not known to be a person's words.
    if (request.task === 'summarize' && !transcript.hasHeadings) for (const turn of transcript.turns) turn.role = 'preamble';
    const extraction = extractItems(transcript);
    const text =
      request.task === 'summarize'
        ? summarizeTranscript(transcript, extraction, request.content.length)
        : JSON.stringify(orderedItems(extraction), null, 2);
    if (request.signal?.aborted) throw cancelledError(this.name);
    return { text, model: 'rules' };
  }
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
        // A kept tool line (a command that replaced a failed one) is blank among the prose lines.
        if (extraction.keptLines.has(`${t}:${i}`)) kept.push(line.trim() || (turn.tools.find((tool) => tool.index === i)?.raw ?? ''));
        else if (i === first) kept.push(clean(line, SUMMARY_FIRST_LINE_CHARS));
      });
      // User headings stay even when empty: which summary is final depends on where requests are.
      if (kept.length === 0 && turn.role !== 'user') return;
      if (turn.heading) out.push(turn.heading);
      if (kept.length > 0) out.push(...kept, '');
    });
    return out.join('\n').trimEnd() + '\n';
  };
  const full = build(true);
  if (inputLength < SUMMARY_SQUEEZE_MIN_INPUT || full.length * 2 <= inputLength) return full;
  return build(false);
}

/**
 * The reply object with its keys in schema order, whatever order items were found in; an item no
 * one marked carries `"inferred": true` (the harvest holds it for review).
 */
function orderedItems({ items, inferred }: RulesExtraction): HarvestItems {
  const ordered = {} as Record<string, unknown>;
  for (const category of ITEM_CATEGORIES)
    ordered[category] = (items[category] as object[]).map((item) => (inferred.has(item) ? { ...item, inferred: true } : item));
  return ordered as unknown as HarvestItems;
}
