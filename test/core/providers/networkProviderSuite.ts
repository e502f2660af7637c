/**
 * The behaviour every network provider shares, run against its loopback stub: replies and usage,
 * error classification, deadline, cancellation, and the stable-first prompt order.
 */

import * as assert from 'node:assert/strict';
import {
  ProviderError,
  type ModelRequest,
  type Provider,
  type ProviderOptions,
  type TokenUsage,
} from '../../../src/core/services/providers/provider';
import { eventually } from '../../helpers/eventually';
import { closedPortBaseUrl, startStub, type StubKind, type StubServer, type StubStep } from '../../helpers/stubServers';

/** How a provider under test is built and what it should report. */
export interface NetworkProviderSpec {
  kind: StubKind;
  make(options: ProviderOptions): Provider;
  /** Model used when none is configured. */
  defaultModel: string;
  /** Expected usage for a reply forced to input 1200, output 34, cache read 1000, cache write 0. */
  expectedUsage: TokenUsage;
  /** Requests the client makes for a 429 before giving up (1 + SDK retries). */
  attemptsOn429: number;
}

/** A request with a recognisable stable part and volatile part. */
export function sampleRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    task: 'harvest',
    instructions: 'STABLE-INSTRUCTIONS: extract the items as JSON.',
    content: '## 10:00 — user\nVOLATILE-CONTENT: we chose SQLite.',
    model: 'stub-model-1',
    timeoutMs: 10_000,
    ...overrides,
  };
}

/** Awaits a rejection and returns it as a ProviderError (fails the test otherwise). */
export async function expectProviderError(promise: Promise<unknown>, kind: ProviderError['kind']): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
    assert.equal(error.kind, kind, `expected kind ${kind}, got ${error.kind}: ${error.message}`);
    return error;
  }
  assert.fail(`expected a ProviderError of kind ${kind}, but the call succeeded`);
}

