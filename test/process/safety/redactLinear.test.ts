import * as assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/model/safety/redact';
import { SECRET_RULES } from '../../../src/core/model/safety/secretRules';

// Seconds of CPU (16 s on a loaded 2-core machine): here rather than among the engine's quick tests.
describe('secret redaction on hostile input', () => {
  it('stays linear on hostile 1 MB lines (finishes; no timing asserted)', function () {
    // A quadratic pattern would take hours on these lines; a loaded machine only seconds more.
    this.timeout(180_000);
    const MB = 1 << 20;
    const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
    const lines = [
      fill('a'),
      fill('a.'),
      fill('a='),
      fill('a:'),
      fill('token='),
      fill('password: '),
      fill('eyJ'),
      fill('eyJa.'),
      fill('sk-'),
      fill('sk-a'),
      fill('x://u:'),
      fill('a://'),
      fill('-----BEGIN PRIVATE KEY-----'),
      fill('twilio '),
      fill('Bearer '),
      fill('_'),
      fill('0'),
      fill('a-'),
      fill('"a":"'),
      fill('heroku '),
      fill('A_TOKEN='),
      fill('A_TOKEN: '),
      fill('A_TOKEN=a'),
      fill('secret access key is '),
      ...SECRET_RULES.map((r) => fill(r.example.split(/[ ,…<]/)[0] || 'x')),
    ];
    for (const line of lines) {
      const out = redactSecrets(line);
      assert.ok(typeof out === 'string');
    }
  });
});
