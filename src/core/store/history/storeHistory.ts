/**
 * The store's history in git: every writer of the store calls recordStoreChange (holding the
 * store lock) after it wrote; depending on the mode the change is committed at once (`apply`),
 * batched until the first pending change is `intervalMinutes` old (`interval`), or nothing
 * happens (`off`, or no git, or no repository). Pending changes wait in `.logs/history.json`
 * (git-ignored), so a commit that git deferred (a rebase in progress) or that failed is made,
 * with every message, by the next one.
 *
 * Never throws and never undoes a write: a failure is logged to `.logs/history.log` and returned
 * as a warning for the caller to show.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../base/atomicWrite';
import { storeConfigForWrite } from '../storeConfig';
import { GIT_COMMIT_MODES, type GitCommitMode, type GitHistoryConfig } from '../../model/storeConfigFormat';
import { acquireStoreLock } from '../../base/storeLock';
import type { StorePaths } from '../storePaths';
import { appendLogLine } from '../cappedLog';
import { commitStore, type CommitOutcome } from './commitStore';
import { combineChanges, type StoreChange } from './commitMessage';
import { findStoreRepo, type StoreRepo } from './storeRepo';
import { lazy } from '../../base/lazy';
import { mkdirNoFollow } from '../../base/storeLinks';
import { pushAll, spliceAll } from '../../base/bulkArrays';
import { readStoreFile } from '../../base/readText';

const historyStateSchemaModule = lazy(() => require('./historyStateSchema') as typeof import('./historyStateSchema'));

export type { StoreChange } from './commitMessage';

/** What the history did after a write (undefined: history is off here). */
export interface HistoryOutcome {
  mode: GitCommitMode;
  /** The commits made now, oldest first. */
  commits: Array<{ commit: string; subject: string; files: string[] }>;
  /** Changes still waiting for a commit. */
  pending: number;
  /** Something went wrong or was deferred; the write itself stands. */
  warning?: string;
}

let modeOverride: GitCommitMode | undefined;

/**
 * The mode a host decides over config.json (VS Code's `lore.git.commit`); `undefined` gives the
 * choice back to the store. Child processes get it as `$LORE_GIT_COMMIT`.
 */
export function setGitCommitOverride(mode: GitCommitMode | undefined): void {
  modeOverride = mode;
}

function envMode(): GitCommitMode | undefined {
  const value = process.env.LORE_GIT_COMMIT;
  return (GIT_COMMIT_MODES as readonly string[]).includes(value ?? '') ? (value as GitCommitMode) : undefined;
}

/**
 * The commit mode: the host's override, else config.json's `git.commit`, else `apply` when the
 * store is its own repository (made for it by `lore init --git`) and `off` inside a workspace's
 * repository, whose branches and pull requests are the person's to fill.
 */
export function historyMode(config: GitHistoryConfig, repo: StoreRepo): GitCommitMode {
  return modeOverride ?? envMode() ?? config.commit ?? (repo.storeRel === '.' ? 'apply' : 'off');
}

type HistoryState = import('./historyStateSchema').HistoryState;

/** Where pending changes and the last commit are kept (git-ignored with .logs/). */
export function historyStateFile(paths: StorePaths): string {
  return path.join(paths.root, '.logs', 'history.json');
}

/** The history log: failures and deferrals. */
export function historyLogFile(paths: StorePaths): string {
  return path.join(paths.root, '.logs', 'history.log');
}

