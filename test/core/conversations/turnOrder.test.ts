import * as assert from 'node:assert/strict';
import { importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';

/** Asserts that each piece appears in the transcript after the one before it. */
function assertInOrder(transcript: string, pieces: string[]): void {
  let from = 0;
  for (const piece of pieces) {
    const at = transcript.indexOf(piece, from);
    assert.ok(at >= 0, `"${piece}" missing, or not after "${transcript.slice(Math.max(0, from - 40), from)}", in:\n${transcript}`);
    from = at + piece.length;
  }
}

const jsonl = (records: object[]): string => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

/*
 * The records are in each tool's own shape: Claude Code writes every content block of one API
 * message as a record of its own sharing `message.id`; Codex writes an assistant message, then the
 * calls it made, as response items.
 */
describe('agent turns in the order things happened', () => {
  it('Claude Code: the words before a call come before its tool line, message after message', () => {
    const base = { isSidechain: false, userType: 'external', cwd: '/w/adr', sessionId: 'order-1', version: '2.0.14' };
    const say = (uuid: string, id: string, at: string, content: object) => ({
      ...base,
      type: 'assistant',
      uuid,
      timestamp: at,
      message: { id, type: 'message', role: 'assistant', model: 'claude-opus-4-5', content: [content] },
    });
    const result = (uuid: string, id: string, at: string) => ({
      ...base,
      type: 'user',
      uuid,
      timestamp: at,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
    });
    const raw = jsonl([
      {
        ...base,
        type: 'user',
        uuid: 'u1',
        timestamp: '2026-01-05T14:00:00.000Z',
        message: { role: 'user', content: 'Record our decisions.' },
      },
      say('a1', 'msg_1', '2026-01-05T14:05:00.000Z', { type: 'text', text: "I'll add 4 ADRs." }),
      say('a2', 'msg_1', '2026-01-05T14:05:01.000Z', { type: 'tool_use', id: 't1', name: 'Write', input: { file_path: '/w/adr/0001.md' } }),
      say('a3', 'msg_1', '2026-01-05T14:05:02.000Z', { type: 'tool_use', id: 't2', name: 'Write', input: { file_path: '/w/adr/0002.md' } }),
      result('u2', 't1', '2026-01-05T14:05:03.000Z'),
      result('u3', 't2', '2026-01-05T14:05:04.000Z'),
      say('a4', 'msg_2', '2026-01-05T14:06:00.000Z', { type: 'text', text: 'Now the index that lists them.' }),
      say('a5', 'msg_2', '2026-01-05T14:06:01.000Z', {
        type: 'tool_use',
        id: 't3',
        name: 'Edit',
        input: { file_path: '/w/adr/README.md' },
      }),
      result('u4', 't3', '2026-01-05T14:06:02.000Z'),
      say('a6', 'msg_3', '2026-01-05T14:07:00.000Z', { type: 'text', text: 'Done: two ADRs and an index.' }),
    ]);
    const transcript = renderTranscript(importConversation('/p/order-1.jsonl', raw));
    assertInOrder(transcript, [
      '## 14:00 — user\nRecord our decisions.',
      "## 14:05 — agent\nI'll add 4 ADRs.",
      '## 14:05 — agent\n> [tool:Write] /w/adr/0001.md\n> [tool:Write] /w/adr/0002.md\n\nNow the index that lists them.',
      '## 14:06 — agent\n> [tool:Edit] /w/adr/README.md\n\nDone: two ADRs and an index.',
    ]);
  });

  it('Codex: an assistant message is printed before the calls that followed it', () => {
    const item = (at: string, payload: object) => ({ timestamp: at, type: 'response_item', payload });
    const raw = jsonl([
      {
        timestamp: '2026-01-05T14:00:00.000Z',
        type: 'session_meta',
        payload: { id: 'order-2', timestamp: '2026-01-05T14:00:00.000Z', cwd: '/w/adr' },
      },
      item('2026-01-05T14:00:01.000Z', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Record our decisions.' }] }),
      item('2026-01-05T14:05:00.000Z', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: "I'll add 4 ADRs." }],
      }),
      item('2026-01-05T14:05:01.000Z', {
        type: 'custom_tool_call',
        name: 'apply_patch',
        call_id: 'c1',
        input: '*** Begin Patch\n*** Add File: adr/0001.md\n+# Use SQLite\n*** End Patch\n',
      }),
      item('2026-01-05T14:05:02.000Z', { type: 'custom_tool_call_output', call_id: 'c1', output: 'Success.' }),
      item('2026-01-05T14:06:00.000Z', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Checking they render.' }],
      }),
      item('2026-01-05T14:06:01.000Z', {
        type: 'function_call',
        name: 'shell',
        call_id: 'c2',
        arguments: '{"command":["bash","-lc","ls adr"]}',
      }),
      item('2026-01-05T14:06:02.000Z', {
        type: 'function_call_output',
        call_id: 'c2',
        output: '{"output":"0001.md\\n","metadata":{"exit_code":0}}',
      }),
      item('2026-01-05T14:07:00.000Z', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }),
    ]);
    const transcript = renderTranscript(importConversation('/s/rollout-order-2.jsonl', raw));
    assertInOrder(transcript, [
      "## 14:05 — agent\nI'll add 4 ADRs.",
      '## 14:05 — agent\n> [tool:apply_patch] adr/0001.md\n\nChecking they render.',
      '## 14:06 — agent\n> [tool:shell] ls adr\n\nDone.',
    ]);
  });
});
