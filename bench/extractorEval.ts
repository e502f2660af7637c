/**
 * `npm run eval:extractor`: the offline rules extractor's precision and recall on a hand-labelled
 * set of real conversations (test/fixtures/extractor/*.expected.json). Each label file names its
 * conversation (a raw session file, rendered here with the importers, exactly as a harvest would)
 * and the items a careful reader would keep. Deterministic: no clock, no network, no model.
 *
 *   node out/bench/extractorEval.js              the table, per tool and overall
 *   node out/bench/extractorEval.js --verbose    also every missed label and every unmatched item
 *   node out/bench/extractorEval.js --judge      prints every unjudged item as JSON, to judge and paste
 *   node out/bench/extractorEval.js --render DIR writes each rendered transcript and its items to DIR
 *
 * An extracted item is CORRECT when it matches a label (word overlap, below) or when a person
 * judged its exact text `keep` (pooled judgments: a label says it in the labeller's words, and a
 * correct item phrased otherwise would otherwise count as wrong). An item judged `wrong`, or not
 * judged at all, counts wrong; the unjudged ones are reported, so nobody gains by not judging.
 * Besides precision and recall it reports YIELD, the share of conversations worth keeping that
 * gave at least one correct item (a silent extractor has perfect precision and no yield), and
 * NOISE, the items taken from conversations where a careful reader keeps nothing (pasted
 * documents, logs, plain questions): the figure that should stay 0.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importConversation } from '../src/core/services/conversations/detect';
import { renderTranscript } from '../src/core/services/conversations/renderTranscript';
import { ITEM_CATEGORIES, type HarvestItems, type ItemCategory } from '../src/core/model/categories';
import { RulesProvider } from '../src/core/services/providers/rules/rulesProvider';

/** An item matches a label of the same category when their word sets overlap this much (Jaccard). */
export const MATCH_JACCARD = 0.5;

/** One item a careful reader would keep, with the labeller's reason. */
export interface LabelledItem {
  category: ItemCategory;
  text: string;
  reason: string;
}

/** One labelled conversation. */
export interface LabelledConversation {
  name: string;
  /** claude-code, codex, aider, specstory, copilot … */
  tool: string;
  /** The conversation file, relative to the repository root. */
  conversation: string;
  source: string;
  license: string;
  /** Labelled before the rules were last changed, and not looked at while changing them. */
  heldOut?: boolean;
  /**
   * Whether a careful reader keeps anything from it (a decision, a discovered fact, a working
   * command, work done or left). Absent in older label files: then it is whether it has labels.
   */
  worthKeeping?: boolean;
  items: LabelledItem[];
  /** Items the extractor produced, judged one by one by a person (exact category and text). */
  judged?: JudgedItem[];
}

/**
 * A person's verdict on one item the extractor produced. `keep`: true per the conversation,
 * still true and useful next week, useful to a teammate or an agent, in the right category;
 * `wrong`: anything else (a plan, a hypothesis, tool output, trivia, a request, a duplicate).
 */
export interface JudgedItem {
  category: ItemCategory;
  text: string;
  verdict: 'keep' | 'wrong';
  reason: string;
}

/** How one extracted item is scored: it matched a label, was judged keep or wrong, or was not judged. */
export type ItemVerdict = 'label' | 'keep' | 'wrong' | 'unjudged';

/** Counts for one group of conversations. */
export interface Score {
  conversations: number;
  labels: number;
  extracted: number;
  /** Items that matched a label (recall counts these). */
  matched: number;
  /** Items that matched no label but were judged keep. */
  judgedKeep: number;
  /** Items that matched no label and were not judged: counted wrong. */
  unjudged: number;
  /** matched + judgedKeep: what precision counts. */
  correct: number;
  precision: number;
  recall: number;
  /** Conversations worth keeping, and how many of them gave at least one correct item. */
  worthKeeping: number;
  yielded: number;
  /** yielded / worthKeeping (1 when none is worth keeping). */
  yield: number;
  /** Conversations with nothing worth keeping, and the items taken from them anyway. */
  nothingToKeep: number;
  noise: number;
  /** Items that wait in review.md as suggestions (inferred, not marked); the rest go straight into the store. */
  suggested: number;
}

