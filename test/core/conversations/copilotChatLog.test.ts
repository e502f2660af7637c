import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copilotChatLog } from '../../../src/core/services/conversations/copilotChatLog';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { FIXTURES } from '../../helpers/paths';

/*
 * copilot-chat-session.jsonl was written by hand from microsoft/vscode's chat session log:
 * src/vs/workbench/contrib/chat/common/model/objectMutationLog.ts (commit 047238f9: the record
 * kinds 0-3, `k` paths, `i` cut) and chatSessionOperationLog.ts (commit 03d43368: the session and
 * request schema; markdown parts are stored as bare `{value}` strings without a `kind`). The
 * session content is invented.
 */
const FIXTURE = path.join(FIXTURES, 'conversations', 'copilot-chat-session.jsonl');
const jsonl = (...records: unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n');

describe('Copilot Chat session logs (chatSessions/*.jsonl)', () => {
  it('replays the log: pushes, sets, a cut-and-resend, and keeps only the conversation', () => {
    const text = fs.readFileSync(FIXTURE, 'utf8');
    assert.equal(detectFormat(FIXTURE, text), 'copilot-chat');
    const conv = importConversation(FIXTURE, text);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.format, 'copilot-chat');
    assert.equal(conv.id, '5f1c2e3a-7b8d-4c9e-a0f1-23456789abcd');
    assert.equal(conv.title, 'Midnight UTC date bug');
    assert.equal(conv.startedAt, '2026-01-26T10:00:00.000Z');
    assert.equal(conv.model, 'copilot/claude-sonnet-4.5');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Why does parseDate return yesterday for midnight UTC?', at: '2026-01-26T10:01:00.000Z' },
      {
        role: 'assistant',
        text: '`parseDate` builds the date with `new Date(y, m, d)`, which uses the local time zone. Use `Date.UTC` instead.',
        at: '2026-01-26T10:01:12.000Z',
        tools: ['[tool:copilot_readFile] Read parseDate.ts'],
      },
      { role: 'user', text: 'Fix it and run the tests.', at: '2026-01-26T10:02:30.000Z' },
      {
        role: 'assistant',
        text: 'Fixed; all tests pass.',
        at: '2026-01-26T10:03:00.000Z',
        tools: ['[tool:edit] /home/dev/cal/src/parseDate.ts', '[tool:run_in_terminal] npm test'],
      },
    ]);
    assert.deepEqual(conv.skipped, { thinking: 1 });
    const rendered = renderTranscript(conv);
    for (const hidden of [
      'SECRET-THINKING',
      'TOOL-OUTPUT-BODY',
      'INJECTED-CONTEXT',
      'EDIT-BODY',
      'TERMINAL-OUTPUT',
      'DISCARDED-REQUEST',
      'Why does the date parser',
    ]) {
      assert.ok(!rendered.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it('takes a later full-state line (VS Code compacts the log) as the new session', () => {
    const request = (text: string) => ({ requestId: text, message: { text }, response: [{ value: `re: ${text}` }] });
    const text = jsonl(
      { kind: 0, v: { version: 3, sessionId: 's1', requests: [request('old question')] } },
      { kind: 0, v: { version: 3, sessionId: 's1', requests: [request('old question'), request('new question')] } },
    );
    const conv = copilotChatLog.parse(text, '/ws/chatSessions/s1.jsonl');
    assert.deepEqual(
      conv.turns.map((t) => t.text),
      ['old question', 're: old question', 'new question', 're: new question'],
    );
  });

  it('skips changes whose path leads nowhere or into a prototype, and unknown records', () => {
    const text = jsonl(
      { kind: 0, v: { version: 3, sessionId: 's2', requests: [{ message: { text: 'hi' }, response: [] }] } },
      { kind: 1, k: ['requests', 5, 'response'], v: [{ value: 'LOST' }] },
      { kind: 1, k: ['__proto__', 'polluted'], v: 'yes' },
      { kind: 9, k: ['requests'] },
      { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'hello' }] },
    );
    const conv = copilotChatLog.parse(text, '/ws/chatSessions/s2.jsonl');
    assert.deepEqual(
      conv.turns.map((t) => [t.role, t.text]),
      [
        ['user', 'hi'],
        ['assistant', 'hello'],
      ],
    );
    assert.deepEqual(conv.skipped, { malformed: 2, unknown: 1 });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('is not taken for another tool’s JSONL, and a log of mostly foreign lines is refused', () => {
    assert.equal(copilotChatLog.detect('/x/session.jsonl', '{"type":"user","sessionId":"a"}'), 0);
    assert.equal(copilotChatLog.detect('/x/s.jsonl', '{"kind":0,"v":{"version":3,"sessionId":"a","requests":[]}}'), 0.95);
    const foreign = jsonl(
      { kind: 0, v: { version: 3, sessionId: 's3', requests: [{ message: { text: 'hi' }, response: [{ value: 'yo' }] }] } },
      { kind: 7 },
      { kind: 8 },
      { kind: 9 },
    );
    const conv = importConversation('/ws/chatSessions/s3.jsonl', foreign);
    assert.deepEqual(conv.turns, []);
    assert.match(conv.unrecognized ?? '', /1 of 4 lines were Copilot Chat session log records/);
  });
});

describe('JSON of a shape no importer reads', () => {
  // Kiro and OpenCode keep sessions as JSON objects of their own; Kiro's is not read yet, and an
  // OpenCode message file is only a piece of a session (Lore reads the storage folder whole): a
  // file of theirs must be kept and reported rather than sent to a model as one huge user turn.
  it('reports a Kiro-like and an OpenCode-like file unrecognized, with no turns', () => {
    const kiro = JSON.stringify(
      {
        executionId: 'e1',
        chat: [
          { role: 'human', content: 'Add a login page' },
          { role: 'bot', content: 'Done.' },
        ],
        context: [{ type: 'steering', body: 'STEERING' }],
      },
      null,
      2,
    );
    const opencode = JSON.stringify({
      id: 'msg_01',
      sessionID: 'ses_01',
      role: 'user',
      time: { created: 1760000000000 },
      parts: [{ type: 'text', text: 'Add a login page' }],
    });
    for (const [file, text] of [
      ['/inbox/kiro/8f2a.chat', kiro],
      ['/inbox/opencode/msg_01.json', opencode],
      ['/inbox/opencode/log.jsonl', `${opencode}\n${opencode}\n`],
    ]) {
      const conv = importConversation(file, text);
      assert.deepEqual(conv.turns, [], file);
      const reason = file.includes('opencode')
        ? /^looks like one file of an OpenCode session .*\(JSON( Lines)? that no importer reads\)$/
        : /^not a supported conversation format: JSON( Lines)? that no importer reads$/;
      assert.match(conv.unrecognized ?? '', reason, file);
    }
    // OpenCode's `role` + `parts` must not be named a Gemini checkpoint; a real checkpoint still is.
    const checkpoint = JSON.stringify({
      history: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'yo' }] },
      ],
    });
    assert.match(importConversation('/inbox/checkpoint-a.json', checkpoint).unrecognized ?? '', /^looks like a Gemini CLI chat checkpoint/);
  });
});
