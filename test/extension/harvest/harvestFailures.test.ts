/**
 * A harvest's failures in words (src/extension/harvest/harvestFailures.ts, no vscode import): the
 * messages come from core's own classifier, as runHarvest records them, so a change of wording
 * there that loses the reason shows here.
 */
import * as assert from 'node:assert/strict';
import { timeoutError, toProviderError } from '../../../src/core/services/providers/providerErrors';
import type { ConversationOutcome } from '../../../src/core/store/harvestPlan';
import { failureReason, failuresSentence } from '../../../src/extension/harvest/harvestFailures';

const context = { endpoint: 'http://127.0.0.1:9/v1', timeoutMs: 60_000, authHint: 'check that OPENAI_API_KEY holds a valid key' };

function refused(): string {
  const socket = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  return toProviderError('openai', Object.assign(new TypeError('fetch failed'), { cause: socket }), context).message;
}

function failed(path: string, error: string): ConversationOutcome {
  return { path, inInbox: true, sha256: path, bytes: 1, mtimeMs: 0, class: 'harvest', status: 'harvest-failed', error };
}

describe('harvest failures in words', () => {
  it('an unreachable server: where, why in words, and the setting to check', () => {
    assert.deepEqual(failureReason(refused()), {
      kind: 'unreachable',
      reason: 'Could not reach http://127.0.0.1:9/v1 (connection refused)',
      advice: 'check lore.baseUrl, or choose another way to distill',
    });
  });

  it('a refused key, a timeout and an unreadable reply each say what to do', () => {
    const auth = failureReason(toProviderError('openai', Object.assign(new Error('401 bad key'), { status: 401 }), context).message);
    assert.equal(auth.kind, 'auth');
    assert.match(auth.reason, /^The provider refused the key: authentication failed \(HTTP 401\)/);
    assert.match(auth.advice, /Lore: Set API Key…/);
    const slow = failureReason(timeoutError('openai', 60_000).message);
    assert.deepEqual([slow.kind, slow.reason], ['timeout', 'No reply within 60 s']);
    assert.match(slow.advice, /lore\.timeoutSeconds/);
    const invalid = failureReason('harvest output invalid after 2 attempts: facts: expected array');
    assert.equal(invalid.kind, 'invalid-reply');
    assert.match(invalid.reason, /^The model's reply could not be read \(2 tries; facts: expected array\)/);
  });

  it('an unknown message is kept, without the provider prefix, and points to the log', () => {
    const other = failureReason('vscode-lm: the model is not available in this region');
    assert.deepEqual([other.kind, other.reason], ['other', 'The model is not available in this region']);
  });

  it('one sentence for the message: the count and the reason most share', () => {
    const text = failuresSentence([failed('/a.jsonl', refused()), failed('/b.jsonl', refused()), failed('/c.jsonl', refused())]).text;
    assert.equal(
      text,
      '3 conversations could not be distilled. Could not reach http://127.0.0.1:9/v1 (connection refused): check lore.baseUrl, or choose another way to distill.',
    );
    const mixed = failuresSentence([
      failed('/a.jsonl', refused()),
      failed('/b.jsonl', timeoutError('openai', 1000).message),
      failed('/c', refused()),
    ]);
    assert.match(mixed.text, /^3 conversations could not be distilled\. Could not reach .*\(1 more reason in the log\)\.$/);
    assert.equal(mixed.kind, 'unreachable');
    assert.deepEqual(failuresSentence([{ ...failed('/a', ''), status: 'harvested' }]), { text: '' });
  });
});
