import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isClaudeCodeSessionSideFolder } from '../../../src/core/model/claudeCodeLayout';
import { DETECT_HEAD_CHARS, detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { countNonBlankLines, looksLikeJson } from '../../../src/core/services/conversations/formatCheck';
import { CORPUS, FIXTURES } from '../../helpers/paths';

const UNSUPPORTED = path.join(FIXTURES, 'conversations', 'unsupported');

/** Every conversation file of the corpus and the fixtures, look-alikes aside. */
function readableSources(): string[] {
  const files: string[] = [];
  for (const dir of [CORPUS, path.join(FIXTURES, 'conversations')]) {
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      // A Claude Code session's subagent transcripts and tool outputs are no conversations (harvest skips them too).
      if (
        entry.isFile() &&
        entry.name !== 'README.md' &&
        !file.startsWith(UNSUPPORTED + path.sep) &&
        !isClaudeCodeSessionSideFolder(entry.parentPath)
      )
        files.push(file);
    }
  }
  return files;
}

function load(file: string) {
  return importConversation(file, fs.readFileSync(file, 'utf8'));
}

describe('detection confirms the format by parsing', () => {
  it('still reads every corpus file and fixture as the format its head suggests, with turns', () => {
    const files = readableSources();
    assert.ok(files.length >= 13);
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const conv = importConversation(file, text);
      assert.equal(conv.format, detectFormat(file, text.slice(0, DETECT_HEAD_CHARS)), file);
      assert.ok(conv.turns.length > 0, file);
      assert.equal(conv.unrecognized, undefined, file);
    }
  });

  it('refuses a Gemini CLI prompt log that detection takes for Claude Code', () => {
    const logs = path.join(UNSUPPORTED, 'gemini-cli', 'logs.json');
    const text = fs.readFileSync(logs, 'utf8');
    // The head shares Claude Code's keys: this is the misdetection the check has to catch.
    assert.equal(detectFormat(logs, text), 'claude-code');
    const conv = load(logs);
    assert.deepEqual(conv.turns, []);
    assert.equal(
      conv.unrecognized,
      `looks like a Gemini CLI prompt log (logs.json), which Lore does not read yet (detected as Claude Code JSONL, but 0 of ${countNonBlankLines(text)} lines were Claude Code JSONL records)`,
    );
  });

  it('refuses JSON and JSONL look-alikes instead of reading them as plain text', () => {
    const bot = load(path.join(UNSUPPORTED, 'support-bot-log.jsonl'));
    assert.deepEqual(bot.turns, []);
    assert.equal(
      bot.unrecognized,
      'not a supported conversation format: detected as Claude Code JSONL, but 0 of 15 lines were Claude Code JSONL records',
    );
    const otel = load(path.join(UNSUPPORTED, 'otel-logs.jsonl'));
    assert.deepEqual(otel.turns, []);
    assert.equal(otel.unrecognized, 'not a supported conversation format: JSON Lines that no importer reads');
    const lock = load(path.join(UNSUPPORTED, 'package-lock.json'));
    assert.deepEqual(lock.turns, []);
    assert.equal(lock.unrecognized, 'not a supported conversation format: JSON that no importer reads');
    // JSON cut short (a partial download, a file still being written) is no prose either.
    const cut = fs.readFileSync(path.join(UNSUPPORTED, 'package-lock.json'), 'utf8').slice(0, 300);
    assert.equal(
      importConversation('/inbox/lock.json', cut).unrecognized,
      'not a supported conversation format: JSON that no importer reads',
    );
  });

  it('still reads a real Claude Code session with some broken lines and a cut-off last line', () => {
    const file = path.join(CORPUS, 'claude-code-jsonl/cctrace-phase0-investigation.jsonl');
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    const whole = importConversation(file, lines.join('\n'));
    // Lines 6 and 12 (user and assistant records) garbled, the last one cut mid-record, as a crash leaves it.
    const damaged = lines.map((line, i) => (i === 6 || i === 12 ? line.slice(0, 40) : line));
    damaged[damaged.length - 1] = damaged[damaged.length - 1].slice(0, 200);
    const conv = importConversation(file, damaged.join('\n'));
    assert.equal(conv.format, 'claude-code');
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.skipped?.malformed, 3);
    assert.ok(conv.turns.length > 0 && conv.turns.length <= whole.turns.length);
    assert.equal(conv.turns[0].text, whole.turns[0].text);
  });

  it('refuses a JSONL file in which most lines are not the format records, even with a few that are', () => {
    const claude = (text: string) =>
      JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u', parentUuid: null, message: { role: 'user', content: text } });
    const noise = (i: number) => JSON.stringify({ level: 'info', msg: `request ${i} done`, ms: i * 3 });
    const mostlyNoise = [claude('hello'), claude('again'), ...Array.from({ length: 8 }, (_, i) => noise(i))].join('\n');
    const conv = importConversation('/inbox/mixed.jsonl', mostlyNoise);
    assert.deepEqual(conv.turns, []);
    assert.equal(
      conv.unrecognized,
      'not a supported conversation format: detected as Claude Code JSONL, but 2 of 10 lines were Claude Code JSONL records',
    );
    const mostlyClaude = [claude('hello'), claude('again'), claude('third'), noise(1), noise(2)].join('\n');
    assert.equal(importConversation('/inbox/mixed.jsonl', mostlyClaude).turns.length, 3);
  });

  it('tries the next likeliest format when the likeliest one yields no turns', () => {
    // A Copilot Chat export whose metadata happens to carry Claude Code's marker keys: both score
    // 0.95, Claude Code comes first in the tie-break order and reads nothing.
    const exported = {
      requesterUsername: 'maria',
      responderUsername: 'GitHub Copilot',
      origin: { parentUuid: 'f1e2', sessionId: '7d0c' },
      requests: [{ message: { text: 'Why does parseDate shift by a day?' }, response: [{ value: 'It builds the date in local time.' }] }],
    };
    const text = JSON.stringify(exported, null, 2);
    assert.equal(detectFormat('/inbox/chat.json', text), 'claude-code');
    const conv = importConversation('/inbox/chat.json', text);
    assert.equal(conv.format, 'copilot-chat');
    assert.deepEqual(
      conv.turns.map((t) => t.text),
      ['Why does parseDate shift by a day?', 'It builds the date in local time.'],
    );
  });

  it('does not read a file of a surely detected format as plain text when it holds no turns', () => {
    const conv = importConversation(
      '/p/.aider.chat.history.md',
      '# aider chat started at 2025-01-01 10:00:00\n\n> Aider v0.86.1\n> Main model: gpt-4o\n',
    );
    assert.deepEqual(conv.turns, []);
    assert.equal(conv.unrecognized, 'read as Aider chat history, but it holds no conversation turns');
  });

  it('keeps reading prose, markdown and pasted chats as plain text', () => {
    for (const text of [
      '# Notes\n\n[TOC]\n\nWe chose esbuild.\n',
      '[10:02] me: why is the build slow?\n[10:03] bot: the cache is cold\n',
      'Decision: use UTC.\n',
    ]) {
      const conv = importConversation('/inbox/note.md', text);
      assert.equal(conv.format, 'plain', text);
      assert.equal(conv.turns.length, 1, text);
      assert.equal(conv.unrecognized, undefined, text);
    }
  });

  it('tells JSON from prose that starts with a bracket', () => {
    assert.equal(looksLikeJson('{"a": 1}'), true);
    assert.equal(looksLikeJson('{"a":1}\n{"a":2}\n'), true);
    assert.equal(looksLikeJson('[\n  {\n    "role": "user",\n    "parts": [\n      {\n        "text": "cut he'), true);
    assert.equal(looksLikeJson('[TOC]\n\nSome notes about the build.\n'), false);
    assert.equal(looksLikeJson('{{ template }} is how Jinja says it\n'), false);
    assert.equal(countNonBlankLines('a\n\n  \nb\r\nc'), 3);
  });
});
