/**
 * "When did I learn this?" (Autopoiesis §3.6): for an item id, the commit that added its line
 * and every later commit that changed it, read from git. Two questions to git, both about the
 * item's own line: `git blame` finds the commit that last wrote the line as it stands (and its
 * line number there), `git log -L` follows that line back through every change; `git log -S` on
 * the item's text adds the commits where that text appeared or went (a line added whole, moved
 * from another file). The conversation is the one the item's provenance names (with its stored
 * transcript) and the ones the adding commit's message names.
 */
import * as path from 'node:path';
import { findItemsById, type LocatedItem } from './itemLocator';
import { provenanceTarget } from './provenanceTarget';
import { readLedger } from '../ledger';
import { ledgerTitle } from '../../model/ledgerFormat';
import type { StorePaths } from '../storePaths';
import { conversationsOf } from '../history/commitMessage';
import { runGit } from '../history/git';
import { NOT_COMMITTED } from '../history/lineAuthors';
import { findStoreRepo, repoPath, storePathspec, type StoreRepo } from '../history/storeRepo';

/** One commit in an item's history. */
export interface ItemHistoryEvent {
  commit: string;
  /** Author date, ISO 8601. */
  date: string;
  author: string;
  /** The author's email ('' when git recorded none). */
  email: string;
  subject: string;
  /** `added`: the oldest commit that holds the line; `changed`: any later one. */
  kind: 'added' | 'changed';
  /** Conversations the commit's message names. */
  conversations: string[];
}

export interface ItemHistory {
  id: string;
  /** Where the item is now (the first place when it is written in several). */
  item?: LocatedItem;
  /** False when the store is in no repository (or git is missing): there is no history to tell. */
  git: boolean;
  /** The line as it stands is not committed yet (a change waiting for the next commit). */
  uncommitted: boolean;
  /** Oldest first. */
  events: ItemHistoryEvent[];
  /**
   * Who added the item: the git author of the oldest commit that holds its line (the `added`
   * event). Read from git when shown, never written into the item's line.
   */
  addedBy?: AddedBy;
  /** The conversation the item's provenance names, and its stored transcript (store-relative) when kept. */
  conversation?: { source: string; date: string; transcript?: string; title?: string };
}

/** The author of the commit that added an item's line. */
export interface AddedBy {
  author: string;
  email: string;
  /** Author date, ISO 8601. */
  date: string;
  commit: string;
}

const FIELD = '\x1f';
const RECORD = '\x1e';
const LOG_FORMAT = `--format=%H${FIELD}%aI${FIELD}%an${FIELD}%ae${FIELD}%s${FIELD}%b${RECORD}`;
/** Store paths that repeat or quote items without being where they are kept. */
const NOT_KNOWLEDGE = ['transcripts', 'journal', 'archive', 'inbox', 'digest.md', 'ledger.json'];

function parseLog(stdout: string): Array<Omit<ItemHistoryEvent, 'kind'>> {
  return stdout
    .split(RECORD)
    .map((r) => r.replace(/^\n+/, ''))
    .filter(Boolean)
    .map((record) => {
      const [commit, date, author, email, subject, body = ''] = record.split(FIELD);
      return { commit, date, author, email, subject, conversations: conversationsOf(body) };
    });
}

/** The commit that last wrote line `line` (1-based) of the file as it is on disk, and its line number there. */
async function blameLine(repo: StoreRepo, file: string, line: number): Promise<{ commit: string; line: number } | undefined> {
  const result = await runGit(['blame', '--porcelain', '-L', `${line},${line}`, '--', file], { cwd: repo.top });
  if (result.code !== 0) return undefined; // Not tracked yet.
  const [commit, original] = result.stdout.split('\n')[0].split(' ');
  return { commit, line: Number(original) };
}

