/**
 * `npm run eval:tidy`: how much of a store's knowledge is served twice, and how much stale
 * knowledge is still served as current, before and after `lore tidy`, on a labelled set:
 *
 * - test/fixtures/tidy/labelled.json: hand-written items in duplicate groups (the same knowledge
 *   from several conversations, exact or reworded), stale items with the newer item that
 *   corrects them, and hard negatives (alike in words, different in meaning);
 * - the items a careful reader kept from the real conversations of the corpus
 *   (test/fixtures/extractor/*.expected.json), each its own piece of knowledge: what tidy must
 *   leave alone.
 *
 * The store is written to a temporary folder as a harvest writes it, tidied with the real
 * `runTidy` (apply, under the lock), and read back. Deterministic: no clock in the figures, no
 * network, no model.
 *
 *   node out/bench/tidyEval.js             the table
 *   node out/bench/tidyEval.js --verbose   also every wrong merge, wrong supersession and miss
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ItemCategory } from '../src/core/model/categories';
import { listItems } from '../src/core/model/categoryFile';
import { itemId, listItemId } from '../src/core/model/itemId';
import { parseProvenance } from '../src/core/model/provenance';
import { isCurrent } from '../src/core/model/supersession';
import { ensureStoreLayout } from '../src/core/store/initStore';
import { storePaths } from '../src/core/store/storePaths';
import { runTidy } from '../src/core/services/tidy/tidyPlan';
import { loadLabelledSet, repoRoot } from './extractorEval';

/** One labelled line. */
export interface TidyLabel {
  key: string;
  group: string;
  file: string;
  section?: string;
  line: string;
  /** Key of the item that makes this one stale. */
  supersededBy?: string;
  /** From the corpus (real conversations), the hand-written set, or the held-out hand-written set. */
  origin: 'corpus' | 'fixture' | 'heldout';
}

const FILE_OF: Record<ItemCategory, { file: string; section?: string }> = {
  facts: { file: 'facts.md' },
  decisions: { file: 'decisions.md' },
  questions: { file: 'questions.md' },
  playbooks: { file: 'playbooks.md' },
  tasks_open: { file: 'tasks.md', section: 'Open' },
  tasks_done: { file: 'tasks.md', section: 'Done' },
  files: { file: 'facts.md' },
};

/** The labelled set: the hand-written fixture, then the corpus items (dated in September, before it). */
export function loadTidyLabels(root = repoRoot(), sets: Array<'fixture' | 'heldout'> = ['fixture', 'heldout']): TidyLabel[] {
  const labels: TidyLabel[] = [];
  for (const origin of sets) {
    const name = origin === 'fixture' ? 'labelled.json' : 'heldout.json';
    const fixture = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'tidy', name), 'utf8')) as {
      items: Array<Omit<TidyLabel, 'origin' | 'group'> & { group?: string }>;
    };
    labels.push(...fixture.items.map((i) => ({ ...i, group: i.group ?? i.key, origin })));
  }
  let n = 0;
  for (const set of loadLabelledSet()) {
    for (const item of set.items) {
      n++;
      const { file, section } = FILE_OF[item.category];
      const day = String(1 + (n % 28)).padStart(2, '0');
      const text = item.text.replace(/\s+/g, ' ').replace(/\[/g, '(').replace(/\]/g, ')');
      labels.push({
        key: `corpus-${n}`,
        group: `corpus-${n}`,
        file,
        section,
        line: `- ${text} [from: ${set.name}, 2026-09-${day}]`,
        origin: 'corpus',
      });
    }
  }
  return labels;
}

/** Writes the labelled lines into a fresh store, oldest first in each file, as harvests append them. */
function writeStore(labels: TidyLabel[]): ReturnType<typeof storePaths> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-tidy-eval-'));
  const paths = storePaths(path.join(dir, '.lore'), dir);
  ensureStoreLayout(paths);
  const dateOf = (l: TidyLabel) => parseProvenance(l.line)?.date ?? '';
  const byFile = new Map<string, TidyLabel[]>();
  for (const label of [...labels].sort((a, b) => (dateOf(a) < dateOf(b) ? -1 : dateOf(a) > dateOf(b) ? 1 : 0))) {
    byFile.set(label.file, [...(byFile.get(label.file) ?? []), label]);
  }
  for (const [file, items] of byFile) {
    const title = file.replace(/\.md$/, '').replace(/^./, (c) => c.toUpperCase());
    let text = `# ${title}\n\n`;
    if (file === 'tasks.md') {
      text += `## Open\n\n${items
        .filter((i) => i.section !== 'Done')
        .map((i) => i.line)
        .join('\n')}\n\n## Done\n\n${items
        .filter((i) => i.section === 'Done')
        .map((i) => i.line)
        .join('\n')}\n`;
    } else {
      text += `${items.map((i) => i.line).join('\n')}\n`;
    }
    fs.writeFileSync(path.join(paths.root, file), text);
  }
  return paths;
}

/** What the store serves: its current items, each with the label it came from. */
interface Served {
  total: number;
  /** Items served beyond the first of their group. */
  duplicates: number;
  staleServed: number;
  stale: number;
  /** Sources (conversation, date) found in the store. */
  sources: Set<string>;
  unlabelled: number;
}

