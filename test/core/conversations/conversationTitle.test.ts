import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversationTitle } from '../../../src/core/services/conversations/conversationTitle';
import { importConversation } from '../../../src/core/services/conversations/detect';
import type { Conversation } from '../../../src/core/model/conversation';
import { CORPUS, FIXTURES } from '../../helpers/paths';

const TITLES = path.join(FIXTURES, 'conversations', 'titles');

function titleOf(file: string): string | undefined {
  return conversationTitle(importConversation(file, fs.readFileSync(file, 'utf8')));
}

const conversation = (turns: Conversation['turns'], extra: Partial<Conversation> = {}): Conversation => ({
  id: 'c1',
  format: 'plain',
  sourcePath: '/x.md',
  turns,
  ...extra,
});

describe('conversationTitle', () => {
  it('Claude Code: the summary record a resumed session starts with, before the first prompt', () => {
    assert.equal(titleOf(path.join(TITLES, 'claude-summary.jsonl')), 'Cart totals rounded with integer cents');
  });

  it('Claude Code: the title Claude Code generated wins over the summary record', () => {
    assert.equal(
      titleOf(path.join(FIXTURES, 'conversations', 'claude-project', '5f0c2d4e-7a1b-4c3d-9e8f-0a1b2c3d4e5f.jsonl')),
      'Integer cents for cart totals',
    );
  });

  it('Claude Code with only prompts: the first real prompt, past the caveat, a bare /clear, its output, the IDE and reminder wrappers', () => {
    assert.equal(titleOf(path.join(TITLES, 'claude-prompts.jsonl')), 'The checkout page shows the wrong total when a coupon and…');
  });

  it('Claude Code: a slash command with arguments is what the person asked (a real session)', () => {
    assert.equal(
      titleOf(path.join(CORPUS, 'claude-code-jsonl', 'claude-code-viewer-orchestrator-ja.jsonl')),
      '/orchestrator @CLAUDE.md を最新の状態にアップデートしてください',
    );
  });

  it('Codex: the name the thread was given, else the first prompt after the injected AGENTS.md and environment', () => {
    const file = path.join(TITLES, 'codex-agents-first.jsonl');
    assert.equal(titleOf(file), 'Payment client retries');
    const unnamed = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !line.includes('thread_name_updated'))
      .join('\n');
    assert.equal(conversationTitle(importConversation(file, unnamed)), 'Add a retry with backoff to the payment client');
  });

  it('Codex: a real rollout is named by its first prompt, not its AGENTS.md', () => {
    const title = titleOf(path.join(CORPUS, 'codex-jsonl', 'privacy-x402-codex-session.jsonl'));
    assert.ok(title && !/AGENTS\.md|environment_context|permissions/.test(title), title);
  });

  it("Codex IDE extension: the person's request, without the open files before it", () => {
    assert.equal(titleOf(path.join(TITLES, 'codex-ide-request.jsonl')), 'why does the webhook fire twice?');
  });

  it('is one line of at most 60 characters, with secrets redacted', () => {
    const title = conversationTitle(
      conversation([{ role: 'user', text: 'deploy with key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghij\nthen check' }]),
    );
    assert.ok(title && title.length <= 60 && !title.includes('\n'), title);
    assert.doesNotMatch(title, /AbCdEfGhIjKlMnOp/);
  });

  it("ignores a stored transcript's heading that is only its id, and agent turns; nothing to name gives undefined", () => {
    assert.equal(
      conversationTitle(
        conversation(
          [
            { role: 'assistant', text: 'Hello' },
            { role: 'user', text: 'Why?' },
          ],
          { title: 'c1' },
        ),
      ),
      'Why?',
    );
    assert.equal(
      conversationTitle(
        conversation([
          { role: 'user', text: '/compact' },
          { role: 'assistant', text: 'Done.' },
        ]),
      ),
      undefined,
    );
    assert.equal(conversationTitle(conversation([])), undefined);
  });
});
