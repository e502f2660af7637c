import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { opencode } from '../../../src/core/services/conversations/opencode';
import { assembleSession, listDatabaseSessions, listStorageSessions } from '../../../src/core/services/conversations/opencodeStore';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { buildOpenCodeDb } from '../../helpers/opencodeDb';
import { FIXTURES, makeTempDir } from '../../helpers/paths';

// Fixture sources: test/fixtures/opencode/README.md.
const STORAGE = path.join(FIXTURES, 'opencode', 'storage');
const PROJECT = '4f9c2a7e1b3d5c6a8e0f2b4d6c8a0e1f3b5d7c9a';
const CART = 'ses_5d2a8f1c3ffeQhX2kLm9NpRsTa';
const RELEASE = 'ses_5d2b11aa2ffeHelloWorld0002';
const EXPORT = path.join(FIXTURES, 'conversations', 'opencode', `${RELEASE}.json`);

function importSession(entry: ReturnType<typeof listStorageSessions>[number]) {
  return importConversation(entry.path, assembleSession(entry.source).text);
}

describe('OpenCode sessions', () => {
  it('lists the top-level sessions of a storage folder, not the subagent session', () => {
    assert.deepEqual(
      listStorageSessions(STORAGE).map((s) => s.path),
      [CART, RELEASE].map((id) => path.join(STORAGE, 'session', PROJECT, `${id}.json`)),
    );
  });

  it('assembles a session from its session, message and part files and reads it', () => {
    const [cart] = listStorageSessions(STORAGE);
    const conv = importSession(cart);
    assert.equal(conv.unrecognized, undefined);
    assert.equal(conv.format, 'opencode');
    assert.equal(conv.id, CART);
    assert.equal(conv.title, 'Integer cents for cart totals');
    assert.equal(conv.cwd, '/home/dev/shop');
    assert.equal(conv.model, 'claude-sonnet-4-5');
    assert.equal(conv.startedAt, '2026-03-02T09:00:00.000Z');
    assert.deepEqual(conv.turns, [
      {
        role: 'user',
        text: 'Why does the cart total round wrongly?',
        at: '2026-03-02T09:00:00.000Z',
        tools: ['[attachment:file] cart.ts'],
      },
      // The call came after the words, at its own start time.
      { role: 'assistant', text: "I'll have a subagent look for the rounding code.", at: '2026-03-02T09:00:10.000Z' },
      { role: 'assistant', text: '', at: '2026-03-02T09:00:12.000Z', tools: ['[tool:task] Find rounding code (general)'] },
      // The subagent's answer, from the task tool's output, as the agent's turn: never the user's words.
      {
        role: 'assistant',
        text: 'Subagent report (Find rounding code (general)):\n\nTotals are summed as floats in src/cart.ts (line 12); nothing rounds them.',
        at: '2026-03-02T09:01:00.000Z',
      },
      {
        role: 'assistant',
        text: 'Totals are summed as floats; I switched them to integer cents.',
        at: '2026-03-02T09:01:01.000Z',
        tools: ['[tool:bash] npm test', '[tool:edit] /home/dev/shop/src/cart.ts → error'],
      },
      { role: 'user', text: 'Please keep the receipts in cents too.', at: '2026-03-02T09:10:00.000Z' },
      { role: 'assistant', text: 'Done: totals and receipts now use integer cents.', at: '2026-03-02T09:10:10.000Z' },
    ]);
    assert.deepEqual(conv.skipped, { synthetic: 1, 'step-start': 1, reasoning: 1, 'step-finish': 1, patch: 1 });
    const rendered = renderTranscript(conv);
    for (const hidden of ['SYNTHETIC-FILE-BODY', 'SECRET-REASONING', 'TOOL-OUTPUT', 'CHILD-SESSION-TEXT', 'oldString']) {
      assert.ok(!rendered.includes(hidden), `${hidden} leaked into the transcript`);
    }
  });

  it('gives the same bytes from opencode.db as from the storage folder it was migrated from', () => {
    const db = path.join(makeTempDir('lore-opencode-'), 'opencode.db');
    buildOpenCodeDb(STORAGE, db);
    const fromDb = listDatabaseSessions(db);
    assert.deepEqual(
      fromDb.map((s) => s.path),
      [CART, RELEASE].map((id) => `${db}#${id}`),
    );
    const fromFolder = listStorageSessions(STORAGE);
    for (let i = 0; i < fromFolder.length; i++) {
      assert.equal(assembleSession(fromDb[i].source).text, assembleSession(fromFolder[i].source).text);
    }
    // Opened read-only: reading leaves the database as it was.
    const before = fs.readFileSync(db);
    importSession(fromDb[0]);
    assert.deepEqual(fs.readFileSync(db), before);
  });

  it('reads `opencode export` output; a placeholder title is no title', () => {
    const text = fs.readFileSync(EXPORT, 'utf8');
    assert.equal(detectFormat(EXPORT, text), 'opencode');
    const conv = importConversation(EXPORT, text);
    assert.equal(conv.id, RELEASE);
    assert.equal(conv.title, 'Release script walkthrough');
    assert.equal(conv.model, 'gpt-5.1-codex');
    assert.deepEqual(conv.turns, [
      { role: 'user', text: 'What does the release script do?', at: '2026-03-03T14:00:00.000Z', tools: ['[attachment:image]'] },
      {
        role: 'assistant',
        text: 'It tags the commit and publishes the package.',
        at: '2026-03-03T14:00:05.000Z',
        tools: ['[tool:read] /home/dev/shop/scripts/release.sh'],
      },
    ]);
    const [, release] = listStorageSessions(STORAGE);
    assert.equal(importSession(release).title, undefined);
  });

  it('names one file of the storage folder for what it is, never a conversation of its own', () => {
    for (const file of [
      path.join(STORAGE, 'session', PROJECT, `${CART}.json`),
      path.join(STORAGE, 'message', CART, 'msg_a001.json'),
      path.join(STORAGE, 'part', 'msg_a001', 'prt_a001a.json'),
    ]) {
      const conv = importConversation(file, fs.readFileSync(file, 'utf8'));
      assert.deepEqual(conv.turns, [], file);
      assert.match(
        conv.unrecognized ?? '',
        /^looks like one file of an OpenCode session \(harvest the storage folder or opencode\.db/,
        file,
      );
    }
  });

  it('claims no JSON without a session id, and reads a message-less session as having no turns', () => {
    assert.equal(opencode.detect('/x/a.json', '{"info":{"id":"x"},"messages":[]}'), 0);
    const conv = importConversation('/x/s.json', JSON.stringify({ info: { id: 'ses_abc' }, messages: [] }));
    assert.deepEqual(conv.turns, []);
    assert.ok(conv.unrecognized);
  });
});
