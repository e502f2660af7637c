/** `lore search QUERY`: ranked hits from the store's index (rebuilt or refreshed as needed). */
import { isCalendarDate } from '../../core/model/provenance';
import { recordUses } from '../../core/store/lifecycle/usageLog';
import { searchStore } from '../../core/services/search/searchIndex';
import { SEARCH_CATEGORIES, searchHitId, type SearchCategory, type SearchHit } from '../../core/services/search/searchTypes';
import { command, type Parsed } from '../command';
import { lazy } from '../../core/base/lazy';
import { EXIT_OK, UsageError, envOf, printable, type Output } from '../cliSupport';

// Only `--archived` reads the archive: its module brings the store's write path (10 ms of a search's start).
const archiveSearch = lazy(
  () => require('../../core/store/lifecycle/archiveSearch') as typeof import('../../core/store/lifecycle/archiveSearch'),
);

const OPTIONS = {
  category: {
    type: 'string',
    multiple: true,
    value: 'C',
    help: 'facts, decisions, questions, playbooks, tasks, notes or transcripts\n(repeat or separate with commas)',
  },
  since: { type: 'string', value: 'D', help: 'only items dated D or later (YYYY-MM-DD; --until D: or earlier)' },
  until: { type: 'string' },
  limit: { type: 'string', value: 'N', help: 'at most N results (default 20)' },
  superseded: { type: 'boolean', help: 'include items marked superseded by a newer one (left out by default)' },
  backend: {
    type: 'string',
    value: 'B',
    help: 'auto or memory: where the index lives (default auto: the file in .index/, in memory when it cannot be used)',
  },
  archived: {
    type: 'boolean',
    help: 'also list archived items that hold every word (lore prune moved them to\narchive/knowledge/; they are never in the index, the digest or a context)',
  },
} as const;

function parseCategories(values: string[] | undefined): SearchCategory[] | undefined {
  if (!values) return undefined;
  const out: SearchCategory[] = [];
  for (const raw of values.flatMap((v) => v.split(','))) {
    const name = raw.trim().toLowerCase();
    if (!name) continue;
    if (!(SEARCH_CATEGORIES as readonly string[]).includes(name)) {
      throw new UsageError(`--category expects one of ${SEARCH_CATEGORIES.join(', ')}, not "${raw}"`);
    }
    out.push(name as SearchCategory);
  }
  return out.length > 0 ? out : undefined;
}

function parseDate(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value)) throw new UsageError(`${option} expects a date YYYY-MM-DD, not "${value}"`);
  return value;
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new UsageError(`--limit expects a whole number >= 1, not "${value}"`);
  return Number(value);
}

function provenanceOf(hit: SearchHit): string {
  if (!hit.source && !hit.date) return '';
  return ` [from: ${hit.source ?? '?'}, ${hit.date ?? '?'}]`;
}

export const searchCommand = command({
  name: 'search',
  usage: ['QUERY [--root DIR] [--category C] [--since YYYY-MM-DD] [--limit N] [--superseded] [--archived] [--json]'],
  description: `Searches facts, decisions, questions, playbooks, tasks, per-file notes and the conversations in
inbox/ and archive/ (ranked by BM25; hybrid with vectors when LORE_EMBED_PROVIDER is set to
openai, gemini or ollama). The index lives in .index/ and is rebuilt when deleted. Each item
comes with its id, which lore item, history, supersede and forget take as printed.`,
  options: OPTIONS,
  run: search,
});

async function search(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, positionals, paths } = parsed;
  const query = positionals.join(' ').trim();
  if (!query) throw new UsageError('lore search takes a QUERY');
  const categories = parseCategories(values.category);
  const since = parseDate(values.since, '--since');
  const until = parseDate(values.until, '--until');
  const limit = parseLimit(values.limit);
  const backend = values.backend;
  if (backend !== undefined && backend !== 'auto' && backend !== 'memory')
    throw new UsageError(`--backend expects auto or memory, not "${backend}"`);
  const response = await searchStore(paths, query, {
    categories,
    since,
    until,
    limit,
    backend,
    superseded: values.superseded === true,
    env: envOf(io),
    // Bold in a terminal; the default «» markers in pipes and JSON, where escapes would be noise.
    markers: values.json || !(io.stdoutIsTTY ?? process.stdout.isTTY) ? undefined : { open: '\u001b[1m', close: '\u001b[22m' },
    log: (message) => io.err(`lore search: ${message}`),
  });
  // Each item with its id, which lore item, supersede, history and forget take as printed.
  const hits = response.hits.map((hit) => ({ hit, id: searchHitId(hit) }));
  // Hits handed to a person count as uses too: what people look up does not decay.
  recordUses(
    paths,
    hits.flatMap((h) => (h.id ? [h.id] : [])),
    'search',
  );
  const archived = values.archived ? archiveSearch().searchArchive(paths, query, limit ?? 20) : undefined;
  if (values.json) {
    // The id first; the spread reads what a hit makes when asked (its snippet, its absolute path).
    const withIds = hits.map(({ hit, id }) => ({ id, ...hit }));
    io.out(JSON.stringify({ ...response, hits: withIds, ...(archived ? { archived } : {}) }, null, 2));
    return EXIT_OK;
  }
  // Said before the hits, on stdout: it changes what the list means, not how the run went.
  if (response.partial && response.hits.length > 0)
    io.out(`Partial matches: no item has every word of "${printable(query)}"; these have some of them.`);
  hits.forEach(({ hit, id }, i) => {
    const where = `${printable(hit.file)}${hit.line ? `:${hit.line}` : ''}`;
    const about = hit.notedPath ? ` (${printable(hit.notedPath)})` : '';
    // The id first, as lore item, history and prune print it; a conversation excerpt has none.
    io.out(`${i + 1}. ${id ? `${id}  ` : ''}[${hit.category}]${about} ${hit.snippet}${provenanceOf(hit)}  ${where}`);
  });
  for (const hit of archived ?? [])
    io.out(`[archived ${hit.category}] ${printable(hit.text)}  ${printable(hit.file)}:${hit.lineNumber}  (lore prune --restore ${hit.id})`);
  for (const warning of response.warnings) io.err(`warning: ${warning}`);
  const count = response.hits.length === 0 ? 'no results' : `${response.hits.length} result${response.hits.length === 1 ? '' : 's'}`;
  if (archived) io.err(`${archived.length} archived item${archived.length === 1 ? '' : 's'}`);
  io.err(`${count} (${response.backend}; ${response.modeReason}; ${response.tookMs.toFixed(0)} ms)`);
  if (response.backend !== 'sqlite') io.err(`note: ${response.backendReason}`);
  return EXIT_OK;
}
