import * as assert from 'node:assert/strict';
import { ProviderError } from '../../../src/core/services/providers/provider';
import { toProviderError, type ErrorContext } from '../../../src/core/services/providers/providerErrors';

const context: ErrorContext = { endpoint: 'http://127.0.0.1:1/v1', timeoutMs: 2500, authHint: 'check OPENAI_API_KEY' };

function classify(error: unknown): ProviderError {
  return toProviderError('openai', error, context);
}

function withStatus(status: number, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { status, ...extra });
}

describe('providerErrors', () => {
  it('maps HTTP statuses to kinds with advice', () => {
    assert.equal(classify(withStatus(401, '401 bad key')).kind, 'auth');
    assert.match(classify(withStatus(401, '401 bad key')).message, /authentication failed \(HTTP 401\): bad key; check OPENAI_API_KEY/);
    assert.equal(classify(withStatus(403, 'nope')).kind, 'auth');
    assert.equal(classify(withStatus(429, 'slow down')).kind, 'rate-limit');
    assert.equal(classify(withStatus(500, 'boom')).kind, 'server');
    assert.equal(classify(withStatus(503, 'down')).kind, 'server');
    assert.equal(classify(withStatus(529, 'overloaded')).kind, 'server');
    assert.equal(classify(withStatus(400, 'bad')).kind, 'bad-request');
    assert.equal(classify(withStatus(504, 'gateway')).kind, 'timeout');
    assert.equal(classify(withStatus(429, 'x')).status, 429);
  });

  it('treats Gemini’s 400 API_KEY_INVALID as auth', () => {
    const body = { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } };
    assert.equal(classify(withStatus(400, JSON.stringify(body))).kind, 'auth');
  });

  it('reads the server message from the shapes the SDKs use', () => {
    // @google/genai: the message is the JSON error body.
    const gemini = withStatus(429, JSON.stringify({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } }));
    assert.match(classify(gemini).message, /rate limited \(HTTP 429\): Quota exceeded; wait and run the harvest again/);
    // ollama: ResponseError with status_code and error.
    const ollama = Object.assign(new Error('model not found'), { status_code: 404, error: 'model not found' });
    assert.match(classify(ollama).message, /not found \(HTTP 404\): model not found/);
    // anthropic: apiMessage.
    const anthropic = withStatus(500, '500 {"type":"error"}', { apiMessage: 'Internal server error' });
    assert.match(classify(anthropic).message, /server error \(HTTP 500\): Internal server error/);
  });

  it('maps connection failures found down the cause chain to unavailable', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const error = classify(new Error('Connection error.', { cause: refused }));
    assert.equal(error.kind, 'unavailable');
    assert.match(error.message, /cannot reach http:\/\/127\.0\.0\.1:1\/v1 \(connection refused\)/);
    const dns = new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }) });
    assert.equal(classify(dns).kind, 'unavailable');
    assert.match(classify(dns).message, /\(no such host\)/);
    const blocked = new TypeError('fetch failed', { cause: new Error('bad port') });
    assert.match(classify(blocked).message, /cannot reach .* \(a port fetch never connects to\)/);
  });

  it('maps SDK timeouts to timeout', () => {
    const timeout = Object.assign(new Error('Request timed out.'), { name: 'APIConnectionTimeoutError' });
    const error = classify(timeout);
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /no reply within 2\.5 s/);
  });

  it('passes ProviderErrors through and keeps the original as cause', () => {
    const original = new ProviderError('openai', 'cancelled', 'x');
    assert.equal(classify(original), original);
    const raw = withStatus(500, 'boom');
    assert.equal(classify(raw).cause, raw);
  });

  it('classifies an unknown failure as bad-request with its message', () => {
    const error = classify(new Error('something odd'));
    assert.equal(error.kind, 'bad-request');
    assert.match(error.message, /unexpected error: something odd/);
  });
});
