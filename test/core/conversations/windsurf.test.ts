import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { windsurf } from '../../../src/core/services/conversations/windsurf';
import { FIXTURES } from '../../helpers/paths';

// Fixture sources: test/fixtures/conversations/windsurf/README.md.
const FIXTURE = path.join(FIXTURES, 'conversations', 'windsurf', 'cascade-receipts-in-cents.md');

describe('Windsurf Cascade exports', () => {
  it('reads user inputs and planner responses, the agent actions as its tool lines', () => {
    const text = fs.readFileSync(FIXTURE, 'utf8');
    assert.equal(detectFormat(FIXTURE, text), 'windsurf');
    const conv = importConversation(FIXTURE, text);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.format, 'windsurf');
    assert.equal(conv.id, 'cascade-receipts-in-cents');
    // The heading is the same in every export; the export has no times and no model.
    assert.equal(conv.title, undefined);
    assert.equal(conv.startedAt, undefined);
    assert.equal(conv.model, undefined);
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Totals on the receipt are off by a cent. Look at @[src/receipt.ts] please.' },
      {
        role: 'assistant',
        text: "The total is summed as floats. I'll switch it to integer cents.",
        tools: ['[tool:Read] /home/dev/shop/src/receipt.ts', '[tool:ListDir] /home/dev/shop/src'],
      },
      // Actions after the agent's words start a turn of their own, which the next response continues.
      {
        role: 'assistant',
        text: [
          'Done: [receipt.ts](file:///home/dev/shop/src/receipt.ts:0:0-0:0) now sums integer cents.',
          '',
          '```ts',
          '*Viewed this is code, not an action*',
          '```',
        ].join('\n'),
        tools: ['[tool:Edit]', '[tool:Shell] npm test -- receipt'],
      },
      // A person's italic line is text, even when it starts like an action.
      { role: 'user', text: '*Why* floats? Keep the rounding rule in the README.\n\n*Read the rounding notes first*' },
      { role: 'assistant', text: 'Floats cannot hold 0.1 exactly; the README now says amounts are integer cents.' },
      { role: 'assistant', text: '', tools: ['[tool:Read] d:/Projects/shop/README notes.md'] },
    ]);
    assert.equal(conv.skipped, undefined);
    assert.ok(!renderTranscript(conv).includes('purely the output'));
  });

  it('claims only the Cascade heading', () => {
    assert.equal(windsurf.detect('/x/a.md', '# Notes\n\n### User Input\n\nhi\n'), 0);
    assert.equal(windsurf.detect('/x/a.md', '# Cascade Chat Conversation\n\n### User Input\n\nhi\n'), 0.95);
  });
});
