/**
 * `lore forget ID --purge-history`: a forget removes a conversation from the store's files, but
 * the store's git history still holds every earlier version of them. For a store that is its own
 * repository this rewrites that history: every commit of HEAD's ancestry gets a tree without the
 * conversation (its lines taken out of every markdown file by the same edit forget makes, its
 * journal sections and its title in ledger.json, its stored transcripts dropped), with its author,
 * dates and message kept; the branch and Lore's daily tags move to the rewritten commits, and the
 * old ones are pruned.
 *
 * A preview first (the commits that would change); `--apply` does it. Only git plumbing
 * (ls-tree, cat-file, hash-object, update-index, write-tree, commit-tree, update-ref): no
 * filter-branch, nothing of the repository's configuration runs. Refused for a store inside a
 * project's repository (that history is the person's, with their code) and while the store
 * still holds the conversation (forget it first). Nothing is pushed: a remote keeps the old
 * history until the person force-pushes.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { git, runGit } from '../history/git';
import { findStoreRepo, repoBusy, type StoreRepo } from '../history/storeRepo';
import { readLedger } from '../ledger';
import { ledgerText } from '../../model/ledgerFormat';
import { readLedgerText } from '../../model/merge/ledgerMerge';
import type { StorePaths } from '../storePaths';
import { acquireStoreLock } from '../../base/storeLock';
import { JOURNAL_DIR } from '../../model/journalFormat';
import { journalWithout, planForget, type ForgetPlan } from './forgetConversation';
import { removeSource } from './forgetSource';
import { crashPoint } from '../../base/crashPoints';

export interface PurgeCommit {
  commit: string;
  subject: string;
  /** Store-relative paths whose content changes or that go. */
  files: string[];
}

export type PurgePlan =
  { status: 'ready'; commits: PurgeCommit[]; total: number; otherRefs: string[] } | { status: 'refused'; reason: string };

export interface PurgeResult {
  plan: PurgePlan;
  /** Old commit → rewritten commit, for the commits that changed (and their descendants). */
  rewritten: number;
  head?: string;
}

/** Why the history of this store cannot be purged, or its repository. */
async function purgeableRepo(paths: StorePaths, id: string): Promise<StoreRepo | string> {
  const repo = await findStoreRepo(paths);
  if (!repo) return 'the store is not a git repository: there is no history to purge';
  if (repo.storeRel !== '.')
    return `the store is inside the repository ${repo.top}, whose history is yours (with your code): Lore rewrites only a store that is its own repository. To purge it, rewrite that history yourself (for example with git filter-repo) and force-push`;
  const busy = repoBusy(repo);
  if (busy) return `the repository is in the middle of ${busy}; finish it first`;
  if (stillHeld(planForget(paths, id))) return `the store still holds conversation ${id}: run lore forget ${id} --apply first`;
  if ((await runGit(['rev-parse', '--verify', '-q', 'HEAD'], { cwd: repo.top })).code !== 0) return 'the repository has no commits yet';
  return repo;
}

/** Whether the store's files still hold the conversation (the ledger keeps its entries for good). */
function stillHeld(plan: ForgetPlan): boolean {
  return plan.removed.length + plan.trimmed.length + plan.review.length + plan.journals.length + plan.files.length > 0;
}

/** What a blob becomes: its new text, `null` when the file goes, undefined when unchanged. */
type BlobEdit = (file: string, text: string) => string | null | undefined;

function blobEdit(id: string, shas: ReadonlySet<string>): BlobEdit {
  return (file, text) => {
    if (!text.includes(id) && ![...shas].some((s) => text.includes(s))) return undefined;
    if (file.startsWith('transcripts/')) {
      const head = text.slice(0, 2048);
      const raw = /^raw_sha256: ([0-9a-f]{64})/m.exec(head)?.[1];
      const session = /^session_id: (.+)$/m.exec(head)?.[1]?.trim();
      return (raw && shas.has(raw)) || session === id ? null : undefined;
    }
    if (file.startsWith(`${JOURNAL_DIR}/`)) return journalWithout(file, text, id);
    if (file === 'ledger.json') return ledgerWithoutTitles(text, id, shas);
    return removeSource(text, id).text;
  };
}

/**
 * ledger.json without the titles of the conversation's entries (a title is its first prompt: its
 * words), as forget leaves the current one; undefined when none of them has a title.
 */
function ledgerWithoutTitles(text: string, id: string, shas: ReadonlySet<string>): string | undefined {
  const ledger = readLedgerText(text);
  if (!ledger) return undefined;
  let changed = false;
  for (const [sha256, entry] of Object.entries(ledger.entries)) {
    if ((shas.has(sha256) || entry.id === id) && entry.title !== undefined) {
      delete entry.title;
      changed = true;
    }
  }
  return changed ? ledgerText(ledger) : undefined;
}