function readState(paths: StorePaths): HistoryState {
  try {
    // zod is loaded on first use (a large share of start-up for the CLI and the extension).
    const { historyStateSchema } = historyStateSchemaModule();
    const parsed = historyStateSchema.safeParse(JSON.parse(readStoreFile(historyStateFile(paths), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // None yet, or unreadable: start afresh (the commit picks up every change in the files anyway).
  }
  return { pending: [] };
}

function writeState(paths: StorePaths, state: HistoryState): void {
  mkdirNoFollow(path.dirname(historyStateFile(paths)));
  writeFileAtomic(historyStateFile(paths), JSON.stringify(state, null, 2) + '\n', { durable: false });
}

interface HistoryContext {
  repo: StoreRepo;
  mode: GitCommitMode;
  config: GitHistoryConfig;
}

/** The repository and mode, or undefined when nothing is to be done (off, no git, no repository). */
async function historyContext(paths: StorePaths): Promise<HistoryContext | undefined> {
  const config = storeConfigForWrite(paths.config).config.git;
  if ((modeOverride ?? envMode() ?? config.commit) === 'off') return undefined; // Not even a git call.
  const repo = await findStoreRepo(paths);
  if (!repo) return undefined;
  const mode = historyMode(config, repo);
  return mode === 'off' ? undefined : { repo, mode, config };
}

/**
 * Records changes a writer just made (the caller holds the store lock) and commits when the
 * mode says so. Undefined when history is off for this store.
 */
export async function recordStoreChange(
  paths: StorePaths,
  changes: StoreChange | StoreChange[],
  now = new Date(),
): Promise<HistoryOutcome | undefined> {
  // The personal layer is never committed, and its items never go into a commit message.
  if (paths.layer === 'personal') return undefined;
  const list = Array.isArray(changes) ? changes : [changes];
  try {
    const context = await historyContext(paths);
    if (!context) return undefined;
    const state = readState(paths);
    pushAll(
      state.pending,
      list.map((c) => ({ ...c, at: now.toISOString() })),
    );
    const oldest = state.pending.length ? Date.parse(state.pending[0].at) : now.getTime();
    const due = context.mode === 'apply' || now.getTime() - oldest >= context.config.intervalMinutes * 60_000;
    // Kept before git runs: a commit that fails or is killed leaves the messages for the next one.
    writeState(paths, state);
    return due ? await commitPending(paths, context, state, now) : { mode: context.mode, commits: [], pending: state.pending.length };
  } catch (error) {
    return failed(paths, error, now);
  }
}

/**
 * Commits what is pending (and whatever else changed in the store) now, taking the store lock:
 * the interval's timer, `lore commit`. `force` commits even before the interval is up.
 */
export async function flushStoreHistory(
  paths: StorePaths,
  options: { now?: Date; force?: boolean; lockTimeoutMs?: number } = {},
): Promise<HistoryOutcome | undefined> {
  const now = options.now ?? new Date();
  if (paths.layer === 'personal') return undefined;
  try {
    // A timer asks every minute: nothing waiting means no git process and no lock.
    if (!options.force && readState(paths).pending.length === 0) return undefined;
    const context = await historyContext(paths);
    if (!context) return undefined;
    const lock = await acquireStoreLock(paths.root, options.lockTimeoutMs);
    try {
      const state = readState(paths);
      const oldest = state.pending.length ? Date.parse(state.pending[0].at) : undefined;
      const due = options.force || (oldest !== undefined && now.getTime() - oldest >= context.config.intervalMinutes * 60_000);
      if (!due) return { mode: context.mode, commits: [], pending: state.pending.length };
      return await commitPending(paths, context, state, now, options.force);
    } finally {
      lock.release();
    }
  } catch (error) {
    return failed(paths, error, now);
  }
}

/**
 * The pending conversations' transcripts first (`conversation:`), then the rest of the store
 * with the other messages; what git deferred stays pending.
 */
async function commitPending(
  paths: StorePaths,
  context: HistoryContext,
  state: HistoryState,
  now: Date,
  everything = false,
): Promise<HistoryOutcome> {
  const outcome: HistoryOutcome = { mode: context.mode, commits: [], pending: 0 };
  const conversations = state.pending.filter((c) => c.type === 'conversation' && c.paths?.length);
  const rest = state.pending.filter((c) => !conversations.includes(c));
  const dailyTag = context.config.dailyTags ? now : undefined;
  const batches: Array<{ changes: StoreChange[]; paths?: string[] }> = [];
  const transcripts = [...new Set(conversations.flatMap((c) => c.paths!))].filter((p) => fs.existsSync(path.join(paths.root, p)));
  if (transcripts.length) batches.push({ changes: conversations, paths: transcripts });
  else spliceAll(rest, 0, 0, conversations);
  // The whole store: Lore's other changes, and on a forced flush whatever else changed in it.
  if (rest.length || everything) batches.push({ changes: rest, paths: undefined });
  const left: HistoryState['pending'] = [];
  for (const batch of batches) {
    const message = combineChanges(batch.changes);
    const result: CommitOutcome = await commitStore(context.repo, { ...message, paths: batch.paths, dailyTag });
    if (result.status === 'committed') {
      outcome.commits.push({ commit: result.commit, subject: message.subject, files: result.files });
      state.lastCommit = { commit: result.commit, at: now.toISOString() };
      if (result.warning) outcome.warning = result.warning;
    } else if (result.status === 'deferred') {
      pushAll(
        left,
        state.pending.filter((c) => (batch.changes as unknown[]).includes(c)),
      );
      outcome.warning = `not committed yet: ${result.reason}`;
      appendLogLine(historyLogFile(paths), `deferred "${message.subject}": ${result.reason}`, now);
    }
  }
  state.pending = left;
  outcome.pending = left.length;
  writeState(paths, state);
  return outcome;
}

function failed(paths: StorePaths, error: unknown, now: Date): HistoryOutcome {
  const message = (error as Error).message ?? String(error);
  appendLogLine(historyLogFile(paths), `commit failed: ${message}`, now);
  return {
    mode: 'apply',
    commits: [],
    pending: readState(paths).pending.length,
    warning: `the change is written but not committed to git: ${message} (see ${historyLogFile(paths)})`,
  };
}
