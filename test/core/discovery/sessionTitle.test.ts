import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codexThreadName, codexThreadNames, sessionTitle } from '../../../src/core/services/discovery/sessionTitle';
import { FIXTURES, makeTempDir } from '../../helpers/paths';

const TITLES = path.join(FIXTURES, 'conversations', 'titles');

describe('sessionTitle', () => {
  it('reads a small session whole', () => {
    assert.equal(sessionTitle(path.join(TITLES, 'claude-summary.jsonl')), 'Cart totals rounded with integer cents');
  });

  it("reads a large log's start and end only: the first prompt, and a title appended after megabytes of turns", () => {
    const dir = makeTempDir();
    const file = path.join(dir, '0b7e2c41-5d3a-4f0e-9c1b-2a3d4e5f6a7b.jsonl');
    const lines = fs.readFileSync(path.join(TITLES, 'claude-prompts.jsonl'), 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1]);
    // Two megabytes of tool results in the middle, which a title does not need.
    const filler = Array.from({ length: 400 }, (_, i) =>
      JSON.stringify({
        ...last,
        uuid: `f${i}`,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x'.repeat(5000) }] },
      }),
    );
    fs.writeFileSync(file, [...lines, ...filler].join('\n') + '\n');
    assert.equal(sessionTitle(file), 'The checkout page shows the wrong total when a coupon and…');
    fs.appendFileSync(
      file,
      JSON.stringify({ type: 'custom-title', customTitle: 'Coupon and shipping total', sessionId: last.sessionId }) + '\n',
    );
    assert.equal(sessionTitle(file), 'Coupon and shipping total');
  });

  it('is undefined for a missing file or one with nothing to name', () => {
    const dir = makeTempDir();
    assert.equal(sessionTitle(path.join(dir, 'gone.jsonl')), undefined);
    fs.writeFileSync(path.join(dir, 'empty.md'), '');
    assert.equal(sessionTitle(path.join(dir, 'empty.md')), undefined);
  });
});

describe('codexThreadNames', () => {
  it("reads Codex's session index, the last name of a thread winning, and names a rollout by the id its file name ends with", () => {
    const home = makeTempDir();
    const id = '019c5b35-060f-7693-b14f-9f8f75d4aea6';
    fs.writeFileSync(
      path.join(home, 'session_index.jsonl'),
      [
        { id, thread_name: 'first name', updated_at: '2026-12-01T10:00:00Z' },
        { id: '019c5b35-060f-7693-b14f-000000000002', thread_name: 'another thread', updated_at: '2026-12-01T11:00:00Z' },
        { id, thread_name: 'Payment client retries', updated_at: '2026-12-02T10:00:00Z' },
      ]
        .map((entry) => JSON.stringify(entry))
        .join('\n') + '\nnot json\n',
    );
    const names = codexThreadNames(home);
    assert.equal(codexThreadName(`/h/.codex/sessions/2026/12/07/rollout-2026-12-07T08-12-07-${id}.jsonl`, names), 'Payment client retries');
    assert.equal(
      codexThreadName('/h/.codex/sessions/2026/12/07/rollout-2026-12-07T08-12-07-019c5b35-060f-7693-b14f-999999999999.jsonl', names),
      undefined,
    );
    assert.deepEqual(codexThreadNames(path.join(home, 'nowhere')), new Map());
  });
});