/** One item as scored: its category, one text, and whether it waits as a suggestion (ItemOrigin.inferred). */
export interface ExtractedItem {
  category: ItemCategory;
  text: string;
  suggested?: boolean;
}

export interface ConversationResult {
  set: LabelledConversation;
  extracted: ExtractedItem[];
  /** Indices into `extracted` of items that matched a label. */
  matchedItems: Set<number>;
  /** How each item of `extracted` is scored, by index. */
  verdicts: ItemVerdict[];
  /** Indices into `set.items` of labels that an item matched. */
  matchedLabels: Set<number>;
}

export interface Evaluation {
  results: ConversationResult[];
  byTool: Map<string, Score>;
  /** The conversations the rules were not tuned on: the honest figure for new conversations. */
  heldOut: Score;
  /** The conversations the rules may have been tuned on. */
  tuned: Score;
  overall: Score;
}

/** The repository root: this file runs as out/bench/extractorEval.js. */
export function repoRoot(): string {
  return path.resolve(__dirname, '..', '..');
}

/** Reads every `*.expected.json` of the labelled set, in name order. */
export function loadLabelledSet(dir = path.join(repoRoot(), 'test', 'fixtures', 'extractor')): LabelledConversation[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.expected.json'))
    .sort()
    .map((f) => {
      const set: LabelledConversation = {
        name: f.slice(0, -'.expected.json'.length),
        ...(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Omit<LabelledConversation, 'name'>),
      };
      checkJudgments(set);
      return set;
    });
}

/** A judgment pasted from `--judge` without a verdict or a reason would silently score: refuse it. */
export function checkJudgments(set: LabelledConversation): void {
  for (const judged of set.judged ?? []) {
    if (judged.verdict !== 'keep' && judged.verdict !== 'wrong')
      throw new Error(`${set.name}: the verdict on "${judged.text}" is neither keep nor wrong`);
    if (!judged.reason?.trim()) throw new Error(`${set.name}: no reason for the verdict on "${judged.text}"`);
  }
}

/** Whether a careful reader keeps anything from the conversation. */
export function isWorthKeeping(set: LabelledConversation): boolean {
  return set.worthKeeping ?? set.items.length > 0;
}

/** Lower-case words of letters and digits (any script), for the fuzzy match. */
export function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Token Jaccard similarity of two texts. */
export function jaccard(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 && wb.size === 0) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

/** Every item of a reply as category + one text (statement and detail, playbook name and steps, path and note). */
export function flattenItems(items: HarvestItems): ExtractedItem[] {
  const out: ExtractedItem[] = [];
  for (const category of ITEM_CATEGORIES) {
    for (const item of items[category] as unknown as Array<Record<string, string | boolean | undefined>>) {
      const text =
        category === 'playbooks'
          ? `${item.name}: ${item.steps}`
          : category === 'files'
            ? `${item.path}: ${item.note}`
            : [item.statement, item.detail].filter(Boolean).join(' — ');
      out.push({ category, text, ...(item.inferred === true ? { suggested: true } : {}) });
    }
  }
  return out;
}

/** The rendered transcript of a labelled conversation, as a harvest would send it. */
export function renderLabelled(set: LabelledConversation, root = repoRoot()): string {
  const file = path.join(root, set.conversation);
  return renderTranscript(importConversation(file, fs.readFileSync(file, 'utf8')));
}

/** Runs the rules extractor on one rendered transcript. */
export async function extract(transcript: string): Promise<HarvestItems> {
  const reply = await new RulesProvider().generate({ task: 'harvest', instructions: '', content: transcript });
  return JSON.parse(reply.text) as HarvestItems;
}

/**
 * Pairs items with labels one to one: best similarity first, same category only, at least
 * MATCH_JACCARD. Greedy on the sorted pairs, so the result does not depend on item order.
 */