function measure(paths: ReturnType<typeof storePaths>, labels: TidyLabel[]): Served {
  const byId = new Map(labels.map((l) => [itemId(l.line), l]));
  const groupsServed = new Map<string, number>();
  const sources = new Set<string>();
  let total = 0;
  let staleServed = 0;
  let unlabelled = 0;
  for (const file of ['facts.md', 'decisions.md', 'questions.md', 'playbooks.md', 'tasks.md']) {
    const full = path.join(paths.root, file);
    if (!fs.existsSync(full)) continue;
    for (const item of listItems(fs.readFileSync(full, 'utf8'))) {
      for (const s of parseProvenance(item.raw)?.sources ?? []) sources.add(`${s.source}\u0000${s.date}`);
      const label = byId.get(listItemId(item));
      if (!label) {
        unlabelled++;
        continue;
      }
      if (!isCurrent(item.raw)) continue;
      total++;
      groupsServed.set(label.group, (groupsServed.get(label.group) ?? 0) + 1);
      if (label.supersededBy) staleServed++;
    }
  }
  const duplicates = [...groupsServed.values()].reduce((n, c) => n + c - 1, 0);
  return { total, duplicates, staleServed, stale: labels.filter((l) => l.supersededBy).length, sources, unlabelled };
}

export interface TidyEvaluation {
  name: string;
  labels: number;
  fromCorpus: number;
  groups: number;
  before: Served;
  after: Served;
  merges: number;
  mergedLines: number;
  wrongMerges: string[];
  supersessions: number;
  wrongSupersessions: string[];
  missedStale: string[];
  sourcesKept: number;
  sourcesBefore: number;
}

/** Runs the evaluation on a fresh store. */
export async function evaluateTidy(labels = loadTidyLabels(), name = 'labelled set'): Promise<TidyEvaluation> {
  const paths = writeStore(labels);
  try {
    const before = measure(paths, labels);
    const report = await runTidy(paths, { apply: true, today: new Date('2026-11-27T00:00:00Z') });
    const after = measure(paths, labels);
    const byId = new Map(labels.map((l) => [itemId(l.line), l]));
    const wrongMerges: string[] = [];
    let mergedLines = 0;
    for (const m of report.merges) {
      const keep = byId.get(m.keep.id);
      for (const d of m.drop) {
        mergedLines++;
        const drop = byId.get(d.id);
        if (!keep || !drop || keep.group !== drop.group) wrongMerges.push(`${drop?.key ?? d.id} into ${keep?.key ?? m.keep.id}`);
      }
    }
    const wrongSupersessions = report.supersessions
      .filter((s) => !byId.get(s.old.id)?.supersededBy)
      .map((s) => `${byId.get(s.old.id)?.key ?? s.old.id} by ${byId.get(s.by.id)?.key ?? s.by.id}`);
    const marked = new Set(report.supersessions.map((s) => byId.get(s.old.id)?.key));
    const missedStale = labels.filter((l) => l.supersededBy && !marked.has(l.key)).map((l) => `${l.key} (by ${l.supersededBy})`);
    const kept = [...before.sources].filter((s) => after.sources.has(s)).length;
    return {
      name,
      labels: labels.length,
      fromCorpus: labels.filter((l) => l.origin === 'corpus').length,
      groups: new Set(labels.map((l) => l.group)).size,
      before,
      after,
      merges: report.merges.length,
      mergedLines,
      wrongMerges,
      supersessions: report.supersessions.length,
      wrongSupersessions,
      missedStale,
      sourcesKept: kept,
      sourcesBefore: before.sources.size,
    };
  } finally {
    fs.rmSync(path.dirname(paths.root), { recursive: true, force: true });
  }
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);

export function formatTidyEvaluation(e: TidyEvaluation, verbose = false): string {
  const out = [
    `${e.name}: ${e.labels} items (${e.fromCorpus} from the corpus's labelled conversations, ${e.labels - e.fromCorpus} hand-written), ${e.groups} distinct pieces of knowledge, ${e.before.stale} stale`,
    `${''.padEnd(28)} ${'before'.padStart(10)} ${'after tidy'.padStart(10)}`,
    `${'items served'.padEnd(28)} ${String(e.before.total).padStart(10)} ${String(e.after.total).padStart(10)}`,
    `${'duplicate rate'.padEnd(28)} ${pct(e.before.duplicates, e.before.total).padStart(10)} ${pct(e.after.duplicates, e.after.total).padStart(10)}`,
    `${'superseded-but-served rate'.padEnd(28)} ${pct(e.before.staleServed, e.before.stale).padStart(10)} ${pct(e.after.staleServed, e.after.stale).padStart(10)}`,
    `merges: ${e.merges} (${e.mergedLines} lines merged away, ${e.wrongMerges.length} wrong); supersessions: ${e.supersessions} (${e.wrongSupersessions.length} wrong); stale items missed: ${e.missedStale.length}; sources kept: ${e.sourcesKept}/${e.sourcesBefore}`,
    '(duplicate rate: served items beyond the first of their piece of knowledge, over items served; superseded-but-served: stale items still served as current, over stale items)',
  ];
  if (verbose) {
    for (const w of e.wrongMerges) out.push(`wrong merge: ${w}`);
    for (const w of e.wrongSupersessions) out.push(`wrong supersession: ${w}`);
    for (const m of e.missedStale) out.push(`missed: ${m}`);
  }
  return out.join('\n');
}

async function main(verbose: boolean): Promise<void> {
  const runs: Array<[string, TidyLabel[]]> = [
    ['whole set', loadTidyLabels()],
    [
      'held out only (with the corpus items)',
      loadTidyLabels(repoRoot(), []).concat(loadTidyLabels(repoRoot(), ['heldout']).filter((l) => l.origin === 'heldout')),
    ],
  ];
  const parts: string[] = [];
  for (const [name, labels] of runs) parts.push(formatTidyEvaluation(await evaluateTidy(labels, name), verbose));
  process.stdout.write(`${parts.join('\n\n')}\n`);
}

if (require.main === module) {
  main(process.argv.includes('--verbose')).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
