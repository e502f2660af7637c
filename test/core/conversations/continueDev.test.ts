import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { continueDev } from '../../../src/core/services/conversations/continueDev';
import { DETECT_HEAD_CHARS, detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { FIXTURES } from '../../helpers/paths';

/*
 * continue/<session id>.json was written by hand from continuedev/continue core/index.d.ts
 * (`Session`, `ChatHistoryItem`, `ChatMessage` with its user / assistant / thinking / tool / system
 * roles, `ToolCallDelta`, `ContextItemWithId`). Content invented.
 */
const FIXTURE = path.join(FIXTURES, 'conversations', 'continue', 'b7e4c2d0-1a2b-4c3d-9e8f-0a1b2c3d4e5f.json');

describe('Continue sessions', () => {
  it('keeps user and assistant messages and tool calls; drops thinking, tool results, system prompt and context items', () => {
    const text = fs.readFileSync(FIXTURE, 'utf8');
    assert.equal(detectFormat(FIXTURE, text), 'continue');
    const conv = importConversation(FIXTURE, text);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.id, 'b7e4c2d0-1a2b-4c3d-9e8f-0a1b2c3d4e5f');
    assert.equal(conv.title, 'Midnight UTC parseDate bug');
    assert.equal(conv.cwd, '/home/dev/cal');
    assert.equal(conv.model, 'Claude Sonnet 4.5');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Why does parseDate return the previous day for midnight UTC?' },
      // The message's words came before its call.
      { role: 'assistant', text: 'Let me look at the tests too.' },
      { role: 'assistant', text: '', tools: ['[tool:builtin_run_terminal_command] npx vitest run test/parseDate.test.ts'] },
      { role: 'assistant', text: '`new Date(y, m - 1, d)` uses the local time zone; build it with `Date.UTC` instead.' },
      { role: 'user', text: 'Thanks, that was it.' },
    ]);
    assert.deepEqual(conv.skipped, { system: 1, 'context-items': 1, imageUrl: 1, thinking: 1, tool: 1 });
    const rendered = renderTranscript(conv);
    for (const hidden of [
      'SYSTEM-PROMPT',
      'CONTEXT-FILE-BODY',
      'SECRET-THINKING',
      'TOOL-OUTPUT-BODY',
      'TOOL-RESULT-BODY',
      'REASONING-TEXT',
      'iVBOR',
    ]) {
      assert.ok(!rendered.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it('reads older sessions with string messages, and claims no JSON without its keys', () => {
    const old = JSON.stringify({
      history: [
        { message: { role: 'user', content: 'hi' }, contextItems: [] },
        { message: { role: 'assistant', content: 'hello' }, contextItems: [] },
      ],
      title: 'New Session',
      workspaceDirectory: '/w',
      sessionId: 's-old',
    });
    const conv = continueDev.parse(old, '/home/u/.continue/sessions/s-old.json');
    assert.equal(conv.title, undefined);
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'hello' },
    ]);
    assert.equal(continueDev.detect('/x/a.json', old), 0.9);
    assert.equal(continueDev.detect('/x/a.json', '{"sessionId":"a","messages":[]}'), 0);
  });

  it('recognizes a session written before Continue ordered its keys: sessionId after a history longer than the head', () => {
    // As Continue saved sessions until late 2024: JSON.stringify({history, title, sessionId, workspaceDirectory, checkpoints}, undefined, 2).
    const session = {
      history: [
        {
          message: { role: 'user', content: 'Why is the cache never hit?', id: 'u1' },
          contextItems: [
            {
              content: 'CONTEXT-FILE-BODY '.repeat(2000),
              name: 'cache.ts',
              description: 'src/cache.ts',
              id: { providerTitle: 'file', itemId: 'f1' },
            },
          ],
          editorState: { type: 'doc', content: [] },
        },
        { message: { id: 'a1', role: 'assistant', content: 'The key includes the request time.' }, contextItems: [] },
      ],
      title: 'Cache never hit',
      sessionId: '5d2c9e4a-0b1f-4e6a-8c3d-7f9e0a1b2c3d',
      workspaceDirectory: 'file:///home/dev/shop',
      checkpoints: [],
    };
    const text = JSON.stringify(session, undefined, 2);
    assert.ok(text.indexOf('"sessionId"') > DETECT_HEAD_CHARS);
    for (const file of ['/home/dev/.continue/sessions/5d2c9e4a-0b1f-4e6a-8c3d-7f9e0a1b2c3d.json', '/inbox/old-continue.json']) {
      assert.equal(detectFormat(file, text), 'continue', file);
      const conv = importConversation(file, text);
      assert.equal(conv.unrecognized, undefined);
      assert.equal(conv.id, '5d2c9e4a-0b1f-4e6a-8c3d-7f9e0a1b2c3d');
      assert.equal(conv.title, 'Cache never hit');
      assert.equal(conv.cwd, '/home/dev/shop');
      assert.deepEqual(
        conv.turns.map((t) => t.text),
        ['Why is the cache never hit?', 'The key includes the request time.'],
      );
    }
    // A history of something else (no Continue message items) is not claimed.
    assert.equal(continueDev.detect('/x/a.json', '{"history": [{"role": "user", "text": "hi"}]}'), 0);
  });
});