export function matchItems(
  extracted: ConversationResult['extracted'],
  labels: LabelledItem[],
): { items: Set<number>; labels: Set<number> } {
  const pairs: Array<{ i: number; l: number; score: number }> = [];
  extracted.forEach((item, i) =>
    labels.forEach((label, l) => {
      if (item.category !== label.category) return;
      const score = jaccard(item.text, label.text);
      if (score >= MATCH_JACCARD) pairs.push({ i, l, score });
    }),
  );
  pairs.sort((a, b) => b.score - a.score || a.i - b.i || a.l - b.l);
  const items = new Set<number>();
  const used = new Set<number>();
  for (const pair of pairs) {
    if (items.has(pair.i) || used.has(pair.l)) continue;
    items.add(pair.i);
    used.add(pair.l);
  }
  return { items, labels: used };
}

/**
 * Scores one conversation's items. A judgment names an item by its exact category and text, so a
 * verdict is never carried over to an item the rules now word differently. An item judged wrong
 * takes no part in matching: the person read it and the word overlap with a label was chance.
 */
export function scoreConversation(set: LabelledConversation, extracted: ConversationResult['extracted']): ConversationResult {
  const verdictOf = new Map((set.judged ?? []).map((j) => [`${j.category}\n${j.text}`, j.verdict]));
  const judged = extracted.map((item) => verdictOf.get(`${item.category}\n${item.text}`));
  const candidates = extracted.map((item, i) => ({ ...item, i })).filter((item) => judged[item.i] !== 'wrong');
  const matched = matchItems(candidates, set.items);
  const matchedItems = new Set([...matched.items].map((k) => candidates[k].i));
  const verdicts = extracted.map((_, i): ItemVerdict => (matchedItems.has(i) ? 'label' : (judged[i] ?? 'unjudged')));
  return { set, extracted, matchedItems, matchedLabels: matched.labels, verdicts };
}

/** Precision, recall, yield and noise of a group of results. */
export function scoreResults(results: ConversationResult[]): Score {
  const labels = results.reduce((n, r) => n + r.set.items.length, 0);
  const extracted = results.reduce((n, r) => n + r.extracted.length, 0);
  const count = (verdict: ItemVerdict, r: ConversationResult): number => r.verdicts.filter((v) => v === verdict).length;
  const matched = results.reduce((n, r) => n + count('label', r), 0);
  const judgedKeep = results.reduce((n, r) => n + count('keep', r), 0);
  const unjudged = results.reduce((n, r) => n + count('unjudged', r), 0);
  const correct = matched + judgedKeep;
  const worth = results.filter((r) => isWorthKeeping(r.set));
  const yielded = worth.filter((r) => count('label', r) + count('keep', r) > 0).length;
  const nothing = results.filter((r) => !isWorthKeeping(r.set) && r.set.items.length === 0);
  // No item is no wrong item: an extractor that stays silent keeps precision 1 and pays in recall and yield.
  return {
    conversations: results.length,
    labels,
    extracted,
    matched,
    judgedKeep,
    unjudged,
    correct,
    precision: extracted === 0 ? 1 : correct / extracted,
    recall: labels === 0 ? 1 : matched / labels,
    worthKeeping: worth.length,
    yielded,
    yield: worth.length === 0 ? 1 : yielded / worth.length,
    nothingToKeep: nothing.length,
    noise: nothing.reduce((n, r) => n + r.extracted.length, 0),
    suggested: results.reduce((n, r) => n + r.extracted.filter((item) => item.suggested).length, 0),
  };
}

/** Evaluates the rules extractor on the labelled set. */
export async function evaluateExtractor(set = loadLabelledSet()): Promise<Evaluation> {
  const results: ConversationResult[] = [];
  for (const conversation of set) {
    results.push(scoreConversation(conversation, flattenItems(await extract(renderLabelled(conversation)))));
  }
  const byTool = new Map<string, Score>();
  for (const tool of [...new Set(results.map((r) => r.set.tool))].sort())
    byTool.set(tool, scoreResults(results.filter((r) => r.set.tool === tool)));
  return {
    results,
    byTool,
    heldOut: scoreResults(results.filter((r) => r.set.heldOut)),
    tuned: scoreResults(results.filter((r) => !r.set.heldOut)),
    overall: scoreResults(results),
  };
}

function percent(x: number): string {
  return `${(100 * x).toFixed(0)} %`;
}

const COLUMNS = [
  'convs',
  'labels',
  'extracted',
  'suggested',
  'matched',
  'judged ok',
  'unjudged',
  'precision',
  ' recall',
  '  yield',
  '   noise',
];

