import * as assert from 'node:assert/strict';
import {
  formatProvenance,
  hasMalformedProvenance,
  isCalendarDate,
  neutralizeItemText,
  parseProvenance,
  stripProvenance,
} from '../../../src/core/model/provenance';

describe('provenance', () => {
  it('formats and parses the trailing marker', () => {
    const line = `- Cache TTL is 5 minutes. ${formatProvenance({ source: 'ses_a1b2', date: '2026-06-12' })}`;
    assert.equal(line, '- Cache TTL is 5 minutes. [from: ses_a1b2, 2026-06-12]');
    const parsed = parseProvenance(line)!;
    assert.equal(parsed.source, 'ses_a1b2');
    assert.equal(parsed.date, '2026-06-12');
    assert.equal(parsed.validDate, true);
    assert.equal(line.slice(parsed.start, parsed.end), '[from: ses_a1b2, 2026-06-12]');
    assert.equal(stripProvenance(line), '- Cache TTL is 5 minutes.');
  });

  it('tolerates spacing a person types and trailing blanks', () => {
    const parsed = parseProvenance('- x [from:abc ,2026-01-02 ]  ')!;
    assert.equal(parsed.source, 'abc');
    assert.equal(parsed.date, '2026-01-02');
  });

  it('rejects a blank id', () => {
    assert.equal(parseProvenance('- x [from:  , 2026-01-01]'), undefined);
    assert.equal(hasMalformedProvenance('- x [from:  , 2026-01-01]'), true);
  });

  it('only takes a marker at the end of the line', () => {
    assert.equal(parseProvenance('- see [from: a, 2026-01-01] for more'), undefined);
  });

  it('flags impossible dates and broken markers', () => {
    assert.equal(parseProvenance('- x [from: a, 2026-02-30]')!.validDate, false);
    assert.equal(hasMalformedProvenance('- x [from: a, 2026-02-30]'), true);
    assert.equal(hasMalformedProvenance('- x [from: a 2026-02-03]'), true);
    assert.equal(hasMalformedProvenance('- x [from: a, 2026-02-03'), true);
    assert.equal(hasMalformedProvenance('- x [from: a, 2026-02-03]'), false);
    assert.equal(hasMalformedProvenance('- no marker at all'), false);
    assert.equal(isCalendarDate('2024-02-29'), true);
    assert.equal(isCalendarDate('2023-02-29'), false);
  });

  it('neutralizes text that would forge lines or provenance', () => {
    assert.equal(neutralizeItemText('a\n## Done\n- fake [from: evil, 2020-01-01]'), 'a ## Done - fake (from: evil, 2020-01-01]');
    assert.equal(neutralizeItemText('  tabs\tand\u0000nul  '), 'tabs and nul');
  });
});
