import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cursorAgent } from '../../../src/core/services/conversations/cursorAgent';
import { cursorExport } from '../../../src/core/services/conversations/cursorExport';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { statedTimeToIso } from '../../../src/core/services/conversations/statedTime';
import { FIXTURES } from '../../helpers/paths';

// Fixture sources: test/fixtures/conversations/cursor/README.md.
const DIR = path.join(FIXTURES, 'conversations', 'cursor');
const SESSION = '7c1e4b2a-5d3f-4e6a-9b8c-0d1e2f3a4b5c';
const TRANSCRIPT = path.join(DIR, 'agent-transcripts', SESSION, `${SESSION}.jsonl`);
const EXPORT = path.join(DIR, 'export', 'cursor_health_check_endpoint.md');

describe('Cursor agent transcripts', () => {
  it('reads prompts with their stated times, merges the agent records between them, drops injected prompts', () => {
    const text = fs.readFileSync(TRANSCRIPT, 'utf8');
    assert.equal(detectFormat(TRANSCRIPT, text), 'cursor');
    const conv = importConversation(TRANSCRIPT, text);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.format, 'cursor');
    assert.equal(conv.id, SESSION);
    assert.equal(conv.title, undefined);
    assert.equal(conv.model, undefined);
    // 6:05 AM at UTC+5:30, whatever zone the machine reading it is in.
    assert.equal(conv.startedAt, '2026-05-08T00:35:00.000Z');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'add a health check endpoint and wire it into the router', at: '2026-05-08T00:35:00.000Z' },
      // The agent's records in the order written: its plan, then the calls, then its answer.
      { role: 'assistant', text: '**Planning the change**\n\nRouter first, then the handler.' },
      {
        role: 'assistant',
        text: 'Added `GET /health` returning `{ ok: true }`; the router test passes.',
        tools: [
          '[tool:ReadFile] /Users/example/demo-app/src/router.ts',
          '[tool:Glob] src/**/*.ts in /Users/example/demo-app',
          '[tool:ApplyPatch] /Users/example/demo-app/src/health.ts',
          '[tool:Shell] npm test -- health',
        ],
      },
      {
        role: 'user',
        text: 'why does this <module> traceback show up on start?',
        at: '2026-05-08T00:50:00.000Z',
        tools: ['[attachment:image]'],
      },
      { role: 'assistant', text: "I'll have a subagent check the start script." },
      {
        role: 'assistant',
        text: 'The start script imports a Python helper that is not installed; `pip install -r requirements.txt` fixes it.',
        tools: ['[tool:Grep] ^export function', '[tool:Subagent] Check the start script'],
      },
    ]);
    assert.deepEqual(conv.skipped, { 'turn-ended': 1, injected: 1 });
    const rendered = renderTranscript(conv);
    for (const hidden of ['provdied', '<timestamp>', 'DO NOT reiterate', 'Begin Patch'])
      assert.ok(!rendered.includes(hidden), `${hidden} leaked into the transcript`);
  });

  it('reads the older text transcripts the same way, without thinking or tool output', () => {
    const file = path.join(DIR, 'agent-transcripts', '2b9d4f6a-1c3e-4a5b-8d7f-6e5c4b3a2d1f.txt');
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(detectFormat(file, text), 'cursor');
    const conv = importConversation(file, text);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.id, '2b9d4f6a-1c3e-4a5b-8d7f-6e5c4b3a2d1f');
    assert.equal(conv.startedAt, '2026-07-02T15:11:00.000Z');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Why does the health check time out?', at: '2026-07-02T15:11:00.000Z' },
      { role: 'assistant', text: "I'll read the handler first." },
      {
        role: 'assistant',
        text: 'It awaits a database ping with no timeout; I added a 2 s limit.',
        tools: ['[tool:Read] /home/dev/api/src/health.ts'],
      },
      { role: 'assistant', text: '', tools: ['[tool:Shell] npm test -- health'] },
      { role: 'user', text: 'Thanks.' },
      { role: 'assistant', text: "You're welcome." },
    ]);
    assert.deepEqual(conv.skipped, { thinking: 1, 'tool-result': 2 });
    assert.ok(!renderTranscript(conv).includes('TOOL-OUTPUT'));
  });

  it('claims only its own two-key records', () => {
    assert.equal(cursorAgent.detect('/x/a.jsonl', '{"type":"user","message":{"role":"user","content":"hi"}}'), 0);
    assert.equal(cursorAgent.detect('/x/a.jsonl', '{"role":"user","message":{"content":[{"type":"text","text":"hi"}]}}'), 0.6);
    // Records of another shape are counted as foreign, so detection refuses a file made of them.
    const conv = cursorAgent.parse(
      '{"role":"user","message":{"content":[{"type":"text","text":"hi"}]}}\n{"role":"tool","content":"x"}\n{"role":"tool","content":"y"}\n',
      '/x/a.jsonl',
    );
    assert.deepEqual(conv.skipped, { unknown: 2 });
  });
});

describe('Cursor chat exports', () => {
  it('reads turns between separators, the title, and the export stamp as the start', () => {
    const text = fs.readFileSync(EXPORT, 'utf8');
    assert.equal(detectFormat(EXPORT, text), 'cursor');
    const conv = importConversation(EXPORT, text);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.id, 'cursor_health_check_endpoint');
    assert.equal(conv.title, 'Add a health check endpoint');
    assert.equal(conv.startedAt, '2025-05-19T15:13:55.000Z');
    assert.equal(conv.model, undefined);
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Add a health check endpoint to the API.' },
      {
        role: 'assistant',
        text: "I'll add `GET /health` next to the other routes.\n\n```ts\nrouter.get('/health', (_req, res) => res.json({ ok: true }));\n```",
      },
      // A `---` line the user typed and a `**User**` line not after a separator stay text.
      { role: 'user', text: '---\n\nAlso document it:\n\n**User**\n\nin the README, please.' },
      { role: 'assistant', text: 'Done: the README lists `GET /health` under Endpoints.' },
    ]);
  });

  it('does not claim markdown without Cursor speakers', () => {
    assert.equal(cursorExport.detect('/x/a.md', '# Notes\n\n**User**\n\nhello\n'), 0);
  });
});

describe('statedTimeToIso', () => {
  it('applies the zone the stamp states, in the locales Cursor exports in', () => {
    assert.equal(statedTimeToIso('Friday, May 8, 2026, 6:05 AM (UTC+5:30)'), '2026-05-08T00:35:00.000Z');
    assert.equal(statedTimeToIso('Sunday, Sep 20, 2026, 12:31 AM (UTC+3)'), '2026-09-19T21:31:00.000Z');
    assert.equal(statedTimeToIso('12/29/2025 at 15:57:23 GMT-3'), '2025-12-29T18:57:23.000Z');
    assert.equal(statedTimeToIso('4/11/2026 at 10:29:42 PDT'), '2026-04-11T17:29:42.000Z');
    assert.equal(statedTimeToIso('2025. 7. 6. at 18시 15분 42초 GMT+9'), '2025-07-06T09:15:42.000Z');
    assert.equal(statedTimeToIso('2025/12/16 at GMT+8 16:06:09'), '2025-12-16T08:06:09.000Z');
    assert.equal(statedTimeToIso('19/05/2025 at 11:13:55'), '2025-05-19T11:13:55.000Z');
  });

  it('gives nothing for text without a real date', () => {
    assert.equal(statedTimeToIso('soon'), undefined);
    assert.equal(statedTimeToIso('2/31/2026 at 10:00 UTC'), undefined);
  });
});
