import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cline } from '../../../src/core/services/conversations/cline';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { FIXTURES } from '../../helpers/paths';

/*
 * cline/<task id>/api_conversation_history.json was written by hand from cline/cline:
 * src/shared/messages/content.ts (`ClineStorageMessage`: role, content, ts, modelInfo, metrics),
 * the XML tool protocol of src/core/prompts and the way src/core/task wraps user content
 * (`<task>`, `<feedback>`, `<environment_details>`, `[tool for 'x'] Result:`). Content invented.
 */
const FIXTURE = path.join(FIXTURES, 'conversations', 'cline', '1761300000000', 'api_conversation_history.json');

describe('Cline / Roo Code / Kilo Code task histories', () => {
  it('keeps the person’s words and the agent’s, with XML and native tool calls as tool lines', () => {
    const text = fs.readFileSync(FIXTURE, 'utf8');
    assert.equal(detectFormat(FIXTURE, text), 'cline');
    const conv = importConversation(FIXTURE, text);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.id, '1761300000000');
    assert.equal(conv.model, 'claude-sonnet-4-5-20250929');
    assert.equal(conv.startedAt, '2025-10-24T10:00:00.000Z');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'parseDate returns the previous day for midnight UTC. Find out why.', at: '2025-10-24T10:00:00.000Z' },
      // Each message's words came before its calls: they are read in that order.
      { role: 'assistant', text: 'Let me read the parser first.', at: '2025-10-24T10:00:04.000Z' },
      { role: 'assistant', text: '', at: '2025-10-24T10:00:04.000Z', tools: ['[tool:read_file] src/parseDate.ts'] },
      { role: 'assistant', text: "It uses the local time zone. I'll switch it to `Date.UTC`.", at: '2025-10-24T10:00:09.000Z' },
      { role: 'assistant', text: '', at: '2025-10-24T10:00:09.000Z', tools: ['[tool:replace_in_file] src/parseDate.ts'] },
      { role: 'user', text: 'Also run the tests after the change.', at: '2025-10-24T10:00:30.000Z' },
      { role: 'assistant', text: '', at: '2025-10-24T10:00:34.000Z', tools: ['[tool:execute_command] npm test'] },
      { role: 'assistant', text: 'parseDate now builds dates with Date.UTC; all 42 tests pass.', at: '2025-10-24T10:00:52.000Z' },
    ]);
    const rendered = renderTranscript(conv);
    for (const hidden of [
      'SECRET-THINKING',
      'SECRET-NATIVE-THINKING',
      'TOOL-OUTPUT-BODY',
      'NATIVE-TOOL-OUTPUT',
      'DIFF-BODY',
      'ENV-FILE-LIST',
      'environment_details',
      '<task>',
      'denied',
    ]) {
      assert.ok(!rendered.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it('reads a plain-string task and native completion, and is refused for other JSON arrays', () => {
    const text = JSON.stringify([
      { role: 'user', content: '<task>\nRename foo\n</task>\n\n<environment_details>\nENV\n</environment_details>' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'attempt_completion', input: { result: 'Renamed.' } }] },
    ]);
    const conv = cline.parse(text, '/roo/tasks/0199a-task/api_conversation_history.json');
    assert.equal(conv.id, '0199a-task');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Rename foo' },
      { role: 'assistant', text: 'Renamed.' },
    ]);
    // An array of role-tagged messages from somewhere else, under another name, is not claimed.
    assert.equal(cline.detect('/inbox/messages.json', '[{"role":"user","content":"hi"}]'), 0);
    const other = importConversation('/inbox/messages.json', '[{"role":"user","content":"hi"}]');
    assert.deepEqual(other.turns, []);
    assert.ok(other.unrecognized);
  });

  it('keeps the task’s ui_messages.json unrecognized, naming the file Lore reads instead', () => {
    const ui = JSON.stringify([
      { ts: 1761300000000, type: 'say', say: 'task', text: 'parseDate returns the previous day' },
      { ts: 1761300004000, type: 'say', say: 'text', text: 'Let me read the parser first.' },
    ]);
    const conv = importConversation('/g/tasks/1761300000000/ui_messages.json', ui);
    assert.deepEqual(conv.turns, []);
    assert.match(
      conv.unrecognized ?? '',
      /^looks like a Cline task’s panel log \(ui_messages\.json; Lore reads the api_conversation_history\.json next to it\)/,
    );
  });
});