/** How `--verbose` marks an item: matched a label, judged keep, judged wrong, not judged (counted wrong). */
const MARKS: Record<ItemVerdict, string> = { label: 'ok  ', keep: 'keep', wrong: 'FP  ', unjudged: '??  ' };

function row(name: string, s: Score): string {
  // A group with nothing extracted or nothing labelled has no figure to show, only the convention.
  const precision = s.extracted === 0 ? '–' : percent(s.precision);
  const recall = s.labels === 0 ? '–' : percent(s.recall);
  const yielded = s.worthKeeping === 0 ? '–' : `${s.yielded}/${s.worthKeeping}`;
  const noise = s.nothingToKeep === 0 ? '–' : `${s.noise} in ${s.nothingToKeep}`;
  const cells = [
    s.conversations,
    s.labels,
    s.extracted,
    s.suggested,
    s.matched,
    s.judgedKeep,
    s.unjudged,
    precision,
    recall,
    yielded,
    noise,
  ];
  return `${name.padEnd(14)} ${cells.map((cell, i) => String(cell).padStart(COLUMNS[i].length)).join(' ')}`;
}

/** The report table. */
export function formatEvaluation(evaluation: Evaluation, verbose = false): string {
  const out: string[] = [];
  if (verbose) {
    for (const r of evaluation.results) {
      out.push(`## ${r.set.name} (${r.set.tool})`);
      r.extracted.forEach((item, i) => out.push(`  ${MARKS[r.verdicts[i]]} ${item.category}: ${item.text}`));
      r.set.items.forEach((label, l) => {
        if (!r.matchedLabels.has(l)) out.push(`  MISS ${label.category}: ${label.text}`);
      });
    }
    out.push('');
  }
  out.push(`${'tool'.padEnd(14)} ${COLUMNS.join(' ')}`);
  for (const [tool, s] of evaluation.byTool) out.push(row(tool, s));
  out.push(row('overall', evaluation.overall));
  if (evaluation.heldOut.conversations > 0) {
    out.push(row('  tuned on', evaluation.tuned));
    out.push(row('  held out', evaluation.heldOut));
  }
  out.push(`(an item matches a label of the same category when their word sets have Jaccard ≥ ${MATCH_JACCARD}, one to one;`);
  out.push(' precision counts items that match a label or were judged keep; an unjudged item counts wrong (--judge lists them);');
  out.push(' yield: conversations worth keeping that gave a correct item; noise: items taken from conversations with nothing to keep;');
  out.push(' suggested: items that wait in review.md for a person to confirm, the rest go straight into the store)');
  return out.join('\n');
}

/**
 * Every unjudged item, by conversation, as the `judged` entries to paste into its label file
 * once a person has set `verdict` (keep or wrong) and `reason`: loading refuses them before.
 */
export function formatUnjudged(evaluation: Evaluation): string {
  const pending: Record<string, JudgedItem[]> = {};
  for (const r of evaluation.results) {
    const items = r.extracted.filter((_, i) => r.verdicts[i] === 'unjudged');
    if (items.length > 0)
      pending[r.set.name] = items.map((item) => ({
        category: item.category,
        text: item.text,
        verdict: '?' as JudgedItem['verdict'],
        reason: '',
      }));
  }
  return JSON.stringify(pending, null, 1);
}

async function main(argv: string[]): Promise<void> {
  const renderAt = argv.indexOf('--render');
  if (renderAt >= 0) {
    const dir = argv[renderAt + 1];
    fs.mkdirSync(dir, { recursive: true });
    for (const set of loadLabelledSet()) {
      const transcript = renderLabelled(set);
      fs.writeFileSync(path.join(dir, `${set.name}.md`), transcript);
      fs.writeFileSync(path.join(dir, `${set.name}.items.json`), JSON.stringify(flattenItems(await extract(transcript)), null, 1));
    }
    return;
  }
  const evaluation = await evaluateExtractor();
  process.stdout.write(
    `${argv.includes('--judge') ? formatUnjudged(evaluation) : formatEvaluation(evaluation, argv.includes('--verbose'))}\n`,
  );
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
