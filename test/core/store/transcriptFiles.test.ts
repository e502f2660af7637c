import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Conversation } from '../../../src/core/model/conversation';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { renderForStore } from '../../../src/core/services/harvest/transcriptPlan';
import { readLedger, writeLedger } from '../../../src/core/store/ledger';
import { storePaths } from '../../../src/core/store/storePaths';
import {
  TranscriptTakenError,
  storedTranscriptSha,
  titleSlug,
  transcriptRelativePath,
  transcriptStats,
  writeTranscriptOnce,
} from '../../../src/core/store/transcriptFiles';
import { ALNUM, cat, fake } from '../safety/secretSamples';
import { makeTempDir } from '../../helpers/paths';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

function conversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: 'sess-1',
    format: 'claude-code',
    sourcePath: '/x/sess-1.jsonl',
    title: 'Fix the login race',
    startedAt: '2026-11-20T09:58:30.000Z',
    cwd: '/home/dev/shop',
    model: 'claude-sonnet-4-5',
    turns: [
      { role: 'user', text: 'Why does login fail?', at: '2026-11-20T09:58:30.000Z' },
      { role: 'assistant', text: 'A race in the session store.', at: '2026-11-20T10:04:59.000Z', tools: ['[tool:Bash] npm test → exit 1'] },
      { role: 'assistant', text: '  ', at: '2026-11-20T10:05:00.000Z' },
    ],
    ...overrides,
  };
}

