import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prefixChanges, recacheEstimate, recacheText, warmSessionsText } from '../../../src/core/services/promptCache/prefixCost';
import { readSessionCalls } from '../../../src/core/services/promptCache/sessionCalls';
import { sessionCacheState } from '../../../src/core/services/promptCache/sessionCacheState';
import { instructionFilesWithBlock, syncInstructionFiles } from '../../../src/core/store/instructionSync';
import { FIXTURES, makeTempDir } from '../../helpers/paths';

const CACHE = path.join(FIXTURES, 'cache');
const utc = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The fixture sessions at 10:04 UTC: two Claude Code sessions warm, a Codex one provider-managed, a Copilot one unknown. */
function sessionsAt(iso: string) {
  const now = Date.parse(iso);
  return [
    sessionCacheState(readSessionCalls('claude-code', path.join(CACHE, 'claude-5m.jsonl')), now),
    sessionCacheState(readSessionCalls('claude-code', path.join(CACHE, 'claude-1h.jsonl')), now),
    sessionCacheState(readSessionCalls('codex', path.join(CACHE, 'codex-rollout.jsonl')), now),
    sessionCacheState(readSessionCalls('copilot-chat', path.join(CACHE, 'copilot-chat.json')), now),
  ];
}

const plan = {
  changes: [{ file: 'facts.md' }, { file: 'digest.md' }, { file: 'files/2049-1234.md' }, { file: 'files/2049-5678.md' }] as never,
};

describe('the cache cost of a memory write', () => {
  it('names the stable-prefix files a plan changes: the digest, the instruction blocks that follow it, file notes (not category files)', () => {
    const changes = prefixChanges(plan, ['CLAUDE.md']);
    assert.deepEqual(
      changes.map((c) => [c.kind, c.file]),
      [
        ['digest', 'digest.md'],
        ['instructions', 'CLAUDE.md'],
        ['notes', 'files/2049-1234.md'],
        ['notes', 'files/2049-5678.md'],
      ],
    );
    assert.deepEqual(prefixChanges({ changes: [{ file: 'facts.md' }] as never }, ['CLAUDE.md']), []);
  });

  it('estimates what the warm sessions re-cache on their next turn and when none is warm any more', () => {
    const estimate = recacheEstimate(prefixChanges(plan, ['CLAUDE.md']), sessionsAt('2026-03-10T10:04:00Z'));
    assert.equal(estimate.warm.length, 2, 'the Claude Code sessions; Codex is provider-managed, Copilot unknown');
    // Their last cached prefixes: 5,200 (5-minute session) and 8,000 (1-hour session, its first call only by 10:04).
    assert.equal(estimate.tokens, 5200 + 8000);
    assert.equal(estimate.warmUntil, Date.parse('2026-03-10T11:00:00Z'));
    assert.equal(
      recacheText(estimate, { time: utc }),
      'this plan changes what agents keep in their cached prompt prefix (digest.md, the Lore block of CLAUDE.md and 2 file notes); applying now makes 2 warm sessions re-cache about 13K tokens on the next turn; none is warm after 11:00',
    );
    assert.match(recacheText(estimate, { applied: true, time: utc }), /; 2 warm sessions re-cache about 13K tokens on their next turn$/);
  });

  it('says applying costs nothing when no session is warm, and nothing at all when the plan leaves the prefix alone', () => {
    const later = recacheEstimate(prefixChanges(plan, []), sessionsAt('2026-03-10T12:00:00Z'));
    assert.equal(later.warm.length, 0);
    assert.match(
      recacheText(later),
      /\(digest\.md and 2 file notes\); no agent session of this workspace is warm now, so applying now costs no re-cache$/,
    );
    assert.equal(recacheText(recacheEstimate([], sessionsAt('2026-03-10T10:04:00Z'))), '');
  });

  it('before a plan exists, names the warm sessions a harvest would make re-cache', () => {
    assert.equal(
      warmSessionsText(sessionsAt('2026-03-10T10:04:00Z'), utc),
      '2 agent sessions are warm now (about 13K tokens cached; none after 11:00): a harvest that changes the digest, an instruction block or file notes makes them re-cache on the next turn',
    );
    assert.equal(warmSessionsText(sessionsAt('2026-03-10T12:00:00Z')), '');
  });

  it('finds the instruction files that hold Lore’s block', () => {
    const ws = makeTempDir('lore-prefix-');
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), '# Agents\n');
    fs.writeFileSync(path.join(ws, 'CLAUDE.md'), '# Claude\n');
    syncInstructionFiles(ws, ['CLAUDE.md'], '# Knowledge digest\n\n- a fact\n');
    assert.deepEqual(instructionFilesWithBlock(ws), ['CLAUDE.md']);
  });
});
