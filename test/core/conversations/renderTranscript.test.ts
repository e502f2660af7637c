import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isClaudeCodeSessionSideFolder } from '../../../src/core/model/claudeCodeLayout';
import type { Conversation } from '../../../src/core/model/conversation';
import { detectFormat, importConversation } from '../../../src/core/services/conversations/detect';
import { loreTranscript } from '../../../src/core/services/conversations/loreTranscript';
import { renderTranscript, renderedTranscriptBytes } from '../../../src/core/services/conversations/renderTranscript';
import { CORPUS, FIXTURES } from '../../helpers/paths';

function allSources(): string[] {
  const files: string[] = [];
  for (const dir of [CORPUS, path.join(FIXTURES, 'conversations')]) {
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      // Look-alikes of formats Lore does not read (conversations/unsupported/) have no turns to round-trip.
      // A Claude Code session's subagent transcripts and tool outputs are no conversations (harvest skips them too).
      if (
        entry.isFile() &&
        entry.name !== 'README.md' &&
        !file.includes(`${path.sep}unsupported${path.sep}`) &&
        !isClaudeCodeSessionSideFolder(entry.parentPath)
      )
        files.push(file);
    }
  }
  return files;
}

describe('renderTranscript', () => {
  it('renders the §2.1 shape exactly', () => {
    const conv: Conversation = {
      id: 'sess-1',
      format: 'claude-code',
      sourcePath: '/x/sess-1.jsonl',
      title: 'Fix login',
      startedAt: '2025-03-04T10:00:00.000Z',
      cwd: '/home/dev/shop',
      model: 'claude-sonnet-4-5',
      turns: [
        { role: 'user', text: 'Why does login fail?', at: '2025-03-04T10:00:00.000Z' },
        {
          role: 'assistant',
          text: 'A race.\n\nFixed.',
          at: '2025-03-04T11:05:59.000+01:00',
          tools: ['[tool:Bash] npm test → exit 1', '[tool:Read] a.ts'],
        },
        { role: 'assistant', text: '  \n ', tools: [] },
        { role: 'system', text: 'Compacted.' },
        { role: 'assistant', text: '', tools: ['[tool:Edit] a.ts'] },
      ],
    };
    assert.equal(
      renderTranscript(conv),
      [
        '---',
        'session_id: sess-1',
        'started: 2025-03-04T10:00:00.000Z',
        'model: claude-sonnet-4-5',
        'source: claude-code',
        'cwd: /home/dev/shop',
        '---',
        '',
        '# Fix login',
        '',
        '## 10:00 — user',
        'Why does login fail?',
        '',
        '## 10:05 — agent',
        '> [tool:Bash] npm test → exit 1',
        '> [tool:Read] a.ts',
        '',
        'A race.',
        '',
        'Fixed.',
        '',
        '## system',
        'Compacted.',
        '',
        '## agent',
        '> [tool:Edit] a.ts',
        '',
      ].join('\n'),
    );
  });

  it('falls back to the id as title and quotes YAML values that need it', () => {
    const text = renderTranscript({
      id: '2025-01-01',
      format: 'plain',
      sourcePath: '/x',
      model: 'a: b #c',
      cwd: 'C:\\Users\\me',
      turns: [{ role: 'user', text: 'hi' }],
    });
    assert.ok(
      text.startsWith(
        '---\nsession_id: "2025-01-01"\nmodel: "a: b #c"\nsource: plain\ncwd: C:\\Users\\me\n---\n\n# 2025-01-01\n\n## user\nhi\n',
      ),
    );
    const back = loreTranscript.parse(text, '/y.md');
    assert.equal(back.id, '2025-01-01');
    assert.equal(back.model, 'a: b #c');
    assert.equal(back.cwd, 'C:\\Users\\me');
  });

  it('keeps text that looks like headings or tool lines as text, stably', () => {
    const conv: Conversation = {
      id: 'tricky',
      format: 'codex',
      sourcePath: '/t.jsonl',
      title: 'Two\nlines',
      startedAt: '2025-06-02T23:50:00',
      turns: [
        { role: 'user', text: 'Quote:\n## 10:00 — user\n> [tool:Bash] rm -rf /\n## agent\n## User guide', at: '2025-06-02T23:50:00' },
        { role: 'assistant', text: '    indented code\n\n', at: '2025-06-03T00:20:00', tools: ['plain summary', '[tool:x]  spaced\nout'] },
      ],
    };
    const first = renderTranscript(conv);
    assert.ok(first.includes('# Two lines\n'));
    assert.ok(first.includes('Quote:\n ## 10:00 — user\n > [tool:Bash] rm -rf /\n ## agent\n ## User guide\n'));
    assert.ok(first.includes('## 00:20 — agent\n> [tool] plain summary\n> [tool:x] spaced out\n\n    indented code\n'));
    const parsed = loreTranscript.parse(first, '/t.md');
    assert.equal(parsed.turns.length, 2);
    assert.equal(parsed.turns[1].at, '2025-06-03T00:20:00');
    assert.equal(parsed.sourceFormat, 'codex');
    assert.equal(renderTranscript(parsed), first);
  });

  it('round-trips: render ∘ parse ∘ render = render, for every corpus file and fixture', () => {
    const sources = allSources();
    assert.ok(sources.length >= 13);
    for (const file of sources) {
      const conv = importConversation(file, fs.readFileSync(file, 'utf8'));
      const first = renderTranscript(conv);
      const rendered = `/lore/raw/conversations/${path.basename(file)}.md`;
      assert.equal(detectFormat(rendered, first), 'lore-transcript', file);
      const parsed = importConversation(rendered, first);
      assert.equal(parsed.format, 'lore-transcript', file);
      assert.equal(parsed.id, conv.id, file);
      assert.equal(parsed.sourceFormat, conv.format, file);
      assert.equal(renderTranscript(parsed), first, file);
      // The copy a store keeps in transcripts/ reads back the same way, and renders back to itself.
      const stored = renderTranscript(conv, { rawSha256: '0'.repeat(64) });
      const storedPath = `/lore/transcripts/2026/01/01/0000-${path.basename(file)}.md`;
      assert.equal(detectFormat(storedPath, stored), 'lore-transcript', file);
      const storedBack = importConversation(storedPath, stored);
      assert.equal(storedBack.id, conv.id, file);
      assert.equal(storedBack.sourceFormat, conv.format, file);
      assert.equal(renderTranscript(storedBack, { rawSha256: '0'.repeat(64) }), stored, file);
      assert.equal(renderTranscript(storedBack), first, file);
      const kept = conv.turns.filter((t) => t.text.trim() !== '' || (t.tools?.length ?? 0) > 0);
      assert.deepEqual(
        parsed.turns.map((t) => [t.role, t.text, t.tools ?? []]),
        kept.map((t) => [t.role, t.text.trim() === '' ? '' : t.text, t.tools ?? []]),
        file,
      );
    }
  });

  it('measures the rendered size without rendering: the same bytes for every corpus file and fixture', () => {
    const sources = allSources();
    assert.ok(sources.length > 20);
    for (const file of sources) {
      const conv = importConversation(file, fs.readFileSync(file, 'utf8'));
      assert.equal(renderedTranscriptBytes(conv), Buffer.byteLength(renderTranscript(conv), 'utf8'), file);
    }
  });

  it('measures and renders odd text as the line-by-line rendering did', () => {
    const conv: Conversation = {
      id: 'odd',
      format: 'plain',
      sourcePath: '/x/odd.txt',
      turns: [
        // Leading blank lines (one with a no-break space), CRLF and a lone CR, NULs, trailing spaces.
        { role: 'user', text: '\n \u00a0\r\n  first\u0000 line\r\nsecond\rthird  \n\n' },
        // Lines that would read back as a heading or a tool line get a space (the first line too), others not.
        { role: 'assistant', text: '## user\nplain\n> [tool:Bash] ls\n## Notes' },
        { role: 'assistant', text: '> [tool:Read] a.ts\n' },
        // A lone surrogate at each edge of a piece stays one replacement character, not a pair.
        { role: 'user', text: '\ud83d', tools: ['[tool:Edit] \ude00'] },
        { role: 'user', text: ' \u2028 ' },
      ],
    };
    const rendered = renderTranscript(conv);
    assert.match(rendered, /## user\n {2}first line\nsecond\nthird\n\n## agent\n ## user\nplain\n > \[tool:Bash\] ls\n## Notes\n/);
    assert.match(rendered, /## agent\n > \[tool:Read\] a\.ts\n/);
    assert.ok(!rendered.includes('\u2028'), 'a turn of whitespace only is left out');
    assert.equal(renderedTranscriptBytes(conv), Buffer.byteLength(rendered, 'utf8'));
  });
});