/** Registers the shared tests for one provider. */
export function describeNetworkProvider(spec: NetworkProviderSpec): void {
  let stub: StubServer | undefined;
  const start = async (steps: StubStep[]): Promise<{ stub: StubServer; provider: Provider }> => {
    stub = await startStub(spec.kind, steps);
    return { stub, provider: spec.make({ baseUrl: stub.baseUrl, env: {} }) };
  };
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('returns the reply text, the model and the mapped usage', async () => {
    const { provider } = await start([{ reply: '{"facts":[]}', usage: { input: 1200, output: 34, cacheRead: 1000, cacheWrite: 0 } }]);
    const reply = await provider.generate(sampleRequest());
    assert.equal(reply.text, '{"facts":[]}');
    assert.equal(reply.model, 'stub-model-1');
    assert.deepEqual(stripUndefined(reply.usage), stripUndefined(spec.expectedUsage));
  });

  it('returns a fenced JSON reply verbatim (parsing is the caller’s job)', async () => {
    const fenced = '```json\n{"facts":[{"statement":"x"}]}\n```';
    const { provider } = await start([{ reply: fenced }]);
    assert.equal((await provider.generate(sampleRequest())).text, fenced);
  });

  it('sends the stable instructions as the system part and content + suffix as the user part', async () => {
    const { stub: s, provider } = await start([{ reply: '{}' }]);
    await provider.generate(sampleRequest({ suffix: '\nRETRY-SUFFIX\n' }));
    assert.equal(s.requests.length, 1);
    const prompt = s.requests[0].prompt;
    assert.equal(prompt.model, 'stub-model-1');
    assert.equal(prompt.system, 'STABLE-INSTRUCTIONS: extract the items as JSON.');
    assert.equal(prompt.user, '## 10:00 — user\nVOLATILE-CONTENT: we chose SQLite.\nRETRY-SUFFIX\n');
    // Gemini's SDK writes `contents` before `systemInstruction`; the API puts the system part first.
    if (spec.kind !== 'gemini') {
      const raw = JSON.stringify(s.requests[0].body);
      assert.ok(raw.indexOf('STABLE-INSTRUCTIONS') < raw.indexOf('VOLATILE-CONTENT'), 'instructions must precede content in the body');
    }
  });

  it('maps HTTP 429 to rate-limit after a limited number of attempts', async () => {
    const steps: StubStep[] = Array.from({ length: 4 }, () => ({ status: 429 }));
    const { stub: s, provider } = await start(steps);
    const error = await expectProviderError(provider.generate(sampleRequest()), 'rate-limit');
    assert.equal(error.status, 429);
    assert.match(error.message, /rate limited \(HTTP 429\).*wait and run the harvest again/);
    assert.equal(s.requests.length, spec.attemptsOn429);
  });

  it('maps HTTP 500 to server', async () => {
    const { provider } = await start(Array.from({ length: 4 }, () => ({ status: 500 })));
    const error = await expectProviderError(provider.generate(sampleRequest()), 'server');
    assert.equal(error.status, 500);
  });

  it('maps HTTP 401 to auth without retrying', async () => {
    const { stub: s, provider } = await start([{ status: 401 }, { reply: 'should not be reached' }]);
    const error = await expectProviderError(provider.generate(sampleRequest()), 'auth');
    assert.equal(error.status, 401);
    assert.equal(s.requests.length, 1);
  });

  it('maps HTTP 404 to bad-request with advice about the model name', async () => {
    const { provider } = await start([{ status: 404 }]);
    const error = await expectProviderError(provider.generate(sampleRequest()), 'bad-request');
    assert.match(error.message, /model name/);
  });

  it('gives up on a hanging server at the deadline with timeout', async () => {
    const { stub: s, provider } = await start([{ hang: true }, { hang: true }, { hang: true }]);
    // The hangs never end: the call returns at all only because the deadline fired.
    await expectProviderError(provider.generate(sampleRequest({ timeoutMs: 300 })), 'timeout');
    await eventually(
      () => (s.requests.length > 0 && s.requests.every((r) => r.droppedByClient)) || undefined,
      2_000,
      'the client to drop the timed-out request',
    );
  });

  it('stops with cancelled when the caller aborts mid-call', async () => {
    const { stub: s, provider } = await start([{ hang: true }]);
    const controller = new AbortController();
    const call = expectProviderError(provider.generate(sampleRequest({ signal: controller.signal, timeoutMs: 60_000 })), 'cancelled');
    // Abort once the request is in flight (the server has it), not after a guessed delay.
    await eventually(() => s.requests.length === 1 || undefined, 2_000, 'the request to reach the server');
    controller.abort();
    await call;
    assert.equal(s.requests.length, 1, 'no retry after the abort');
    // The abort must reach the transport, not only stop the wait.
    await eventually(() => s.requests[0].droppedByClient || undefined, 2_000, 'the client to drop the cancelled request');
  });

  it('does not call the server when the signal is already aborted', async () => {
    const { stub: s, provider } = await start([{ reply: '{}' }]);
    await expectProviderError(provider.generate(sampleRequest({ signal: AbortSignal.abort() })), 'cancelled');
    assert.equal(s.requests.length, 0);
  });

  it('maps connection refused to unavailable, naming the endpoint', async () => {
    const baseUrl = await closedPortBaseUrl(spec.kind);
    const provider = spec.make({ baseUrl, env: {} });
    const error = await expectProviderError(provider.generate(sampleRequest()), 'unavailable');
    assert.ok(error.message.includes(baseUrl), error.message);
  });

  it('labels itself with the model and endpoint', async () => {
    const { stub: s, provider } = await start([]);
    assert.equal(provider.label, `${spec.kind} ${spec.defaultModel} @ ${s.baseUrl}`);
    assert.equal(provider.offline, false);
    assert.equal(spec.make({ baseUrl: s.baseUrl, model: 'other-model', env: {} }).label, `${spec.kind} other-model @ ${s.baseUrl}`);
  });
}

function stripUndefined(usage: TokenUsage | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(usage ?? {}).filter(([, v]) => v !== undefined)) as Record<string, number>;
}
