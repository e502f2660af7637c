import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { FIXTURES } from '../../helpers/paths';

const DIR = path.join(FIXTURES, 'conversations');

function load(name: string) {
  const file = path.join(DIR, name);
  return importConversation(file, fs.readFileSync(file, 'utf8'));
}

describe('importers on hand-written fixtures', () => {
  it('reads a §2.1 transcript: headings, tools, memory turns, midnight', () => {
    const conv = load('lore-transcript.md');
    assert.equal(conv.format, 'lore-transcript');
    assert.equal(conv.id, 'ses_a1b2c3d4');
    assert.equal(conv.title, 'Autopoiesis Restructuring');
    assert.equal(conv.startedAt, '2026-02-16T23:45:00Z');
    assert.equal(conv.model, 'claude-opus-4.6');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Read all open issues and give me a summary.', at: '2026-02-16T23:45:00.000Z' },
      {
        role: 'assistant',
        text: 'Here are all 12 open issues:\n\n1. **#34** — Migrate memory from SQLite to files',
        at: '2026-02-16T23:46:00.000Z',
        tools: ['[tool:exec] gh issue list --repo autopoiesis --state open → 12 results'],
      },
      {
        role: 'assistant',
        text: '',
        at: '2026-02-16T23:52:00.000Z',
        tools: ['[knowledge:updated] knowledge/projects/autopoiesis/context.md — added migration plan'],
      },
      { role: 'user', text: "Great analysis. Let's focus on #34 first.", at: '2026-02-17T00:10:00.000Z' },
      { role: 'user', text: 'Anything else?' },
      { role: 'system', text: 'Session closed.', at: '2026-02-17T00:32:00.000Z' },
    ]);
  });

  it('reads a Claude Code session: merges split messages, drops noise, counts skips', () => {
    const conv = load('claude-session.jsonl');
    assert.equal(conv.format, 'claude-code');
    assert.equal(conv.id, '0b5e7c1a-1111-4222-8333-944455556666');
    assert.equal(conv.title, 'Fix the flaky login test');
    assert.equal(conv.cwd, '/home/dev/shop');
    assert.equal(conv.model, 'claude-sonnet-4-5-20250929');
    assert.equal(conv.startedAt, '2025-03-04T10:00:00.000Z');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'The login test fails about one run in five. Please find out why.', at: '2025-03-04T10:00:00.000Z' },
      // Read in the order written: the words, the calls they announce (the next message's too), then what was found.
      { role: 'assistant', text: "I'll look at the test first.", at: '2025-03-04T10:00:05.000Z' },
      {
        role: 'assistant',
        text: 'The test waits a fixed 100 ms for the session cookie; under load the cookie arrives later.',
        at: '2025-03-04T10:00:07.000Z',
        tools: ['[tool:Read] /home/dev/shop/test/login.test.ts', '[tool:Bash] npm test -- login → error'],
      },
      { role: 'user', text: 'Here is the screenshot of the failure.', at: '2025-03-04T10:03:00.000Z', tools: ['[attachment:image]'] },
      { role: 'user', text: '/compact keep the login notes', at: '2025-03-04T10:04:00.000Z' },
      { role: 'assistant', text: 'Done: the test now waits for the cookie with waitFor().', at: '2025-03-04T10:05:00.000Z' },
    ]);
    assert.deepEqual(conv.skipped, {
      thinking: 1,
      tool_result: 2,
      malformed: 1,
      'unknown:mystery-record': 1,
      sidechain: 2,
      meta: 1,
      'file-history-snapshot': 1,
    });
    const text = renderTranscript(conv);
    for (const hidden of [
      'SECRET-THINKING',
      'TOOL-RESULT-BODY',
      'FAIL-OUTPUT',
      'SIDECHAIN',
      'META-EXPANSION',
      'LOCAL-STDOUT',
      'BROKEN-LINE',
      'iVBOR',
    ]) {
      assert.ok(!text.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it('reads a Claude Code session as it is on disk: injected context, titles, compact boundary', () => {
    const conv = load('claude-project/5f0c2d4e-7a1b-4c3d-9e8f-0a1b2c3d4e5f.jsonl');
    assert.equal(conv.format, 'claude-code');
    // The last ai-title wins over an earlier one and over the summary record.
    assert.equal(conv.title, 'Integer cents for cart totals');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Why does the cart total round wrongly?', at: '2026-03-02T09:00:00.000Z' },
      { role: 'assistant', text: "I'll have a subagent look for the rounding code.", at: '2026-03-02T09:00:10.000Z' },
      { role: 'assistant', text: '', at: '2026-03-02T09:00:10.000Z', tools: ['[tool:Task] Find rounding code (Explore)'] },
      // The subagent's answer, from the Task result in this file; its own transcript is not read.
      {
        role: 'assistant',
        text: 'Subagent report (Find rounding code (Explore)):\n\nSUBAGENT-REPORT: totals are summed as floats in src/cart.ts',
        at: '2026-03-02T09:01:00.000Z',
      },
      {
        role: 'assistant',
        text: "Totals are summed as floats; I'll switch them to integer cents.",
        at: '2026-03-02T09:01:10.000Z',
        tools: ['[tool:Bash] npm test'],
      },
      // A system reminder and background-task notifications alone are no user turns; the caveat is not the user's.
      { role: 'user', text: 'Please keep the receipts in cents too.', at: '2026-03-02T09:11:00.000Z' },
      { role: 'assistant', text: 'Done: totals and receipts now use integer cents.', at: '2026-03-02T09:12:00.000Z' },
    ]);
    assert.equal(conv.skipped?.['compact-boundary'], 1);
    assert.equal(conv.skipped?.['compact-summary'], 1);
    const text = renderTranscript(conv);
    for (const hidden of [
      'SELECTED-CODE',
      'REMINDER-TEXT',
      'task-notification',
      'b27a792',
      'bb6abe4',
      'COMPACT-SUMMARY',
      'Caveat',
      'SUBAGENT-TEXT',
    ]) {
      assert.ok(!text.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it("keeps Claude Code subagents' answers, synchronous and background, as agent turns, never the user's", () => {
    // Shapes from Claude Code 2.1 sessions as public tools that read them record them: an Agent
    // result with an `agentId:` line, a background launch, its <task-notification> with <result>.
    const conv = load('claude-subagent-answers.jsonl');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Review the checkout flow and the refund flow in parallel.', at: '2026-05-04T10:00:00.000Z' },
      { role: 'assistant', text: "I'll start two reviewers.", at: '2026-05-04T10:00:05.000Z' },
      {
        role: 'assistant',
        text: '',
        at: '2026-05-04T10:00:05.000Z',
        tools: ['[tool:Agent] Review checkout (code-reviewer)', '[tool:Agent] Review refunds (code-reviewer)'],
      },
      {
        role: 'assistant',
        text: 'Subagent report (Review checkout (code-reviewer)):\n\nCheckout rounds tax per line; it should round the total once.',
        at: '2026-05-04T10:02:00.000Z',
      },
      { role: 'assistant', text: 'Checkout is reviewed; the refund review is still running.', at: '2026-05-04T10:02:10.000Z' },
      {
        role: 'assistant',
        text: 'Subagent report (Review refunds (code-reviewer)):\n\nRefunds skip the ledger entry when the amount is zero.',
        at: '2026-05-04T10:05:00.000Z',
      },
      {
        role: 'assistant',
        text: 'Both reviews are in: round the checkout total once, and record zero refunds.',
        at: '2026-05-04T10:05:10.000Z',
      },
    ]);
    const text = renderTranscript(conv);
    for (const hidden of ['agentId', 'Async agent launched', 'task-notification', 'total_tokens'])
      assert.ok(!text.includes(hidden), `${hidden} leaked into the transcript`);
  });

  it('counts no Claude Code record a person did not type as a user turn: notifications, monitors, peers, teammates', () => {
    const conv = load('claude-injected-user-records.jsonl');
    assert.deepEqual(
      conv.turns.map((t) => [t.role, t.text]),
      [
        ['user', 'Run the test suite in the background and watch the log.'],
        ['assistant', 'Started both.'],
        ['assistant', 'The tests pass.'],
        ['assistant', 'The log shows a refund error.'],
        ['assistant', 'Noted.'],
        ['user', 'Add a test for zero refunds.'],
        ['assistant', 'Added.'],
      ],
    );
    assert.deepEqual([conv.skipped?.['origin:task-notification'], conv.skipped?.['origin:peer']], [2, 1]);
    const text = renderTranscript(conv);
    for (const hidden of ['Read the output file', 'Dev User', 'PEER-TEXT', 'TEAMMATE-TEXT', 'was stopped'])
      assert.ok(!text.includes(hidden), `${hidden} leaked into the transcript`);
  });

  it('prefers the name the user gave a Claude Code session over the generated one', () => {
    const conv = load('claude-project/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.jsonl');
    assert.equal(conv.title, 'Release checklist');
    assert.equal(conv.turns.length, 2);
  });

  it('reads a Claude Code log saved as one JSON array by a hook (.claude/logs/chat.json), dated by its first record', () => {
    const conv = load('claude-hooks/chat.json');
    assert.equal(conv.format, 'claude-code');
    assert.equal(conv.id, 'c4d5e6f7-0819-4a2b-9c3d-4e5f60718293');
    assert.equal(conv.startedAt, '2026-11-19T07:45:02.118Z');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Why does the health check time out on staging?', at: '2026-11-19T07:45:02.118Z' },
      {
        role: 'assistant',
        text: 'The health check waits for the database pool, which staging caps at 2 connections.',
        at: '2026-11-19T07:45:09.540Z',
        tools: ['[tool:Bash] curl -s -m 5 https://staging.example.test/health → error'],
      },
    ]);
  });

  it('reads a SpecStory v2.1 export: session id, model and millisecond stamps from the headers', () => {
    const conv = load('specstory-v2.1-claude-code.md');
    assert.equal(conv.format, 'specstory');
    assert.equal(conv.id, '3e9d1c70-2b4a-4f6e-9c1d-5a7b8e2f0c44');
    assert.equal(conv.title, undefined, 'a heading that is only a time is no title');
    // The first turn's stamp, finer than the heading's.
    assert.equal(conv.startedAt, '2026-11-19T16:20:05.412Z');
    assert.equal(conv.model, 'claude-opus-4-5-20251101');
    assert.deepEqual(
      conv.turns.map((t) => [t.role, t.at]),
      [
        ['user', '2026-11-19T16:20:05.412Z'],
        ['assistant', '2026-11-19T16:20:11.087Z'],
        ['assistant', '2026-11-19T16:20:14.530Z'],
        ['assistant', '2026-11-19T16:21:02.001Z'],
      ],
    );
    assert.ok(!renderTranscript(conv).includes('GREP-OUTPUT'));
  });

  it('dates a SpecStory v2.1 Cursor session from its first turn, not from the header (the day the chat was created)', () => {
    const conv = load('specstory-v2.1-cursor.md');
    assert.equal(conv.format, 'specstory');
    assert.equal(conv.id, '2b8f0d6e-4c1a-4e59-9d3b-7a6c5e4f3d21');
    assert.equal(conv.startedAt, '2025-08-18T14:14:40Z');
    // Cursor stamps only the first message of an answer; its later parts are turns of their own.
    assert.deepEqual(
      conv.turns.map((t) => [t.role, t.at]),
      [
        ['user', '2025-08-18T14:14:40Z'],
        ['assistant', '2025-08-18T14:14:52Z'],
        ['assistant', undefined],
        ['assistant', undefined],
        ['assistant', undefined],
      ],
    );
  });

  it('reads the oldest SpecStory export: `## ` title with a locale date, `_****_` separators', () => {
    const conv = load('specstory-oldest.md');
    assert.equal(conv.format, 'specstory');
    assert.equal(conv.title, 'Debounce the search box');
    assert.equal(conv.startedAt, '2025-01-02T13:06:30');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'Debounce the search box by 300 ms.' },
      { role: 'assistant', text: "I'll look at the search component first.\n\nI added a 300 ms debounce with a cleanup on unmount." },
      { role: 'user', text: 'Thanks!' },
    ]);
  });

  it('reads an old-format Codex rollout (bare items, header line)', () => {
    const conv = load('codex-legacy.jsonl');
    assert.equal(conv.format, 'codex');
    assert.equal(conv.id, '7f9e0c2a-legacy');
    assert.equal(conv.startedAt, '2025-05-20T08:00:00.000Z');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'List the files and fix the failing build.' },
      {
        role: 'assistant',
        text: 'The build fails because tsconfig.json excludes src/.',
        tools: ['[tool:shell] ls -la', '[tool:shell] npm run build → exit 2'],
      },
    ]);
    assert.equal(conv.skipped?.state, 2);
    assert.equal(conv.skipped?.reasoning, 1);
    assert.equal(conv.skipped?.['injected-context'], 1);
    const text = renderTranscript(conv);
    for (const hidden of [
      'SYSTEM-INSTRUCTIONS',
      'REASONING-SUMMARY',
      'ENCRYPTED-BLOB',
      'OUTPUT-BODY',
      'BUILD-ERROR',
      'environment_context',
    ]) {
      assert.ok(!text.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it('reads an Aider history: multi-line #### messages, sessions, edits and commits', () => {
    const conv = load('shop.aider.chat.history.md');
    assert.equal(conv.format, 'aider');
    assert.equal(conv.id, 'shop-aider');
    assert.equal(conv.startedAt, '2025-07-01T09:15:02');
    assert.equal(conv.model, 'anthropic/claude-sonnet-4-20250514');
    assert.equal(conv.turns.length, 5);
    assert.deepEqual(conv.turns[0], {
      role: 'user',
      text: 'Add a --verbose flag to the CLI.\nIt should print every request URL.',
      at: '2025-07-01T09:15:02',
    });
    assert.equal(conv.turns[1].role, 'assistant');
    assert.ok(conv.turns[1].text.startsWith("I'll add the flag to `cli.py`.\n\ncli.py\n```python\n<<<<<<< SEARCH"));
    assert.ok(conv.turns[1].text.endsWith('>>>>>>> REPLACE\n```'));
    assert.deepEqual(conv.turns[1].tools, ['[tool:edit] cli.py', '[tool:commit] 1a2b3c4 feat: Add --verbose flag']);
    assert.deepEqual(conv.turns[2], { role: 'user', text: '/undo' });
    assert.deepEqual(conv.turns[3], { role: 'user', text: 'Why did you use argparse?', at: '2025-07-01T14:30:00' });
    assert.deepEqual(conv.turns[4], { role: 'assistant', text: 'Because the project already uses it in `cli.py`.' });
    const text = renderTranscript(conv);
    assert.ok(!text.includes('HIDDEN-THOUGHTS'));
    assert.ok(!text.includes('Tokens: 2.1k'));
    assert.ok(!text.includes('Removed: 1a2b3c4'));
  });

  it("drops Aider architect mode's handoff: the architect's reply re-logged as user input", () => {
    const conv = load('architect.aider.chat.history.md');
    assert.equal(conv.format, 'aider');
    assert.deepEqual(
      conv.turns.filter((t) => t.role === 'user').map((t) => t.text),
      ['Make the retry delay configurable.', 'Should the default stay at 500 ms?', 'Thanks, that is all.'],
    );
    assert.equal(conv.skipped?.['architect-handoff'], 1);
    // The editor's edit and commit still belong to the exchange.
    assert.ok(conv.turns.some((t) => t.tools?.includes('[tool:edit] client.ts')));
  });

  it('drops the handoff Aider logs without asking (v0.85, architect replies accepted by default)', () => {
    const conv = load('architect-v085.aider.chat.history.md');
    // Only what the person typed is theirs: three prompts, though six `####` messages were logged.
    assert.deepEqual(
      conv.turns.filter((t) => t.role === 'user').map((t) => t.text),
      [
        'Cache the exchange rates for an hour instead of fetching them on every request.',
        'Why an hour and not a day?',
        'Log a warning when the cached rates are served after a failed fetch.',
      ],
    );
    assert.equal(conv.skipped?.['architect-handoff'], 3);
    const prompts = conv.turns.filter((t) => t.role === 'user');
    assert.equal(prompts[2].at, '2025-07-15T16:40:03');
    // The architect's plan and the editor's edits stay with the exchange they answer.
    const first = conv.turns[1];
    assert.equal(first.role, 'assistant');
    assert.ok(first.text.startsWith('Add a module-level cache to `rates.py`:'));
    assert.ok(first.text.includes('less than 3600 seconds old.\n\nrates.py\n```python'));
    assert.equal(conv.turns.length, 6);
    assert.deepEqual(first.tools, ['[tool:edit] rates.py', '[tool:commit] 3f9e2a1 feat: Cache exchange rates for an hour']);
  });
});
