import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationFormat } from '../../../src/core/model/conversation';
import { DETECT_HEAD_CHARS, detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { CORPUS } from '../../helpers/paths';

interface CorpusCase {
  file: string;
  format: ConversationFormat;
  id: string;
  userTurns: number;
  assistantTurns: number;
  /** Text the user typed, which must reach the transcript. */
  present: string[];
  /** Thinking, tool output, instructions, injected context, sidechains: must not. */
  absent: string[];
  /** Upper bound of rendered size / raw size. */
  maxRatio?: number;
}

/*
 * Turn counts were checked against the sources by hand (a script over the raw files):
 * - Claude Code: typed user records that are neither isMeta nor isSidechain, plus, in cctrace, the
 *   two AskUserQuestion answers, which are the user's own words. A Task call's result is its
 *   subagent's answer, an agent turn of its own.
 * - Aider monochromatic: 63 `####` lines form 26 messages (consecutive lines are one message).
 */
const CASES: CorpusCase[] = [
  {
    file: 'claude-code-jsonl/cctrace-phase0-investigation.jsonl',
    format: 'claude-code',
    id: '132b2f66-ee5f-46f6-8904-32d9dc4d36c3',
    userTurns: 3,
    // 9 of the agent's own (4 of them calls made after its words), and the reports of its 3 Explore subagents.
    assistantTurns: 12,
    present: [
      '## 09:15 — user\n@claude-code-prompt.md really ULTRATHINK this',
      '→ can you explain the modifications needed to test?  is this for the import options?',
      '→ Yes, run the tests',
      '> [tool:Read] /mnt/c/python/cctrace/objective.md',
      '> [tool:Write] /home/jim/.claude/plans/hazy-enchanting-piglet.md',
      // A Task tool_result is the subagent's answer: kept, cut to its first 4000 characters.
      "Subagent report (Explore cctrace codebase structure (Explore)):\n\nPerfect! I've thoroughly explored the cctrace codebase.",
      'characters, is not kept]',
    ],
    absent: [
      'The user wants me to read the claude-code-prompt.md file', // thinking
      '# Objective: Portable, Resumable Claude Code Sessions', // Read tool_result
      'EoQICkYICxgCKkAFQxdPKLmkG3xCfm', // thinking signature
      // The last file-history-snapshot record (a subagent's report describes the record type, so its key name may appear).
      'hazy-enchanting-piglet.md":{"backupFileName"',
      '"backupTime":"2026-01-06T09:23:46',
    ],
    // Three 4 KB subagent reports; without them 0.023.
    maxRatio: 0.1,
  },
  {
    file: 'claude-code-jsonl/claude-code-viewer-orchestrator-ja.jsonl',
    format: 'claude-code',
    id: '5c0375b4-57a5-4f26-b12d-d022ee4e51b7',
    userTurns: 1,
    // 3 of the agent's own, 2 subagent reports, and the agent's words after each report.
    assistantTurns: 7,
    present: [
      '/orchestrator @CLAUDE.md を最新の状態にアップデートしてください',
      'CLAUDE.mdファイルを最新の状態にアップデートしました',
      '> [tool:Edit] /path/to/Demo/CLAUDE.md → error',
      'Subagent report (Check package configuration (general-purpose)):\n\n## Package.json Analysis Summary',
    ],
    absent: [
      'Split complex tasks into independent subtasks', // isMeta command expansion
      "I'll examine the package.json files in the Demo directory", // sidechain
      'Examine the package.json file(s)', // sidechain prompt
      '<command-message>',
      'Todos have been modified successfully', // tool_result
    ],
    maxRatio: 0.05,
  },
  {
    file: 'claude-code-jsonl/claude-reliability-coverage-test-fix.jsonl',
    format: 'claude-code',
    id: 'c64cc478-3430-40fe-8e9c-4ee9986e9754',
    userTurns: 1,
    assistantTurns: 8,
    present: [
      'Add a function called multiply_numbers(a: int, b: int) -> int that multiplies two numbers together. Add a test for it.',
      '> [tool:Bash] python -m pytest tests/test_math_utils.py -v',
    ],
    absent: ['Stop hook feedback', '"""Math utility functions."""', 'test session starts', 'queue-operation'],
    maxRatio: 0.1,
  },
  {
    file: 'codex-jsonl/privacy-x402-codex-session.jsonl',
    format: 'codex',
    id: '019c5b35-060f-7693-b14f-9f8f75d4aea6',
    userTurns: 1,
    assistantTurns: 3,
    present: [
      '## 08:12 — user\ninit',
      '> [tool:exec_command] cd /Users/yukikimura/work/bnpl-yield-discount && ls -la',
      'What do you want `init` to produce?',
    ],
    absent: [
      'You are Codex, a coding agent based on GPT-5', // base_instructions
      'gAAAAABpkC5gvEP4BP2C5o', // encrypted_content
      'Interpreting initialization requests', // reasoning
      '# AGENTS.md instructions',
      '<environment_context>',
      '<permissions instructions>',
      'Collaboration Mode',
      'Chunk ID: fd9964', // function_call_output
    ],
    maxRatio: 0.05,
  },
  {
    file: 'aider-md/monochromatic.aider.chat.history.md',
    format: 'aider',
    id: 'monochromatic-aider',
    userTurns: 26,
    assistantTurns: 18,
    present: [
      "## user\nComment on my CONVENTIONS.md\nI'm looking for suggestions, feedbacks. Everything.",
      '## 11:49 — user\nWhat can you say about this package?',
      '> [tool:commit] 54d022e docs: Add coding conventions document',
    ],
    absent: ['> Tokens:', 'Repo-map can', 'litellm.BadRequestError', 'KeyboardInterrupt'],
  },
  {
    file: 'aider-md/mozgoslav-ru.aider.chat.history.md',
    format: 'aider',
    id: 'mozgoslav-ru-aider',
    userTurns: 7,
    assistantTurns: 6,
    present: ['## 22:40 — user\nhi', 'Про что проект мозгослав и на каком этапе сейчас RAG?', 'Привет! Готов к работе.'],
    // Aider logged one prompt answer as a `####` line ("Add file to the chat? … all"): it stays a user turn.
    absent: [
      "Here's a thinking process",
      'thinking-content-',
      "Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: d",
      'Tokens: 1.8k sent',
    ],
  },
  {
    file: 'aider-md/zen-mcp-server.aider.chat.history.md',
    format: 'aider',
    id: 'zen-mcp-server-aider',
    userTurns: 8,
    assistantTurns: 0,
    present: [
      '/copy-context 请你分析一下我这列的处理，我想知道我',
      '/add /home/dragonfsky/git/github/zen-mcp-server/utils/file_utils.py\n  /home/dragonfsky/git/github/zen-mcp-server/utils/token_utils.py',
    ],
    absent: ['KeyboardInterrupt', 'SSLError', 'Added config.py to the chat'],
  },
  {
    file: 'specstory-md/minsky-continuing-task-001.md',
    format: 'specstory',
    id: 'minsky-continuing-task-001',
    userTurns: 7,
    assistantTurns: 7,
    present: [
      '# Continuing Task 001\n',
      'why didnt you switch into the session repo for this task?',
      '> [tool] Listed directory src • 3 results',
      '> [tool:terminal] bun install',
      '> [tool:read] src/cli.ts',
    ],
    absent: ['Generated by SpecStory', '<details>', 'error: Module not found "src/index.ts"', '1 package installed'],
  },
  {
    // Two fences in it end on a line of their own only by accident: the agent's ```markdown answer
    // holds a ```markdown example, so the export's fences pair up wrongly and two user turns sat
    // inside a code block; a rule fetch and a file rewritten by 81 diff lines are tool output.
    file: 'specstory-md/minsky-existing-guidelines-for-cursor-rules.md',
    format: 'specstory',
    id: 'minsky-existing-guidelines-for-cursor-rules',
    userTurns: 6,
    assistantTurns: 6,
    present: [
      '## user\nmention that rules MUST always be created in the `.cursor/rules` directory at the root of the project',
      '## user\nok, go ahead and write this rule',
      '> [tool:rule] derived-cursor-rules',
      '> [tool:edit] 81 lines changed',
    ],
    absent: ['PROJECT DOCUMENTATION & CONTEXT SYSTEM', '+ Rules are read by AI assistants with limited attention spans'],
    maxRatio: 0.45,
  },
  {
    file: 'copilot-chat-json/copilot-chat-analyzer-export-hi.json',
    format: 'copilot-chat',
    id: 'copilot-chat-analyzer-export-hi',
    userTurns: 2,
    assistantTurns: 2,
    present: ['## 15:16 — user\nhi\n\n## 15:16 — agent\nHello! How can I help you today?', '## 15:17 — user\nhello'],
    absent: ['reminderInstructions', '<context>', 'PowerShell', 'mimicai-user1'],
  },
];

describe('importers on the real transcript corpus', () => {
  for (const c of CASES) {
    it(`${c.file}: ${c.format}, id, ${c.userTurns} user turns, no hidden content`, () => {
      const file = path.join(CORPUS, c.file);
      const raw = fs.readFileSync(file, 'utf8');
      assert.equal(detectFormat(file, raw.slice(0, DETECT_HEAD_CHARS)), c.format);
      const conv = importConversation(file, raw);
      assert.equal(conv.format, c.format);
      assert.equal(conv.id, c.id);
      assert.equal(conv.sourcePath, file);
      assert.equal(conv.turns.filter((t) => t.role === 'user').length, c.userTurns);
      assert.equal(conv.turns.filter((t) => t.role === 'assistant').length, c.assistantTurns);
      const text = renderTranscript(conv);
      assert.ok(text.includes(`source: ${c.format}\n`));
      for (const p of c.present) assert.ok(text.includes(p), `missing: ${p}`);
      for (const a of c.absent) assert.ok(!text.includes(a), `leaked: ${a}`);
      if (c.maxRatio !== undefined) {
        const ratio = Buffer.byteLength(text) / Buffer.byteLength(raw);
        assert.ok(ratio < c.maxRatio, `rendered is ${(ratio * 100).toFixed(1)}% of the raw file`);
      }
    });
  }

  it('does not double Codex messages that event_msg repeats', () => {
    const file = path.join(CORPUS, 'codex-jsonl/privacy-x402-codex-session.jsonl');
    const text = renderTranscript(importConversation(file, fs.readFileSync(file, 'utf8')));
    assert.equal(text.split('Repo init can mean a few things').length - 1, 1);
    assert.equal(text.split('\ninit\n').length - 1, 1);
  });

  it('keeps cwd, model and start of the session records', () => {
    const claude = path.join(CORPUS, 'claude-code-jsonl/cctrace-phase0-investigation.jsonl');
    const c = importConversation(claude, fs.readFileSync(claude, 'utf8'));
    assert.equal(c.cwd, '/mnt/c/python/cctrace');
    assert.equal(c.model, 'claude-opus-4-5-20251101');
    assert.equal(c.startedAt, '2026-01-06T09:15:59.901Z');
    assert.deepEqual(c.skipped, { 'file-history-snapshot': 2, thinking: 5, tool_result: 8 });
    const codexFile = path.join(CORPUS, 'codex-jsonl/privacy-x402-codex-session.jsonl');
    const x = importConversation(codexFile, fs.readFileSync(codexFile, 'utf8'));
    assert.equal(x.cwd, '/Users/yukikimura/work/bnpl-yield-discount');
    assert.equal(x.model, 'gpt-5.3-codex');
    assert.equal(x.startedAt, '2026-02-14T08:12:07.567Z');
  });

  it('turns all 43 Aider commits of monochromatic into tool lines', () => {
    const file = path.join(CORPUS, 'aider-md/monochromatic.aider.chat.history.md');
    const conv = importConversation(file, fs.readFileSync(file, 'utf8'));
    const tools = conv.turns.flatMap((t) => t.tools ?? []);
    assert.equal(tools.filter((t) => t.startsWith('[tool:commit] ')).length, 43);
    assert.equal(conv.startedAt, '2025-06-02T11:47:49');
  });
});
