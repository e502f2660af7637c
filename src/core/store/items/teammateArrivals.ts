/**
 * What arrived from teammates when git moved HEAD (a pull, a merge, a checkout): the knowledge
 * items (category files and per-file notes) present at the new HEAD and not at the old one, each
 * with the git author of the commit that wrote its line, leaving out the person's own (their git
 * identity). Pure git reads of committed content: nothing in the work tree is read or written, so
 * an unsaved or uncommitted change is no arrival.
 *
 * Cheap when nothing came from anyone else (Lore's own commits after a harvest move HEAD too):
 * one `git log` of the store over the range; only then the changed knowledge files are read at
 * both ends and blamed at the new one.
 */
import { CATEGORY_FILES } from '../../model/categories';
import { listItems } from '../../model/categoryFile';
import { listItemId } from '../../model/itemId';
import { isCurrent } from '../../model/supersession';
import type { StorePaths } from '../storePaths';
import { runGit } from '../history/git';
import { blameFile } from '../history/lineAuthors';
import { FALLBACK_IDENTITY } from '../history/commitStore';
import { findStoreRepo, storePathspec, type StoreRepo } from '../history/storeRepo';

/** One item that arrived, with who wrote it. */
export interface ArrivedItem {
  id: string;
  /** The item's text without list marker (provenance included, as the line reads). */
  text: string;
  /** Store-relative file it is in at the new HEAD. */
  file: string;
  /** 0-based line there. */
  line: number;
  author: string;
  email: string;
  /** Author date, ISO 8601. */
  date: string;
  commit: string;
}

export interface Arrivals {
  /** The HEAD before and after. */
  from: string;
  to: string;
  /** The items, by file and line; at most `max`. */
  items: ArrivedItem[];
  /** How many arrived in all (more than `items.length` when bounded). */
  total: number;
  /** The teammates they came from, most items first. */
  authors: string[];
}

/** Items reported at most: a first pull of a large store is news in bulk, not item by item. */
const MAX_ITEMS = 200;
const FIELD = '\x1f';

/** The commit HEAD names in the store's repository, or undefined (no repository, no commit, no git). */
export async function storeHead(paths: StorePaths): Promise<string | undefined> {
  const result = await runGit(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: paths.root }).catch(() => undefined);
  return result && result.code === 0 ? result.stdout.trim() || undefined : undefined;
}

/**
 * Who "I" am in this repository: the identity git would author a commit with (config, the
 * environment), or Lore's fallback identity, which is what Lore's own commits carry without one.
 */
async function gitIdentity(repo: StoreRepo): Promise<{ name: string; email: string }> {
  const result = await runGit(['var', 'GIT_AUTHOR_IDENT'], { cwd: repo.top }).catch(() => undefined);
  const match = result && result.code === 0 ? /^(.*?) <([^>]*)>/.exec(result.stdout) : null;
  if (!match) return { name: FALLBACK_IDENTITY.GIT_AUTHOR_NAME, email: FALLBACK_IDENTITY.GIT_AUTHOR_EMAIL };
  return { name: match[1], email: match[2].toLowerCase() };
}

function isSelf(self: { name: string; email: string }, author: { author: string; email: string }): boolean {
  if (self.email) return author.email.toLowerCase() === self.email;
  return self.name !== '' && author.author === self.name;
}

/** The knowledge files of the store as pathspecs: the category files and the note files. */
function knowledgePathspecs(repo: StoreRepo): string[] {
  const categories = Object.values(CATEGORY_FILES).map((c) => storePathspec(repo, c.file));
  const notes = storePathspec(repo, 'files').replace(/^:\(top,literal\)/, ':(top,glob)') + '/*.md';
  return [...categories, notes];
}

/** A file's text at a commit ('' when it is not there). */
async function textAt(repo: StoreRepo, commit: string, file: string): Promise<string> {
  const result = await runGit(['show', `${commit}:${file}`], { cwd: repo.top });
  return result.code === 0 ? result.stdout : '';
}

/** The items of a knowledge file's text; a note file's frontmatter (whose YAML lists are no items) blanked, lines kept. */
function itemsOf(text: string): ReturnType<typeof listItems> {
  const lines = text.split('\n');
  if (lines[0]?.replace(/^\ufeff/, '').trim() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
    if (close > 0) for (let i = 0; i <= close; i++) lines[i] = '';
  }
  return listItems(lines.join('\n'));
}

/**
 * The items that arrived between commits `from` and `to` from people other than the person
 * (undefined: no repository, or `from` is not a commit here any more). `self` overrides the
 * identity read from git config (tests, another tool).
 */
export async function teammateArrivals(
  paths: StorePaths,
  from: string,
  to: string,
  options: { self?: { name: string; email: string }; max?: number } = {},
): Promise<Arrivals | undefined> {
  const repo = await findStoreRepo(paths);
  if (!repo) return undefined;
  const none: Arrivals = { from, to, items: [], total: 0, authors: [] };
  if (from === to) return none;
  const known = await runGit(['rev-parse', '-q', '--verify', `${from}^{commit}`], { cwd: repo.top });
  if (known.code !== 0) return undefined;
  const self = options.self ?? (await gitIdentity(repo));
  const specs = knowledgePathspecs(repo);
  // Anyone but the person in the range? Lore's own commit after a harvest is the common case.
  const log = await runGit(['log', `--format=%an${FIELD}%ae`, `${from}..${to}`, '--', ...specs], { cwd: repo.top });
  if (log.code !== 0) return undefined;
  const others = log.stdout
    .split('\n')
    .filter(Boolean)
    .map((row) => row.split(FIELD))
    .some(([author, email = '']) => !isSelf(self, { author, email }));
  if (!others) return none;
  const diff = await runGit(['diff', '--name-only', '-z', '--no-renames', from, to, '--', ...specs], { cwd: repo.top });
  if (diff.code !== 0) return undefined;
  const changed = diff.stdout.split('\0').filter(Boolean);
  // An item is new when no changed file held its id before: one moved between files is not news.
  const before = new Set<string>();
  const after: Array<{ file: string; items: ReturnType<typeof listItems> }> = [];
  for (const file of changed) {
    for (const item of itemsOf(await textAt(repo, from, file))) before.add(listItemId(item));
    after.push({ file, items: itemsOf(await textAt(repo, to, file)) });
  }
  const storePrefix = repo.storeRel === '.' ? '' : `${repo.storeRel}/`;
  const arrived: ArrivedItem[] = [];
  for (const { file, items } of after) {
    const fresh = items.filter((item) => isCurrent(item.raw) && !before.has(listItemId(item)));
    if (fresh.length === 0) continue;
    const authors = await blameFile(repo, file, to);
    for (const item of fresh) {
      const author = authors?.[item.line];
      if (!author || isSelf(self, author)) continue;
      arrived.push({
        id: listItemId(item),
        text: item.text,
        file: file.startsWith(storePrefix) ? file.slice(storePrefix.length) : file,
        line: item.line,
        author: author.author,
        email: author.email,
        date: author.date,
        commit: author.commit,
      });
    }
  }
  const counts = new Map<string, number>();
  for (const item of arrived) counts.set(item.author, (counts.get(item.author) ?? 0) + 1);
  const authors = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
  return { from, to, items: arrived.slice(0, options.max ?? MAX_ITEMS), total: arrived.length, authors };
}
