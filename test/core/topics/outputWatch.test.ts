import * as assert from 'node:assert/strict';
import { lastAssistantReply } from '../../../src/core/services/topics/lastReply';
import { watchReply } from '../../../src/core/services/topics/outputWatch';
import { peekPendingTopics, takePendingTopics } from '../../../src/core/services/topics/pendingTopics';
import { readGateLog } from '../../../src/core/services/topics/gateLog';
import { storeWithTopics } from '../../helpers/topicStores';

describe('output watchers', () => {
  it('read the last assistant reply from a transcript tail (text parts only, a partial first line skipped)', () => {
    const tail = [
      'rtial line from the middle"}}',
      JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'old reply' }] } }),
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'next question' } }),
      JSON.stringify({
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'print secret' },
            { type: 'text', text: 'first part' },
          ],
        },
      }),
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: 'ok' }] } }),
      JSON.stringify({
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'tool_use', name: 'x' },
            { type: 'text', text: 'second part' },
          ],
        },
      }),
      '',
    ].join('\n');
    assert.equal(lastAssistantReply(tail), 'first part\nsecond part');
    assert.equal(lastAssistantReply('not json\n'), '');
  });

  it('leave the topics an output trigger fires for the next turn, once, and log them', () => {
    const paths = storeWithTopics({
      'py3.md': '---\ntriggers:\n  - pattern: "\\\\bprint [a-z]"\n    scope: output\n---\nUse print().\n',
      'input-only.md': '---\ntriggers:\n  - pattern: "print"\n---\nNot on replies.\n',
      'gated.md': '---\nactivation: gated\npriority: high\ntriggers:\n  - pattern: "print"\n    scope: both\n---\nNeeds the gate.\n',
    });
    const pending = watchReply(paths, 'session-a', 'Use: print total');
    assert.deepEqual(
      pending.map((p) => p.topic),
      ['py3'],
    );
    assert.deepEqual(peekPendingTopics(paths, 'session-b'), []);
    assert.deepEqual(
      takePendingTopics(paths, 'session-a').map((p) => p.topic),
      ['py3'],
    );
    assert.deepEqual(takePendingTopics(paths, 'session-a'), []);
    const log = readGateLog(paths);
    assert.deepEqual(
      log.map((e) => [e.topic, e.gate, e.active, e.via]),
      [
        ['gated', 'no-model', false, 'output'],
        ['py3', 'bypass', true, 'output'],
      ],
    );
  });
});
