/**
 * The cache cost of a memory write. What Lore writes lands in what agents keep in their stable,
 * cached prompt prefix: digest.md, the digest block of the instruction files (AGENTS.md,
 * CLAUDE.md, copilot-instructions), the notes of files in scope. When a plan changes one of those,
 * every warm session of the workspace writes its prefix to the cache again on its next turn
 * (cache writes cost more than reads: 1.25× / 2× the input price against 0.1× on Anthropic). The
 * estimate is an upper bound: each warm session's whole last cached prefix; an agent that reads
 * a changed file only later re-writes less.
 */
import type { HarvestPlan } from '../../store/harvestPlan';
import { formatTokens } from '../../model/format';
import type { SessionCacheState } from './sessionCacheState';

/** A stable-prefix file a plan changes. */
export interface PrefixChange {
  /** Store-relative (`digest.md`, `files/…md`) or, for instruction files, workspace-relative. */
  file: string;
  kind: 'digest' | 'instructions' | 'notes';
}

/**
 * The stable-prefix files a plan changes: the digest, the instruction files whose block follows
 * it (`instructionFiles`: those that hold Lore's block, or are set to), the note files.
 */
export function prefixChanges(plan: Pick<HarvestPlan, 'changes'>, instructionFiles: readonly string[]): PrefixChange[] {
  const changes: PrefixChange[] = [];
  for (const change of plan.changes) {
    if (change.file === 'digest.md') {
      changes.push({ file: change.file, kind: 'digest' });
      for (const file of instructionFiles) changes.push({ file, kind: 'instructions' });
    } else if (change.file.startsWith('files/')) {
      changes.push({ file: change.file, kind: 'notes' });
    }
  }
  return changes;
}

/** What applying a plan now costs the warm sessions' caches. */
export interface RecacheEstimate {
  changes: PrefixChange[];
  /** Sessions warm now, with their cached prefix (prefixTokens). */
  warm: Array<Pick<SessionCacheState, 'tool' | 'path' | 'model' | 'prefixTokens' | 'expiresAt'>>;
  /** Tokens the warm sessions write to the cache again on their next turn (their last cached prefixes). */
  tokens: number;
  /** When the last of them expires, epoch ms: applying from then on costs no re-cache. */
  warmUntil?: number;
}

/** The estimate for a plan's changes against the sessions' states at the same moment. */
export function recacheEstimate(changes: PrefixChange[], sessions: readonly SessionCacheState[]): RecacheEstimate {
  const warm = changes.length ? sessions.filter((s) => s.status === 'warm' && s.expiresAt !== undefined) : [];
  return {
    changes,
    warm: warm.map((s) => ({ tool: s.tool, path: s.path, model: s.model, prefixTokens: s.prefixTokens, expiresAt: s.expiresAt })),
    tokens: warm.reduce((sum, s) => sum + s.prefixTokens, 0),
    warmUntil: warm.length ? Math.max(...warm.map((s) => s.expiresAt!)) : undefined,
  };
}

/** `digest.md, the Lore block of CLAUDE.md and 2 file notes`. */
export function prefixChangesText(changes: readonly PrefixChange[]): string {
  const digest = changes.some((c) => c.kind === 'digest') ? ['digest.md'] : [];
  const blocks = changes.filter((c) => c.kind === 'instructions').map((c) => c.file);
  const notes = changes.filter((c) => c.kind === 'notes').length;
  const parts = [
    ...digest,
    ...(blocks.length ? [`the Lore block of ${blocks.join(', ')}`] : []),
    ...(notes ? [`${notes} file note${notes === 1 ? '' : 's'}`] : []),
  ];
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts.join('');
}

/** `14:32` in the machine's time zone: what a person reads off their clock. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * The sentence the harvest preview shows: which stable-prefix files the plan changes and what
 * applying now costs ("applying now makes 2 warm sessions re-cache about 31K tokens; none is warm
 * after 14:32"). Empty when the plan changes none of them.
 */
export function recacheText(estimate: RecacheEstimate, options: { applied?: boolean; time?: (ms: number) => string } = {}): string {
  if (!estimate.changes.length) return '';
  const time = options.time ?? clockTime;
  const sessions = (n: number) => `${n} warm session${n === 1 ? '' : 's'}`;
  const n = estimate.warm.length;
  if (options.applied) {
    const what = `this harvest changed what agents keep in their cached prompt prefix (${prefixChangesText(estimate.changes)})`;
    return n === 0
      ? `${what}; no agent session of this workspace was warm`
      : `${what}; ${sessions(n)} re-cache about ${formatTokens(estimate.tokens)} tokens on their next turn`;
  }
  const what = `this plan changes what agents keep in their cached prompt prefix (${prefixChangesText(estimate.changes)})`;
  if (n === 0) return `${what}; no agent session of this workspace is warm now, so applying now costs no re-cache`;
  return `${what}; applying now makes ${sessions(n)} re-cache about ${formatTokens(estimate.tokens)} tokens on the next turn; none is warm after ${time(estimate.warmUntil!)}`;
}

/**
 * Before a plan exists (the dry run): the warm sessions a harvest that changes the prefix would
 * make re-cache. Empty when none is warm.
 */
export function warmSessionsText(sessions: readonly SessionCacheState[], time: (ms: number) => string = clockTime): string {
  const warm = sessions.filter((s) => s.status === 'warm' && s.expiresAt !== undefined);
  if (!warm.length) return '';
  const tokens = warm.reduce((sum, s) => sum + s.prefixTokens, 0);
  const until = Math.max(...warm.map((s) => s.expiresAt!));
  return `${warm.length} agent session${warm.length === 1 ? ' is' : 's are'} warm now (about ${formatTokens(tokens)} tokens cached; none after ${time(until)}): a harvest that changes the digest, an instruction block or file notes makes ${warm.length === 1 ? 'it' : 'them'} re-cache on the next turn`;
}