/** The history of item `id` (undefined when no such item is written in the store). */
export async function itemHistory(paths: StorePaths, id: string): Promise<ItemHistory | undefined> {
  const item = findItemsById(paths, id)[0];
  if (!item) return undefined;
  const conversation = item.provenance ? conversationOf(paths, item) : undefined;
  const base: ItemHistory = { id: item.id, item, git: false, uncommitted: false, events: [], ...(conversation ? { conversation } : {}) };
  const repo = await findStoreRepo(paths);
  if (!repo) return base;
  const file = repoPath(repo, item.file);
  const blamed = await blameLine(repo, file, item.line);
  const uncommitted = !blamed || NOT_COMMITTED.test(blamed.commit);
  const found = new Map<string, Omit<ItemHistoryEvent, 'kind'>>();
  if (blamed && !uncommitted) {
    const lines = await runGit(['log', '-s', LOG_FORMAT, `-L${blamed.line},${blamed.line}:${file}`, blamed.commit], { cwd: repo.top });
    if (lines.code === 0) for (const e of parseLog(lines.stdout)) found.set(e.commit, e);
  }
  // The text wherever it is in the store: when it first appeared (in another file, before a move).
  const store = storePathspec(repo);
  // Knowledge files only: a transcript quotes the conversation the item came from, the journal
  // and the digest repeat items; none of them is where the item was learned.
  const elsewhere = NOT_KNOWLEDGE.map((p) => storePathspec(repo, p).replace(/^:\(/, ':(exclude,'));
  const pickaxe = await runGit(['log', LOG_FORMAT, `-S${item.text}`, '--', store, ...elsewhere], { cwd: repo.top });
  if (pickaxe.code === 0) for (const e of parseLog(pickaxe.stdout)) if (!found.has(e.commit)) found.set(e.commit, e);
  // Oldest first in the order of the history itself (commits made in one second tie on dates).
  const order = (await runGit(['rev-list', '--topo-order', '--reverse', 'HEAD', '--', store], { cwd: repo.top })).stdout.split('\n');
  const rank = (commit: string) => order.indexOf(commit);
  const events = [...found.values()].sort((a, b) => rank(a.commit) - rank(b.commit));
  const added = events[0];
  return {
    ...base,
    git: true,
    uncommitted,
    events: events.map((e, i) => ({ ...e, kind: i === 0 ? 'added' : 'changed' })),
    ...(added ? { addedBy: { author: added.author, email: added.email, date: added.date, commit: added.commit } } : {}),
  };
}

function conversationOf(paths: StorePaths, item: LocatedItem): ItemHistory['conversation'] {
  const { source, date } = item.provenance!;
  const target = provenanceTarget(paths, source, item.raw);
  const transcript = target.kind === 'transcript' ? path.relative(paths.root, target.file).split(path.sep).join('/') : undefined;
  const title = readTitle(paths, source);
  return { source, date, ...(transcript ? { transcript } : {}), ...(title ? { title } : {}) };
}

/** The conversation's title as the ledger keeps it; undefined when the ledger has none or cannot be read. */
function readTitle(paths: StorePaths, source: string): string | undefined {
  try {
    return ledgerTitle(readLedger(paths.ledger), source);
  } catch {
    return undefined;
  }
}

/** Characters of a commit subject a summary keeps (subjects can be a person's own long messages). */
const SUBJECT_CHARS = 200;

/** When an item was learned, in short: what the hover and MCP search by ids show. */
export interface LearnedSummary {
  /** The commit that added it and its author (undefined: not committed yet). */
  added?: { commit: string; date: string; subject: string; author: string };
  /** The conversation its provenance names. */
  conversation?: string;
  /** Its stored transcript, store-relative. */
  transcript?: string;
  /** Commits that changed it since, and the last of them. */
  changes: number;
  lastChange?: { commit: string; date: string; subject: string };
  /** Its line as it stands is not committed yet. */
  uncommitted: boolean;
}

function short(event: ItemHistoryEvent): { commit: string; date: string; subject: string } {
  return {
    commit: event.commit,
    date: event.date,
    subject: event.subject.length > SUBJECT_CHARS ? `${event.subject.slice(0, SUBJECT_CHARS)}…` : event.subject,
  };
}

/** The summary of a history (undefined without git: there is nothing to tell). */
export function learnedSummary(history: ItemHistory): LearnedSummary | undefined {
  if (!history.git) return undefined;
  const [added, ...changes] = history.events;
  return {
    ...(added ? { added: { ...short(added), author: added.author } } : {}),
    ...(history.conversation ? { conversation: history.conversation.source } : {}),
    ...(history.conversation?.transcript ? { transcript: history.conversation.transcript } : {}),
    changes: changes.length,
    ...(changes.length ? { lastChange: short(changes[changes.length - 1]) } : {}),
    uncommitted: history.uncommitted,
  };
}
