import * as assert from 'node:assert/strict';
import { findSecretKinds, redactDeep, redactSecrets } from '../../../src/core/model/safety/redact';
import { SECRET_RULES } from '../../../src/core/model/safety/secretRules';
import { ALNUM, HEX, URLSAFE, cat, fake, secretSamples } from './secretSamples';

describe('secret redaction', () => {
  const samples = secretSamples();

  it('has at least 40 specific kinds besides the generic ones, each with a sample', () => {
    const kinds = SECRET_RULES.map((r) => r.kind);
    assert.equal(new Set(kinds).size, kinds.length, 'kinds are unique');
    const generic = new Set([
      'password-assignment',
      'secret-assignment',
      'cli-password-flag',
      'url-password',
      'bearer-token',
      'basic-auth',
    ]);
    assert.ok(kinds.filter((k) => !generic.has(k)).length >= 40, `${kinds.length} kinds`);
    const sampled = new Set(samples.map((s) => s.kind));
    assert.deepEqual(
      kinds.filter((k) => !sampled.has(k)),
      [],
      'every kind has a sample',
    );
  });

  for (const { kind, text, secret } of secretSamples()) {
    it(`redacts ${kind}: ${text.slice(0, 24).replace(/\n/g, ' ')}…`, () => {
      const out = redactSecrets(text);
      assert.ok(!out.includes(secret), out);
      assert.ok(out.includes(`[REDACTED:${kind}]`), out);
      assert.ok(findSecretKinds(text).includes(kind), findSecretKinds(text).join());
      assert.equal(redactSecrets(out), out, 'idempotent');
    });
  }

  // A token glued to an identifier by `-` or `_` (a session id `sess-sk-ant-…`, a file name
  // `id_ghp_….md`) is still the token. Every sample whose secret stands alone in its text (not
  // inside a URL, a quoted JSON value or after a name, whose context the glue would break) is glued
  // on each side in turn.
  const glues: Array<[string, string]> = [
    ['sess-', ''],
    ['id_', ''],
    ['', '_notes'],
    ['', '-2026'],
    ['a-', '-b'],
    ['a_', '_b'],
  ];
  const tokenKinds = new Set(SECRET_RULES.filter((r) => !r.secret).map((r) => r.kind));
  const standalone = secretSamples().filter(
    (s) => tokenKinds.has(s.kind) && new RegExp(`(?:^|\\s)${s.secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\s|$|[.,])`).test(s.text),
  );
  it(`redacts ${standalone.length} standalone samples glued to an identifier by - or _`, () => {
    assert.ok(standalone.length >= 50, `${standalone.length} standalone samples`);
    const leaks: string[] = [];
    for (const { kind, text, secret } of standalone) {
      for (const [before, after] of glues) {
        const out = redactSecrets(text.replace(secret, `${before}${secret}${after}`));
        if (out.includes(secret)) leaks.push(`${kind} as ${before}…${after}: ${out.slice(0, 80)}`);
      }
    }
    assert.deepEqual(leaks, []);
  });

  it('keeps prose about tokens, secrets, keys and passwords', () => {
    const keep = [
      'the Token Program/Token-2022 accounts hold the mint',
      'Token Program and Token-2022 are both supported; see Token Extensions',
      'Bearer token auth is configured in the gateway',
      'The secret sauce is caching. A key insight: tokens expire.',
      'password reset emails go out hourly; token refresh happens on 401',
      'Secret Manager stores them; Key Vault holds the certificates',
      'API_TOKEN: set it in the environment before running',
      'KEY: value pairs are parsed by the loader',
      'TOKEN_LIMIT=4096 MAX_TOKENS=8192 PRIMARY_KEY=id SSH_KEY=~/.ssh/id_ed25519 GITHUB_TOKEN=${GITHUB_TOKEN}',
      'DB_PASSWORD=changeme API_KEY=<your key> NPM_TOKEN=xxxxxxxx',
      'const token = extra._meta?.progressToken;',
    ];
    for (const text of keep) assert.equal(redactSecrets(text), text);
  });

  it('keeps ordinary prose, code and hashes', () => {
    const keep = [
      'Use the sk- prefix check; see https://example.com/docs and user@example.com. token count: 42',
      'Pass the token to the API, then refresh the token when it expires.',
      'The secret: keep it short. The password is stored hashed.',
      `commit ${fake(HEX, 40)} fixed it; sha256 ${fake(HEX, 64)}`,
      `request id ${[fake(HEX, 8), fake(HEX, 4), fake(HEX, 4), fake(HEX, 4), fake(HEX, 12)].join('-')} failed`,
      'const token = getToken(); const password = process.env.DB_PASSWORD;',
      'apiKey: string; token: options.token, password: ${DB_PASSWORD}',
      'max_tokens=4096 token_count: 12345678 sort_key = "created_at_time"',
      'key: app.kubernetes.io/name',
      `fixture: "${Buffer.from('hello world, this is only test data').toString('base64')}"`,
      'Basic authentication and Bearer authentication are both supported.',
      'monkey=bananas12345 hotkey=ctrl+shift+k1',
      'https://example.com/path?page=2&sort=desc',
      'refused: cannot attach a note to ../../etc/passwd: outside the workspace',
    ];
    for (const text of keep) assert.equal(redactSecrets(text), text);
    assert.deepEqual(findSecretKinds(keep.join('\n')), []);
  });

  it('keeps the non-secret context', () => {
    assert.equal(redactSecrets('postgres://admin:pw1234567@db/x'), 'postgres://admin:[REDACTED:database-url]@db/x');
    assert.equal(redactSecrets('Authorization: Bearer abcdefghijklmnop1234'), 'Authorization: Bearer [REDACTED:bearer-token]');
    assert.equal(redactSecrets('export API_KEY="abc123def456"'), 'export API_KEY="[REDACTED:secret-assignment]"');
    const npm = cat('npm_', fake(ALNUM, 36));
    assert.equal(redactSecrets(`//registry.npmjs.org/:_authToken=${npm}`), '//registry.npmjs.org/:_authToken=[REDACTED:npm-token]');
  });

  it('redacts a key the old patterns missed inside a longer text, every occurrence', () => {
    const key = cat('glpat-', fake(URLSAFE, 20));
    const out = redactSecrets(`first ${key}, second ${key}.`);
    assert.equal(out, 'first [REDACTED:gitlab-pat], second [REDACTED:gitlab-pat].');
  });

  it('redacts every string in a nested value', () => {
    const key = cat('AKIA', 'IOSFODNN7EXAMPLE');
    const value = redactDeep({ facts: [{ statement: `key is ${key}`, n: 3 }] });
    assert.deepEqual(value, { facts: [{ statement: 'key is [REDACTED:aws-access-key-id]', n: 3 }] });
  });
});