interface TreeEntry {
  mode: string;
  type: string;
  sha: string;
  file: string;
}

async function listTree(repo: StoreRepo, commit: string): Promise<TreeEntry[]> {
  const out = await git(['ls-tree', '-r', '-z', '--full-tree', commit], { cwd: repo.top });
  return out
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, type, sha] = line.slice(0, tab).split(' ');
      return { mode, type, sha, file: line.slice(tab + 1) };
    });
}

/** What the purge makes of each blob, worked out once per file and content (commits share most of theirs). */
class Rewriter {
  private readonly blobs = new Map<string, string | null | undefined>();
  constructor(
    private readonly repo: StoreRepo,
    private readonly edit: BlobEdit,
    private readonly scratch: string,
  ) {}

  /** The new sha of a blob (null: dropped; the same sha: unchanged). */
  async blob(entry: TreeEntry, write: boolean): Promise<string | null> {
    const key = `${entry.file}\0${entry.sha}`;
    if (!this.blobs.has(key)) {
      let next: string | null | undefined;
      // Markdown holds the conversation's lines; ledger.json its title.
      if (entry.type === 'blob' && (entry.file.endsWith('.md') || entry.file === 'ledger.json')) {
        const text = await git(['cat-file', 'blob', entry.sha], { cwd: this.repo.top });
        const edited = this.edit(entry.file, text);
        next = edited === null ? null : edited === undefined || edited === text ? undefined : edited;
      }
      if (typeof next === 'string' && write) {
        // eslint-disable-next-line no-restricted-properties -- a file of a new random name in git's own folder, not a store file
        fs.writeFileSync(this.scratch, next);
        next = (await git(['hash-object', '-w', '--', this.scratch], { cwd: this.repo.top })).trim();
      }
      this.blobs.set(key, next);
    }
    const next = this.blobs.get(key);
    return next === undefined ? entry.sha : next;
  }
}

/**
 * The commits of HEAD and of Lore's daily tags, oldest first (parents before children). The
 * rewrite is deterministic (same tree, parents, authors, dates and message give the same commit),
 * so after a purge killed between moving the branch and the tags, the next run rewrites what the
 * tags still hold into the very commits the branch has.
 */
async function headCommits(repo: StoreRepo): Promise<string[]> {
  return (await git(['rev-list', '--topo-order', '--reverse', 'HEAD', '--glob=refs/tags/memory/*'], { cwd: repo.top }))
    .split('\n')
    .filter(Boolean);
}

/** Preview: the commits whose tree holds conversation `id`. Writes nothing. */
export async function planPurgeHistory(paths: StorePaths, id: string): Promise<PurgePlan> {
  const repo = await purgeableRepo(paths, id);
  if (typeof repo === 'string') return { status: 'refused', reason: repo };
  return (await scan(paths, repo, id, false)).plan;
}

async function scan(paths: StorePaths, repo: StoreRepo, id: string, write: boolean) {
  const shas = new Set(readLedger(paths.ledger).forgotten?.conversations[id]?.sha256 ?? []);
  const scratch = path.join(repo.gitDir, `lore-purge-${process.pid}-${randomBytes(4).toString('hex')}`);
  const rewriter = new Rewriter(repo, blobEdit(id, shas), scratch);
  const commits: PurgeCommit[] = [];
  const trees = new Map<string, Array<{ entry: TreeEntry; sha: string | null }>>();
  const all = await headCommits(repo);
  try {
    for (const commit of all) {
      const entries = await listTree(repo, commit);
      const mapped = [];
      const files: string[] = [];
      for (const entry of entries) {
        const sha = await rewriter.blob(entry, write);
        if (sha !== entry.sha) files.push(entry.file);
        mapped.push({ entry, sha });
      }
      if (files.length) {
        const subject = (await git(['log', '-1', '--format=%s', commit], { cwd: repo.top })).trim();
        commits.push({ commit, subject, files });
        trees.set(commit, mapped);
      }
    }
  } finally {
    removeNoFollow(scratch, { force: true });
  }
  const refs = (await git(['for-each-ref', '--format=%(refname)', '--contains', commits[0]?.commit ?? 'HEAD'], { cwd: repo.top }))
    .split('\n')
    .filter(Boolean);
  const branch = (await runGit(['symbolic-ref', '-q', 'HEAD'], { cwd: repo.top })).stdout.trim();
  const otherRefs = commits.length ? refs.filter((r) => r !== branch && !r.startsWith('refs/tags/memory/')) : [];
  return { plan: { status: 'ready', commits, total: all.length, otherRefs } as PurgePlan, trees, all, branch };
}

/**
 * Rewrites the history (see the module comment) under the store lock. The branch moves with a
 * compare-and-swap, so a commit made meanwhile stops the purge with nothing changed.
 */
