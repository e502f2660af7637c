import * as assert from 'node:assert/strict';
import { durationText, liveReason, liveRuleText } from '../../../src/core/services/harvest/liveWindow';
import { DEFAULT_LIVE_WINDOW_MS } from '../../../src/core/services/harvest/runHarvest';

describe('live window wording', () => {
  it('says durations as a person does', () => {
    assert.equal(durationText(DEFAULT_LIVE_WINDOW_MS), '5 minutes');
    assert.equal(durationText(60_000), '1 minute');
    assert.equal(durationText(1_000), '1 second');
    assert.equal(durationText(0), '1 second');
    assert.equal(durationText(90_000), '2 minutes');
  });

  it('explains the rule and, for one file, when a harvest picks it up', () => {
    assert.equal(
      liveRuleText(DEFAULT_LIVE_WINDOW_MS),
      'an agent may still be writing it (changed in the last 5 minutes); it is harvested by the first harvest after it has been left untouched for 5 minutes',
    );
    assert.equal(
      liveRuleText(60_000, 2),
      'an agent may still be writing them (changed in the last 1 minute); they are harvested by the first harvest after they have been left untouched for 1 minute',
    );
    const now = 1_800_000_000_000;
    assert.equal(
      liveReason(now - 60_000, now, DEFAULT_LIVE_WINDOW_MS),
      'changed 1 minute ago, so an agent may still be writing it; the first harvest after 4 minutes more without a change picks it up',
    );
  });
});
