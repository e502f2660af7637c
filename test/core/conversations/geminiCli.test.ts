import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { geminiCli } from '../../../src/core/services/conversations/geminiCli';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { FIXTURES } from '../../helpers/paths';

// The fixtures in conversations/gemini-cli/ follow gemini-cli's chatRecordingTypes.ts and
// chatRecordingService.ts (see conversations/unsupported/README.md for the commits read).
const DIR = path.join(FIXTURES, 'conversations', 'gemini-cli');
const LEGACY = path.join(DIR, 'session-2025-10-14T09-31-7c2e91d4.json');
const CURRENT = path.join(DIR, 'session-2026-06-02T16-05-3a8d5e10.jsonl');
const jsonl = (...records: unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n');

function load(file: string) {
  const text = fs.readFileSync(file, 'utf8');
  assert.equal(detectFormat(file, text), 'gemini-cli', file);
  return importConversation(file, text);
}

describe('Gemini CLI sessions', () => {
  it('reads the older whole-file session: turns, tool lines, the first turn’s time; drops thoughts, results and notices', () => {
    const conv = load(LEGACY);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.format, 'gemini-cli');
    assert.equal(conv.id, '7c2e91d4-5b0a-4f3e-9d61-0a8f2c4b7e13');
    assert.equal(conv.startedAt, '2025-10-14T09:31:07.412Z');
    assert.equal(conv.model, 'gemini-2.5-pro');
    assert.deepEqual(
      conv.turns.map((t) => [t.role, t.at, t.tools ?? []]),
      [
        ['user', '2025-10-14T09:31:07.412Z', []],
        [
          'assistant',
          '2025-10-14T09:31:12.908Z',
          [
            '[tool:read_file] /home/maria/src/billing/src/parseDate.ts',
            '[tool:run_shell_command] TZ=Europe/Berlin npx vitest run test/parseDate.test.ts → error',
          ],
        ],
        ['assistant', '2025-10-14T09:31:27.054Z', ['[tool:replace] /home/maria/src/billing/src/parseDate.ts']],
        ['user', '2025-10-14T09:32:05.640Z', []],
        // Gemini CLI adds a response's calls to the message that holds its text: they came after it.
        ['assistant', '2025-10-14T09:32:31.218Z', []],
        ['assistant', '2025-10-14T09:32:31.218Z', ['[tool:run_shell_command] TZ=UTC npx vitest run && TZ=Europe/Berlin npx vitest run']],
      ],
    );
    assert.match(conv.turns[0].text, /^The test in test\/parseDate\.test\.ts fails since we moved the CI runners to UTC\+2\./);
    assert.match(conv.turns[4].text, /^Both runs pass now/);
    assert.deepEqual(conv.skipped, { thinking: 2, info: 1 });
    const rendered = renderTranscript(conv);
    for (const hidden of [
      'Investigating the failing test',
      'AssertionError',
      'export function parseDate',
      'fileDiff',
      'Request cancelled.',
      'Successfully modified',
    ]) {
      assert.ok(!rendered.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it('replays the JSONL log: a re-written message counts once, $set gives the title', () => {
    const legacy = load(LEGACY);
    const conv = load(CURRENT);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.id, '3a8d5e10-6c2f-4b97-8e41-d05f7b9c2a68');
    assert.equal(conv.title, 'Fix parseDate time zone bug in CI');
    assert.equal(conv.startedAt, '2026-06-02T16:05:11.300Z');
    // The same conversation as the older file, written the newer way.
    assert.deepEqual(
      conv.turns.map((t) => [t.role, t.text, t.tools]),
      legacy.turns.map((t) => [t.role, t.text, t.tools]),
    );
  });

  it('$rewindTo drops that message and the ones after it; unknown records are counted', () => {
    const text = jsonl(
      { sessionId: 'g1', projectHash: 'h', startTime: '2026-07-01T08:00:00.000Z' },
      { id: 'a', timestamp: '2026-07-01T08:00:05.000Z', type: 'user', content: [{ text: 'first try' }] },
      { id: 'b', timestamp: '2026-07-01T08:00:09.000Z', type: 'gemini', content: 'REWOUND-ANSWER' },
      { $rewindTo: 'a' },
      {
        id: 'c',
        timestamp: '2026-07-01T08:01:00.000Z',
        type: 'user',
        content: [{ text: 'second try' }, { inlineData: { mimeType: 'image/png', data: 'iVBOR' } }],
      },
      {
        id: 'd',
        timestamp: '2026-07-01T08:01:04.000Z',
        type: 'gemini',
        content: [{ text: 'PRIVATE-THOUGHT', thought: true }, { text: 'Done.' }],
      },
      { something: 'else' },
    );
    const conv = geminiCli.parse(text, '/g/chats/session-2026-07-01T08-00-g1.jsonl');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'second try', at: '2026-07-01T08:01:00.000Z' },
      { role: 'assistant', text: 'Done.', at: '2026-07-01T08:01:04.000Z' },
    ]);
    assert.equal(conv.startedAt, '2026-07-01T08:01:00.000Z');
    assert.deepEqual(conv.skipped, { part: 1, thinking: 1, unknown: 1 });
  });

  it('is not claimed without Gemini CLI’s key pair, and keeps the session start when no message has a time', () => {
    assert.equal(geminiCli.detect('/x/session-1.jsonl', '{"type":"user","sessionId":"a"}'), 0);
    const conv = geminiCli.parse(
      jsonl({ sessionId: 'g2', projectHash: 'h', startTime: '2026-07-02T09:00:00.000Z' }, { id: 'a', type: 'user', content: 'hi' }),
      '/g/x.jsonl',
    );
    assert.equal(conv.startedAt, '2026-07-02T09:00:00.000Z');
  });
});
