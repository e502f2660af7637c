import * as assert from 'node:assert/strict';
import { mayHoldSecret, redactEveryRule, redactSecrets } from '../../../src/core/model/safety/redact';
import { SECRET_RULES, TOKEN_RUN } from '../../../src/core/model/safety/secretRules';
import { repositoryTexts } from '../../helpers/repositoryTexts';
import { ALNUM, B64, HEX, URLSAFE, fake, secretSamples } from './secretSamples';

/**
 * The screen that lets redaction skip its rules (a long token run, or a rule's `screen`) must never
 * skip a text a rule matches. Checked here on every rule's samples and on a large corpus of real
 * text (the repository's docs, sources and test fixtures), of every sample with its secret cut
 * short (around the token run's length) and of random text near the rules' shapes: redaction with
 * the screen must give what every rule run without it gives.
 */

/** Random text close to what the rules look for: prefixes, separators, short and long runs. */
function nearMisses(count: number): string[] {
  const prefixes = [...new Set(SECRET_RULES.flatMap((r) => r.example.split(/[ ,…]+/)).filter((p) => p.length > 1))];
  const alphabets = [ALNUM, HEX, URLSAFE, B64, 'abc xyz=:/.-_~"\'@?&'];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const prefix = prefixes[i % prefixes.length];
    const alphabet = alphabets[i % alphabets.length];
    const body = fake(alphabet, 4 + (i % 40));
    texts.push(`${i % 3 === 0 ? 'KEY=' : 'see '}${prefix}${body} and ${fake(alphabet, i % 20)}`);
  }
  return texts;
}

describe('secret redaction screen', () => {
  const samples = secretSamples();
  const corpus = repositoryTexts();

  it('lets every sample of every rule through', () => {
    assert.deepEqual(
      samples.filter((s) => !mayHoldSecret(s.text)).map((s) => s.kind),
      [],
    );
  });

  it('redacts real and random text, line by line and whole, as every rule run without it does', () => {
    assert.ok(corpus.length > 100, `${corpus.length} files`);
    const cut = samples.flatMap(({ text, secret }) =>
      Array.from({ length: 12 }, (_, i) => text.replace(secret, secret.slice(0, TOKEN_RUN - 6 + i))),
    );
    const lines = [...corpus, ...corpus.flatMap((text) => text.split('\n')), ...cut, ...nearMisses(5000)];
    const passed = lines.filter((line) => !mayHoldSecret(line));
    // The screen must pass over most lines, or it saves nothing.
    assert.ok(passed.length > lines.length / 2, `${passed.length} of ${lines.length} lines passed over`);
    assert.deepEqual(
      lines.filter((line) => redactSecrets(line) !== redactEveryRule(line)),
      [],
    );
    // And some of them are redacted, so the comparison is not between unchanged texts only.
    assert.ok(lines.filter((line) => redactEveryRule(line) !== line).length > 1000);
  });

  it('lets a text through for a token run anywhere in it, and for a rule’s screen alone', () => {
    assert.equal(mayHoldSecret('plain words only, with: punctuation = and a-short_run'), false);
    assert.equal(mayHoldSecret(`a run ${'a'.repeat(TOKEN_RUN)} here`), true);
    assert.equal(mayHoldSecret(`a run ${'a'.repeat(TOKEN_RUN - 1)} here`), false);
    assert.equal(mayHoldSecret('the password: hunter22'), true);
    assert.equal(mayHoldSecret('Authorization: Bearer abc'), true);
  });
});
