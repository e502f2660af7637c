import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copilotCli } from '../../../src/core/services/conversations/copilotCli';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { FIXTURES } from '../../helpers/paths';

/*
 * copilot-cli/<session id>/events.jsonl was written by hand from github/copilot-sdk
 * nodejs/src/generated/session-events.ts at 01396124 (the CLI's event envelope and the
 * session.start, user.message, assistant.message, tool.execution_* payloads). Content invented.
 */
const FIXTURE = path.join(FIXTURES, 'conversations', 'copilot-cli', '4d2f8a1c-0b3e-4f5a-9c6d-7e8f9a0b1c2d', 'events.jsonl');

describe('Copilot CLI sessions', () => {
  it('keeps typed prompts and agent messages with tool lines; a failed call is marked; drops the rest', () => {
    const text = fs.readFileSync(FIXTURE, 'utf8');
    assert.equal(detectFormat(FIXTURE, text), 'copilot-cli');
    const conv = importConversation(FIXTURE, text);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.id, '4d2f8a1c-0b3e-4f5a-9c6d-7e8f9a0b1c2d');
    assert.equal(conv.cwd, '/home/dev/cal');
    assert.equal(conv.model, 'claude-sonnet-4.5');
    assert.equal(conv.startedAt, '2026-03-10T14:00:10.000Z');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'parseDate returns the previous day for midnight UTC. Fix it.', at: '2026-03-10T14:00:10.000Z' },
      // Each message's words came before its tool requests.
      { role: 'assistant', text: "I'll look at the parser and run its test.", at: '2026-03-10T14:00:14.000Z' },
      {
        role: 'assistant',
        text: '',
        at: '2026-03-10T14:00:14.000Z',
        tools: ['[tool:view] /home/dev/cal/src/parseDate.ts', '[tool:bash] npx vitest run test/parseDate.test.ts → error'],
      },
      {
        role: 'assistant',
        text: '`new Date(y, m - 1, d)` uses the local time zone; I switched it to `Date.UTC` and the test passes.',
        at: '2026-03-10T14:00:40.000Z',
      },
      { role: 'assistant', text: '', at: '2026-03-10T14:00:40.000Z', tools: ['[tool:edit] /home/dev/cal/src/parseDate.ts'] },
    ]);
    assert.equal(conv.skipped?.reasoning, 1);
    assert.equal(conv.skipped?.['sub-agent'], 1);
    const rendered = renderTranscript(conv);
    for (const hidden of [
      'INJECTED-CONTEXT',
      'SECRET-REASONING',
      'TOOL-OUTPUT-BODY',
      'FAIL-OUTPUT',
      'SUBAGENT-MESSAGE',
      'EDIT-BODY',
      'folder_trust',
    ]) {
      assert.ok(!rendered.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it('takes the id from the session folder when there is no session.start, and claims no other JSONL', () => {
    const text = '{"type":"user.message","data":{"content":"hi"},"id":"a","timestamp":"2026-03-10T14:00:00Z","parentId":null}\n';
    assert.equal(copilotCli.parse(text, '/h/.copilot/session-state/abc-1/events.jsonl').id, 'abc-1');
    assert.equal(copilotCli.detect('/x/s.jsonl', '{"type":"user","sessionId":"a","parentUuid":null}'), 0);
    const foreign = importConversation('/x/log.jsonl', `${text}{"event":"x"}\n{"event":"y"}\n{"event":"z"}\n`);
    assert.deepEqual(foreign.turns, []);
    assert.match(foreign.unrecognized ?? '', /1 of 4 lines were Copilot CLI session records/);
  });
});