describe('stored transcripts (transcripts/)', () => {
  it('names the file without a secret its id or title held, redacted before the slug lower-cases and cuts it', () => {
    const aws = cat('AKIA', fake('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16));
    const ghp = cat('ghp_', fake(ALNUM, 36));
    const name = transcriptRelativePath({ id: `id_${ghp}`, title: `Rotate ${aws} today`, started: '2026-11-20T09:58:30.000Z' });
    assert.equal(name, 'transcripts/2026/11/20/0958-id_REDACTED-github-pat-rotate-redacted-aws-access-key-id-today.md');
    for (const secret of [aws, ghp, aws.toLowerCase(), ghp.slice(0, 12)]) assert.ok(!name.includes(secret), name);
  });

  it('names the file from the start in UTC, a file-name-safe id and a short ASCII slug of the title', () => {
    assert.equal(
      transcriptRelativePath({ id: 'sess-1', title: 'Fix the login race', started: '2026-11-20T09:58:30.000Z' }),
      'transcripts/2026/11/20/0958-sess-1-fix-the-login-race.md',
    );
    // A zoned time is converted to UTC (the day changes here); a zone-less one is taken as written.
    assert.equal(transcriptRelativePath({ id: 'x', started: '2026-11-20T23:30:00-02:00' }), 'transcripts/2026/11/21/0130-x.md');
    assert.equal(transcriptRelativePath({ id: 'x', started: '2026-11-20T23:30:00' }), 'transcripts/2026/11/20/2330-x.md');
    // No `:` `/` `\` or spaces (Windows, nested folders); non-ASCII letters lose their accents or go.
    const odd = transcriptRelativePath({
      id: 'C:\\Users\\me/../séance 1',
      title: 'Ça marche — déploiement über Nacht, sans réseau ni 🚀 du tout vraiment',
      started: '2026-01-02T03:04:00Z',
    });
    assert.match(odd, /^transcripts\/2026\/01\/02\/0304-[A-Za-z0-9._-]+\.md$/);
    assert.equal(path.basename(odd), '0304-C-Users-me-seance-1-ca-marche-deploiement-uber-nacht-sans.md');
    // A title that is only the id, or has no ASCII word, adds no slug.
    assert.equal(
      transcriptRelativePath({ id: 'abc', title: 'abc', started: '2026-01-02T03:04:00Z' }),
      'transcripts/2026/01/02/0304-abc.md',
    );
    assert.equal(titleSlug('日本語のタイトル'), '');
    assert.ok(titleSlug('a'.repeat(100)).length <= 40);
  });

  it('writes the §2.1 frontmatter and turn headings, and reads back as the same conversation', () => {
    const text = renderTranscript(conversation(), { rawSha256: SHA_A });
    assert.equal(
      text.split('\n## ')[0],
      [
        '---',
        'id: sess-1',
        'tool: claude-code',
        'started: 2026-11-20T09:58:30.000Z',
        'ended: 2026-11-20T10:05:00.000Z',
        'model: claude-sonnet-4-5',
        `raw_sha256: ${SHA_A}`,
        'turns: 2',
        'cwd: /home/dev/shop',
        '---',
        '',
        '# Fix the login race',
        '',
      ].join('\n'),
    );
    assert.match(
      text,
      /^## 09:58 — user\nWhy does login fail\?\n\n## 10:04 — agent\n> \[tool:Bash\] npm test → exit 1\n\nA race in the session store\.\n$/m,
    );
    const file = '/store/transcripts/2026/11/20/0958-sess-1-fix-the-login-race.md';
    assert.equal(detectFormat(file, text), 'lore-transcript');
    const back = importConversation(file, text);
    assert.equal(back.id, 'sess-1');
    assert.equal(back.sourceFormat, 'claude-code');
    assert.equal(back.startedAt, '2026-11-20T09:58:30.000Z');
    assert.equal(back.endedAt, '2026-11-20T10:05:00.000Z');
    assert.equal(back.model, 'claude-sonnet-4-5');
    assert.deepEqual(
      back.turns.map((t) => [t.role, t.text]),
      [
        ['user', 'Why does login fail?'],
        ['assistant', 'A race in the session store.'],
      ],
    );
    // Stable: the stored copy read back renders to the same stored copy.
    assert.equal(renderTranscript(back, { rawSha256: SHA_A }), text);
  });

  it('redacts a planted secret everywhere in the stored text, and keeps the frontmatter valid YAML', () => {
    const token = cat('ghp_', fake(ALNUM, 36));
    const stored = renderForStore(
      conversation({
        title: `deploy with ${token}`,
        cwd: `/home/dev/${token}`,
        turns: [
          { role: 'user', text: `my token is ${token} please use it`, at: '2026-11-20T09:58:30.000Z' },
          { role: 'assistant', text: 'Done.', tools: [`[tool:Bash] curl -H "Authorization: token ${token}" https://api.github.com`] },
        ],
      }),
      SHA_A,
      0,
    );
    assert.ok(!stored.text.includes(token), 'the secret reached the stored transcript');
    assert.ok(!JSON.stringify(stored.naming).includes(token), 'the secret reached the file name');
    assert.match(stored.text, /\[REDACTED:[a-z0-9-]+\]/);
    const back = importConversation('/s/transcripts/2026/11/20/x.md', stored.text);
    assert.equal(back.id, 'sess-1');
    assert.match(back.title ?? '', /^deploy with \[REDACTED:/);
    assert.match(back.cwd ?? '', /^\/home\/dev\/\[REDACTED:/);
  });

  it('names a conversation without any time after its file', () => {
    const stored = renderForStore(
      conversation({ startedAt: undefined, turns: [{ role: 'user', text: 'hi' }] }),
      SHA_A,
      Date.UTC(2026, 4, 6, 7, 8),
    );
    assert.equal(transcriptRelativePath(stored.naming), 'transcripts/2026/05/06/0708-sess-1-fix-the-login-race.md');
  });

  it("is immutable: written once, never replaced, a crashed writer's temporary file cleared", () => {
    const paths = storePaths(makeTempDir());
    const rel = 'transcripts/2026/11/20/0958-sess-1.md';
    const file = path.join(paths.root, rel);
    const text = renderTranscript(conversation(), { rawSha256: SHA_A });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const stale = path.join(path.dirname(file), '.0958-sess-1.md.123.abc.tmp');
    fs.writeFileSync(stale, 'torn');
    assert.equal(writeTranscriptOnce(paths, rel, text, SHA_A), true);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    assert.ok(!fs.existsSync(stale));
    assert.equal(storedTranscriptSha(file), SHA_A);
    // The same raw file again (a re-run after a crash): left exactly as it is, even if its text would differ now.
    assert.equal(writeTranscriptOnce(paths, rel, `${text}changed\n`, SHA_A), false);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    // Another raw file's transcript never replaces it.
    assert.throws(() => writeTranscriptOnce(paths, rel, 'other', SHA_B), TranscriptTakenError);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    // Only inside transcripts/.
    assert.throws(() => writeTranscriptOnce(paths, 'facts.md', text, SHA_A), /outside transcripts/);
    assert.throws(() => writeTranscriptOnce(paths, '../x.md', text, SHA_A), /outside the knowledge store/);
    assert.deepEqual(transcriptStats(paths), { count: 1, bytes: Buffer.byteLength(text) });
  });

  it('loads a ledger written before transcripts existed, and keeps the transcript path of a new one', () => {
    const file = path.join(makeTempDir(), 'ledger.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        entries: { [SHA_A]: { path: '/p/a.md', status: 'harvested', at: '2026-01-01T00:00:00.000Z', deleted: true, id: 'a' } },
      }),
    );
    const old = readLedger(file);
    assert.equal(old.entries[SHA_A].transcript, undefined);
    old.entries[SHA_B] = {
      path: '/p/b.md',
      status: 'harvested',
      at: '2026-01-02T00:00:00.000Z',
      deleted: true,
      id: 'b',
      transcript: 'transcripts/2026/01/02/0000-b.md',
    };
    writeLedger(file, old);
    assert.equal(readLedger(file).entries[SHA_B].transcript, 'transcripts/2026/01/02/0000-b.md');
    fs.writeFileSync(
      file,
      JSON.stringify({ entries: { [SHA_A]: { path: '/p', status: 'harvested', at: 'x', deleted: true, transcript: 7 } } }),
    );
    assert.throws(() => readLedger(file), /transcript/);
  });
});
