import * as assert from 'node:assert/strict';
import { importConversation } from '../../../src/core/services/conversations/detect';
import {
  PRIVATE_PLACEHOLDER,
  hasPrivateMarker,
  privateMarkerList,
  stripPrivateRaw,
  stripPrivateSpans,
} from '../../../src/core/model/safety/privateSpans';
import { storePrivateMarkers } from '../../../src/core/store/storeConfig';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../helpers/paths';

const P = PRIVATE_PLACEHOLDER;

describe('private spans', () => {
  it('removes each balanced span and keeps the text around it', () => {
    assert.equal(stripPrivateSpans('a <private>x</private> b <private>y</private> c'), `a ${P} b ${P} c`);
    assert.equal(stripPrivateSpans('no markers here'), 'no markers here');
  });

  it('matches markers whatever their case, and spans over lines', () => {
    assert.equal(stripPrivateSpans('a <PRIVATE>line 1\nline 2</Private> b'), `a ${P} b`);
  });

  it('finds a marker in any case, also one whose letters a text writes with other characters that lower-case to them', () => {
    // The definition: the lower-cased text holds the lower-cased marker.
    const byLowerCase = (text: string, markers = privateMarkerList()) =>
      markers.some((m) => text.toLowerCase().includes(m.open.toLowerCase()) || text.toLowerCase().includes(m.close.toLowerCase()));
    const kelvin = { open: '[[k]]', close: '[[/k]]' }; // The Kelvin sign lower-cases to k.
    const dotted = { open: '{i}', close: '{/i}' }; // İ lower-cases to i and a combining dot.
    const cases: Array<[string, ReturnType<typeof privateMarkerList>]> = [
      ['plain text with no angle brackets', privateMarkerList()],
      ['x < y and y > z, then a closing </PRIVATE>', privateMarkerList()],
      ['<Private>', privateMarkerList()],
      ['Promise<void> => a / b', privateMarkerList()],
      ['<pri\u0307vate>', privateMarkerList()],
      ['a [[\u212a]] b', [...privateMarkerList(), kelvin]],
      ['a [[/K]] b', [...privateMarkerList(), kelvin]],
      ['a [[ k ]] b', [...privateMarkerList(), kelvin]],
      ['a {\u0130} b', [...privateMarkerList(), dotted]],
      ['', privateMarkerList()],
    ];
    for (const [text, markers] of cases) assert.equal(hasPrivateMarker(text, markers), byLowerCase(text, markers), text);
    assert.equal(hasPrivateMarker('a [[\u212a]] b', [...privateMarkerList(), kelvin]), true);
    assert.equal(hasPrivateMarker('Promise<void> => a / b'), false);
  });

  it('fails closed: an unclosed span removes the rest, a stray closing marker removes what came before', () => {
    assert.equal(stripPrivateSpans('keep <private>secret to the end\nand more'), `keep ${P}`);
    assert.equal(stripPrivateSpans('opened in an earlier part</private> kept'), `${P} kept`);
    assert.equal(stripPrivateSpans('a <private>x</private> b </private> c'), `${P} c`);
  });

  it('applies a configured pair besides the default one, read from config.json', () => {
    const dir = makeTempDir('lore-private-');
    const config = path.join(dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ privateMarkers: { open: '[[hide]]', close: '[[/hide]]' } }));
    const markers = storePrivateMarkers(config);
    assert.equal(markers.length, 2);
    assert.equal(stripPrivateSpans('a [[hide]]x[[/hide]] b <private>y</private> c', markers), `a ${P} b ${P} c`);
    // A config that cannot be read stops the caller (issue 26): falling back to the default pair
    // would let text inside the person's own markers through.
    fs.writeFileSync(config, '{ not json');
    assert.throws(() => storePrivateMarkers(config), /config\.json:1 is not valid JSON/);
  });

  it('an import removes spans from every turn, per message: a spill stops at the end of its turn', () => {
    const text = `---\nsession_id: s1\nstarted: 2026-11-20T10:00:00Z\n---\n\n# s1\n\n## 10:00 — user\nplan <private>the merger with ACME\n\n## 10:01 — agent\nOk, the plan is ready.\n`;
    const conv = importConversation('/x/s1.md', text);
    assert.equal(conv.turns.length, 2);
    assert.equal(conv.turns[0].text, `plan ${P}`);
    assert.equal(conv.turns[1].text, 'Ok, the plan is ready.');
    assert.ok(!JSON.stringify(conv).includes('ACME'));
  });

  it('a raw JSON Lines session keeps its shape: only records with markers change, each string on its own', () => {
    const lines = [
      JSON.stringify({ type: 'user', message: { content: 'hello <private>token 42</private> world' } }),
      JSON.stringify({ type: 'assistant', message: { content: 'unclosed <private>spill' } }),
      JSON.stringify({ type: 'user', message: { content: 'untouched' } }),
      'not json <private>x</private>',
    ];
    const out = stripPrivateRaw(lines.join('\n') + '\n', 'a.jsonl', privateMarkerList()).split('\n');
    assert.deepEqual(JSON.parse(out[0]).message.content, `hello ${P} world`);
    assert.deepEqual(JSON.parse(out[1]).message.content, `unclosed ${P}`);
    assert.equal(out[2], lines[2]);
    assert.equal(out[3], `not json ${P}`);
    assert.equal(out[4], '');
  });
});
