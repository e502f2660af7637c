import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { priceFor } from '../../../src/core/services/promptCache/modelPrices';
import { readSessionCalls, SessionCallsMemo } from '../../../src/core/services/promptCache/sessionCalls';
import { atMoment, sessionCacheState } from '../../../src/core/services/promptCache/sessionCacheState';
import { CORPUS, FIXTURES, makeTempDir } from '../../helpers/paths';

const CACHE = path.join(FIXTURES, 'cache');
const at = (iso: string) => Date.parse(iso);
const fixture = (name: string) => path.join(CACHE, name);
const close = (actual: number | undefined, expected: number) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${actual} ≈ ${expected}`);

describe('session prompt-cache state', () => {
  describe('Claude Code', () => {
    const calls = () => readSessionCalls('claude-code', fixture('claude-5m.jsonl'));

    it('counts a response split over repeated records once, with its final output count, and skips a cut line and synthetic notices', () => {
      const session = calls();
      assert.equal(session.malformed, 1);
      assert.equal(session.calls.length, 3, 'msg_01A (three records), msg_01B, the sidechain msg_01C; not the <synthetic> notice');
      assert.deepEqual(
        session.calls.map((c) => c.usage.outputTokens),
        [150, 40, 60],
      );
      const state = sessionCacheState(session, at('2026-03-10T10:04:00Z'));
      assert.deepEqual(state.usage, {
        inputTokens: 5010 + 5205 + 3004,
        uncachedInputTokens: 19,
        cacheReadTokens: 5000,
        cacheWriteTokens: 8200,
        outputTokens: 250,
      });
      assert.equal(state.hits, 1);
      close(state.hitRatio, 5000 / 13219);
    });

    it('is warm for 5 minutes after the main conversation’s last call that read or wrote the cache (a subagent’s later call has its own prefix)', () => {
      const state = sessionCacheState(calls(), at('2026-03-10T10:04:00Z'));
      assert.equal(state.status, 'warm');
      assert.equal(state.ttl, '5m');
      assert.equal(state.expiresAt, at('2026-03-10T10:06:00Z'));
      assert.equal(state.ttlLabel, '2:00');
      assert.equal(state.lastActivity, at('2026-03-10T10:02:30Z'), 'the last activity is any call, the subagent’s too');
      assert.equal(state.prefixTokens, 5200, 'what the main conversation’s last call read and wrote');
      assert.equal(state.model, 'claude-sonnet-4-5-20250929');
      assert.equal(sessionCacheState(calls(), at('2026-03-10T10:06:00Z')).status, 'expired');
      assert.equal(atMoment(state, at('2026-03-10T10:05:59Z')).ttlLabel, '0:01');
      assert.equal(atMoment(state, at('2026-03-10T10:06:00Z')).status, 'expired');
    });

    it('sees only the calls made by the moment it is asked about', () => {
      const state = sessionCacheState(calls(), at('2026-03-10T10:00:30Z'));
      assert.equal(state.calls, 1);
      assert.equal(state.hits, 0);
      assert.equal(state.ttlLabel, '4:30');
    });

    it('prices reads as savings and writes as a premium at the model’s list price', () => {
      const state = sessionCacheState(calls(), at('2026-03-10T10:04:00Z'));
      const sonnet = priceFor('claude-sonnet-4-5-20250929')!;
      close(state.money?.saved, (5000 * (sonnet.input - sonnet.cacheRead)) / 1e6);
      close(state.money?.writePremium, (8200 * (sonnet.cacheWrite5m! - sonnet.input)) / 1e6);
      assert.equal(state.moneyNote, undefined);
    });

    it('takes the 1-hour class when the session’s latest writes went to the 1-hour cache', () => {
      const session = readSessionCalls('claude-code', fixture('claude-1h.jsonl'));
      const warm = sessionCacheState(session, at('2026-03-10T10:30:00Z'));
      assert.equal(warm.status, 'warm');
      assert.equal(warm.ttl, '1h');
      assert.equal(warm.ttlLabel, '40:00');
      assert.equal(warm.cacheWrite1hTokens, 8300);
      const opus = priceFor('claude-opus-4-5-20251101')!;
      close(warm.money?.writePremium, (8300 * (opus.cacheWrite1h! - opus.input)) / 1e6);
      assert.equal(sessionCacheState(session, at('2026-03-10T11:10:00Z')).status, 'expired');
    });

    it('a session that writes but never reads: warm, never hit; one with no cache fields: never cached, no price said so', () => {
      const neverHit = sessionCacheState(readSessionCalls('claude-code', fixture('claude-never-hit.jsonl')), at('2026-03-10T10:05:00Z'));
      assert.equal(neverHit.status, 'warm');
      assert.equal(neverHit.ttl, '5m', 'no cache_creation breakdown: Claude Code’s default');
      assert.equal(neverHit.hits, 0);
      assert.equal(neverHit.hitRatio, 0);
      assert.equal(neverHit.expiresAt, at('2026-03-10T10:08:00Z'));
      const never = sessionCacheState(readSessionCalls('claude-code', fixture('claude-never-cached.jsonl')), at('2026-03-10T10:05:00Z'));
      assert.equal(never.status, 'never-cached');
      assert.equal(never.money, undefined);
      assert.match(never.moneyNote!, /no price for claude-experimental-9/);
    });

    it('reads a real session of the corpus: one call per distinct message id, expiry from its last call', () => {
      const file = path.join(CORPUS, 'claude-code-jsonl', 'cctrace-phase0-investigation.jsonl');
      const ids = new Map<string, { t: number; read: number }>();
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const r = JSON.parse(line);
        if (r.type === 'assistant' && r.message?.usage && !ids.has(r.message.id))
          ids.set(r.message.id, { t: Date.parse(r.timestamp), read: r.message.usage.cache_read_input_tokens });
      }
      const lastCall = Math.max(...[...ids.values()].map((v) => v.t));
      const state = sessionCacheState(readSessionCalls('claude-code', file), lastCall + 60_000);
      assert.equal(state.calls, ids.size);
      assert.equal(
        state.usage?.cacheReadTokens,
        [...ids.values()].reduce((n, v) => n + v.read, 0),
      );
      assert.equal(state.status, 'warm');
      assert.equal(state.expiresAt, lastCall + 5 * 60_000);
      assert.equal(state.ttlLabel, '4:00');
    });
  });

  describe('Codex', () => {
    it('one call per change of the running total, the model from turn_context; implicit caching is provider-managed, never a countdown', () => {
      const session = readSessionCalls('codex', fixture('codex-rollout.jsonl'));
      assert.equal(session.malformed, 1);
      assert.equal(session.calls.length, 2, 'info: null and the repeated totals are not calls');
      const state = sessionCacheState(session, at('2026-03-10T10:30:00Z'));
      assert.equal(state.status, 'provider-managed');
      assert.equal(state.ttl, 'implicit');
      assert.equal(state.ttlLabel, 'provider-managed');
      assert.equal(state.expiresAt, undefined);
      assert.equal(state.remainingMs, undefined);
      assert.equal(state.model, 'gpt-5.1-codex');
      assert.deepEqual(state.usage, {
        inputTokens: 19500,
        uncachedInputTokens: 10540,
        cacheReadTokens: 8960,
        cacheWriteTokens: 0,
        outputTokens: 900,
      });
      assert.equal(state.hits, 1);
      const price = priceFor('gpt-5.1-codex')!;
      close(state.money?.saved, (8960 * (price.input - price.cacheRead)) / 1e6);
      assert.equal(state.money?.writePremium, 0);
      assert.equal(sessionCacheState(session, at('2026-03-10T11:01:20Z')).status, 'expired', 'OpenAI drops an idle prefix within an hour');
    });

    it('reads the real rollout of the corpus', () => {
      const state = sessionCacheState(
        readSessionCalls('codex', path.join(CORPUS, 'codex-jsonl', 'privacy-x402-codex-session.jsonl')),
        at('2026-02-14T08:20:00Z'),
      );
      assert.equal(state.model, 'gpt-5.3-codex');
      assert.equal(state.status, 'provider-managed');
      assert.ok(state.calls > 1 && state.usage!.cacheReadTokens > 0 && state.usage!.cacheReadTokens < state.usage!.inputTokens);
    });
  });

  describe('Copilot Chat', () => {
    it('knows the prompt size where the request recorded it, and calls the cache unknown rather than guess', () => {
      const state = sessionCacheState(readSessionCalls('copilot-chat', fixture('copilot-chat.json')), at('2026-03-10T11:00:00Z'));
      assert.equal(state.status, 'unknown');
      assert.equal(state.ttlLabel, 'unknown');
      assert.equal(state.hitRatio, undefined);
      assert.equal(state.usage, undefined);
      assert.equal(state.money, undefined);
      assert.equal(state.calls, 2);
      assert.equal(state.inputTokens, 12000);
      assert.equal(state.model, 'claude-sonnet-4');
      assert.equal(state.lastActivity, 1773137100000 + 2000);
    });

    it('replays a session log, a line cut mid-write counted as malformed', () => {
      const session = readSessionCalls('copilot-chat', fixture('copilot-chat-log.jsonl'));
      assert.equal(session.calls.length, 1);
      assert.equal(session.malformed, 1);
      assert.equal(sessionCacheState(session, at('2026-03-10T11:00:00Z')).status, 'unknown');
    });
  });

  describe('bounded and incremental reading', () => {
    it('reads only the tail of a large file and says how much it skipped', () => {
      const full = readSessionCalls('claude-code', fixture('claude-5m.jsonl'));
      const tail = readSessionCalls('claude-code', fixture('claude-5m.jsonl'), { tailBytes: 1500 });
      assert.ok(tail.skippedBytes > 0);
      assert.ok(tail.calls.length < full.calls.length && tail.calls.length > 0);
    });

    it('reads only what was appended since the last read, a half-written line once it is complete', () => {
      const text = fs.readFileSync(fixture('claude-1h.jsonl'), 'utf8');
      const lines = text.split('\n');
      const file = path.join(makeTempDir('lore-cache-'), 'session.jsonl');
      const cut = lines[2].length >> 1;
      fs.writeFileSync(file, `${lines[0]}\n${lines[1]}\n${lines[2].slice(0, cut)}`);
      const memo = new SessionCallsMemo();
      const first = readSessionCalls('claude-code', file, { memo });
      assert.equal(first.calls.length, 1);
      fs.appendFileSync(file, `${lines[2].slice(cut)}\n`);
      const grown = readSessionCalls('claude-code', file, { memo });
      assert.equal(grown.calls.length, 2);
      assert.equal(first.calls.length, 1, 'a result handed out earlier does not change');
      assert.equal(grown.malformed, 0, 'the half line was left for the next read, not parsed');
      assert.deepEqual(grown.calls, readSessionCalls('claude-code', fixture('claude-1h.jsonl')).calls);
      // Replaced by a shorter file: read afresh.
      fs.writeFileSync(file, `${lines[0]}\n${lines[1]}\n`);
      assert.equal(readSessionCalls('claude-code', file, { memo }).calls.length, 1);
    });

    it('a missing file is reported, not thrown', () => {
      const session = readSessionCalls('codex', path.join(CACHE, 'nope.jsonl'));
      assert.ok(session.unreadable);
      assert.equal(sessionCacheState(session, Date.now()).status, 'unknown');
    });
  });

  describe('price table', () => {
    it('matches dated snapshots to their row, the longest id first, and leaves unknown models unpriced', () => {
      assert.equal(priceFor('claude-opus-4-5-20251101')?.input, 5);
      assert.equal(priceFor('claude-opus-4-20250514')?.input, 15);
      assert.equal(priceFor('claude-opus-4-1-20250805')?.input, 15);
      assert.equal(priceFor('claude-haiku-4-5-20251001')?.cacheRead, 0.1);
      assert.equal(priceFor('gpt-5.1-codex')?.cacheRead, 0.125);
      assert.equal(priceFor('gpt-5.3-codex')?.input, 1.75);
      assert.equal(priceFor('gpt-5.3-codex-spark'), undefined, 'a research preview is not the codex model’s price');
      assert.equal(priceFor('llama3'), undefined);
    });
  });
});