export async function applyPurgeHistory(paths: StorePaths, id: string): Promise<PurgeResult> {
  const lock = await acquireStoreLock(paths.root);
  try {
    const repo = await purgeableRepo(paths, id);
    if (typeof repo === 'string') return { plan: { status: 'refused', reason: repo }, rewritten: 0 };
    const { plan, trees, all, branch } = await scan(paths, repo, id, true);
    if (plan.status !== 'ready' || plan.commits.length === 0) return { plan, rewritten: 0 };
    const oldHead = (await git(['rev-parse', 'HEAD'], { cwd: repo.top })).trim();
    const mapping = new Map<string, string>();
    const index = path.join(repo.gitDir, `lore-purge-index-${process.pid}-${randomBytes(4).toString('hex')}`);
    const message = path.join(repo.gitDir, `lore-purge-message-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      for (const commit of all) {
        const parents = (await git(['rev-list', '--parents', '-n', '1', commit], { cwd: repo.top })).trim().split(' ').slice(1);
        const newParents = parents.map((p) => mapping.get(p) ?? p);
        const mapped = trees.get(commit);
        if (!mapped && newParents.every((p, i) => p === parents[i])) continue; // Untouched, and so are its parents.
        let tree = (await git(['rev-parse', `${commit}^{tree}`], { cwd: repo.top })).trim();
        if (mapped) {
          // The commit's own tree in a temporary index, with the purged files changed or removed.
          const opts = { cwd: repo.top, env: { GIT_INDEX_FILE: index } };
          await git(['read-tree', commit], opts);
          const changed = mapped.filter((m) => m.sha !== m.entry.sha);
          for (let i = 0; i < changed.length; i += 200) {
            const slice = changed.slice(i, i + 200);
            const updates = slice.flatMap((m) => (m.sha === null ? [] : ['--cacheinfo', m.entry.mode, m.sha, m.entry.file]));
            const removals = slice.filter((m) => m.sha === null).map((m) => m.entry.file);
            if (updates.length) await git(['update-index', '--add', ...updates], opts);
            if (removals.length) await git(['update-index', '--force-remove', '--', ...removals], opts);
          }
          tree = (await git(['write-tree'], opts)).trim();
        }
        const [an, ae, ad, cn, ce, cd] = (
          await git(['log', '-1', '--format=%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd', '--date=raw', commit], { cwd: repo.top })
        )
          .replace(/\n$/, '')
          .split('\0');
        // eslint-disable-next-line no-restricted-properties -- a file of a new random name in git's own folder, not a store file
        fs.writeFileSync(message, (await git(['log', '-1', '--format=%B', commit], { cwd: repo.top })).replace(/\n+$/, '\n'));
        const env = {
          GIT_AUTHOR_NAME: an,
          GIT_AUTHOR_EMAIL: ae,
          GIT_AUTHOR_DATE: ad,
          GIT_COMMITTER_NAME: cn,
          GIT_COMMITTER_EMAIL: ce,
          GIT_COMMITTER_DATE: cd,
        };
        const next = (
          await git(['commit-tree', '--no-gpg-sign', tree, ...newParents.flatMap((p) => ['-p', p]), '-F', message], { cwd: repo.top, env })
        ).trim();
        mapping.set(commit, next);
      }
    } finally {
      removeNoFollow(index, { force: true });
      removeNoFollow(message, { force: true });
    }
    const newHead = mapping.get(oldHead) ?? oldHead;
    if (newHead !== oldHead)
      await git(['update-ref', '-m', `lore: purge conversation ${id} from history`, branch || 'HEAD', newHead, oldHead], { cwd: repo.top });
    crashPoint('moved the branch to the rewritten history');
    // Lore's daily tags follow their commits; other refs are the person's (the preview lists them).
    const tags = (await git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/tags/memory/'], { cwd: repo.top }))
      .split('\n')
      .filter(Boolean);
    for (const line of tags) {
      const [ref, sha] = line.split(' ');
      const moved = mapping.get(sha);
      if (moved) await git(['update-ref', ref, moved, sha], { cwd: repo.top });
    }
    // The index and work tree: the store's files already lack the conversation (forgotten first);
    // the index takes the new HEAD's entries for the files the rewrite changed there.
    const changedAtHead =
      trees
        .get(oldHead)
        ?.filter((m) => m.sha !== m.entry.sha)
        .map((m) => m.entry.file) ?? [];
    if (changedAtHead.length)
      await git(['reset', '-q', newHead, '--', ...changedAtHead.map((f) => `:(top,literal)${f}`)], { cwd: repo.top });
    // The old commits stay in the reflogs and as loose objects until pruned: prune them now.
    await git(['reflog', 'expire', '--expire=now', '--expire-unreachable=now', '--all'], { cwd: repo.top });
    await git(['gc', '--prune=now', '--quiet'], { cwd: repo.top });
    return { plan, rewritten: mapping.size, head: newHead };
  } finally {
    lock.release();
  }
}
