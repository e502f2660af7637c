/**
 * The day's journal, `journal/YYYY-MM-DD.md` (Autopoiesis §2.2 and §8.4, "condense"): what was
 * learned that day, grouped by source (the conversation or agent) and category, bullets, no
 * prose. Every harvest apply merges its new items in (without a model); `lore journal
 * --summarize` adds a `## Summary` a model wrote. The file is Lore's: it is re-rendered from
 * what it holds on each merge, and bullets a person added under a heading are kept there.
 *
 * The format is pure (this module reads and writes no file); store/journal/journalFile.ts says
 * where a day's file is. The journal is not a category file: no reader of knowledge (digest, search, recall, item ids,
 * the MCP tools) lists journal/, so its bullets never come back to an agent twice.
 */
import { renderItemLine, withoutBullet } from './itemLines';
import { pushAll } from '../base/bulkArrays';

/** The journal folder in the store. */
export const JOURNAL_DIR = 'journal';

/** One bullet learned: who it came from, which category, its text (no provenance). */
export interface JournalEntry {
  source: string;
  category: string;
  text: string;
}

/** A journal as data: the summary, then the sources in order, each with its categories in order. */
export interface Journal {
  date: string;
  summary: string[];
  sources: Map<string, Map<string, string[]>>;
}

const SUMMARY_HEADING = '## Summary';
/** A day: what the file name and the frontmatter carry. */
export const JOURNAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Store-relative path of the journal of `date` (YYYY-MM-DD). */
export function journalFile(date: string): string {
  return `${JOURNAL_DIR}/${date}.md`;
}

/** Reads a journal's text (undefined: a new day). Lines outside the known headings are dropped. */
export function parseJournal(date: string, text: string | undefined): Journal {
  const journal: Journal = { date, summary: [], sources: new Map() };
  if (!text) return journal;
  let lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
    if (close > 0) lines = lines.slice(close + 1);
  }
  let where: 'none' | 'summary' | 'source' = 'none';
  let bullets: string[] | undefined;
  let categories: Map<string, string[]> | undefined;
  for (const line of lines) {
    if (line.trim() === SUMMARY_HEADING) {
      where = 'summary';
      continue;
    }
    const source = /^## (.+?)\s*$/.exec(line);
    if (source) {
      where = 'source';
      categories = journal.sources.get(source[1]) ?? new Map();
      journal.sources.set(source[1], categories);
      bullets = undefined;
      continue;
    }
    const category = /^### (.+?)\s*$/.exec(line);
    if (category && where === 'source' && categories) {
      bullets = categories.get(category[1]) ?? [];
      categories.set(category[1], bullets);
      continue;
    }
    if (where === 'summary' && !line.startsWith('# ')) journal.summary.push(line);
    else if (where === 'source' && bullets && line.trim()) bullets.push(line);
  }
  while (journal.summary.length && !journal.summary[0].trim()) journal.summary.shift();
  while (journal.summary.length && !journal.summary[journal.summary.length - 1].trim()) journal.summary.pop();
  return journal;
}

/** Adds entries (a bullet already under its source and category is not added again). */
export function mergeEntries(journal: Journal, entries: readonly JournalEntry[]): Journal {
  for (const entry of entries) {
    const categories = journal.sources.get(entry.source) ?? new Map<string, string[]>();
    journal.sources.set(entry.source, categories);
    const bullets = categories.get(entry.category) ?? [];
    categories.set(entry.category, bullets);
    const bullet = renderItemLine(entry.text);
    if (!bullets.includes(bullet)) bullets.push(bullet);
  }
  return journal;
}

/**
 * Takes entries out (an undone apply's): their bullets go, and a category or source left empty
 * goes with them. Returns whether anything was taken out.
 */
export function removeEntries(journal: Journal, entries: readonly JournalEntry[]): boolean {
  let removed = false;
  for (const entry of entries) {
    const categories = journal.sources.get(entry.source);
    const bullets = categories?.get(entry.category);
    const at = bullets?.indexOf(renderItemLine(entry.text)) ?? -1;
    if (!categories || !bullets || at < 0) continue;
    bullets.splice(at, 1);
    removed = true;
    if (bullets.length === 0) categories.delete(entry.category);
    if (categories.size === 0) journal.sources.delete(entry.source);
  }
  return removed;
}

/** The journal's text: frontmatter (type, date, sessions), title, summary, sources. */
export function renderJournal(journal: Journal): string {
  const sources = [...journal.sources.keys()];
  const out = [
    '---',
    'type: journal',
    `date: ${journal.date}`,
    `sessions: [${sources.map((s) => JSON.stringify(s)).join(', ')}]`,
    '---',
    '',
    `# Journal ${journal.date}`,
    '',
  ];
  if (journal.summary.length) pushAll(out, [SUMMARY_HEADING, ''], journal.summary, ['']);
  for (const [source, categories] of journal.sources) {
    out.push(`## ${source}`, '');
    for (const [category, bullets] of categories) {
      if (bullets.length) pushAll(out, [`### ${category}`], bullets, ['']);
    }
  }
  return out.join('\n');
}

/** Every bullet of the journal, for a summary or a count. */
export function journalEntries(journal: Journal): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const [source, categories] of journal.sources) {
    for (const [category, bullets] of categories) for (const b of bullets) entries.push({ source, category, text: withoutBullet(b) });
  }
  return entries;
}
