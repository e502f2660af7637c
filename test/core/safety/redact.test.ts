import * as assert from 'node:assert/strict';
import { findSecretKinds, redactDeep, redactSecrets } from '../../../src/core/safety/redact';

describe('secret redaction', () => {
  const cases: Array<[string, string, string]> = [
    ['openai-key', 'key sk-proj-Ab3dEf6hIj-kLmN0pQrStUvWxYz_123456789 here', 'sk-proj-Ab3dEf6hIj'],
    ['openai-key', 'OPENAI sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD', 'sk-abcdefghijklmnop'],
    ['anthropic-key', 'use sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abc', 'sk-ant-api03'],
    ['github-token', 'token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', 'ghp_0123'],
    ['github-token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ', 'github_pat_11'],
    ['aws-access-key-id', 'aws AKIAIOSFODNN7EXAMPLE ok', 'AKIAIOSFODNN7EXAMPLE'],
    ['bearer-token', 'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9abcdefghijkl"', 'eyJhbGciOiJIUzI1NiJ9abc'],
    ['url-password', 'postgres://admin:hunter2hunter2@db.example.com:5432/app', 'hunter2hunter2'],
    ['private-key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----', 'MIIEow'],
    ['secret-assignment', 'RAILWAY_TOKEN=4f9c2b7e-1a2b-4c3d-9e8f-0a1b2c3d4e5f npm start', '4f9c2b7e'],
  ];
  for (const [kind, text, secret] of cases) {
    it(`redacts ${kind}: ${text.slice(0, 30)}…`, () => {
      const out = redactSecrets(text);
      assert.ok(!out.includes(secret), out);
      assert.match(out, /\[REDACTED:[a-z-]+\]/);
      assert.ok(findSecretKinds(text).length > 0);
    });
  }

  it('keeps ordinary text and the non-secret context', () => {
    const text = 'Use the sk- prefix check; see https://example.com/docs and user@example.com. token count: 42';
    assert.equal(redactSecrets(text), text);
    assert.equal(redactSecrets('postgres://admin:pw1234567@db/x'), 'postgres://admin:[REDACTED:password]@db/x');
    assert.equal(redactSecrets('Authorization: Bearer abcdefghijklmnop1234'), 'Authorization: Bearer [REDACTED:bearer-token]');
  });

  it('redacts every string in a nested value', () => {
    const value = redactDeep({ facts: [{ statement: 'key is AKIAIOSFODNN7EXAMPLE', n: 3 }] });
    assert.deepEqual(value, { facts: [{ statement: 'key is [REDACTED:aws-access-key-id]', n: 3 }] });
  });
});
