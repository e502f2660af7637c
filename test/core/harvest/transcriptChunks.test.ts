import * as assert from 'node:assert/strict';
import type { Conversation } from '../../../src/core/model/conversation';
import { parseTurnHeading } from '../../../src/core/model/transcriptSyntax';
import { distillConversation } from '../../../src/core/services/harvest/distill';
import { chunkTranscript } from '../../../src/core/services/harvest/transcriptChunks';
import type { ModelRequest, Provider } from '../../../src/core/services/providers/provider';
import { RulesProvider } from '../../../src/core/services/providers/rules/rulesProvider';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const firstLine = (text: string): string => text.slice(0, text.indexOf('\n'));
/** A chunk without the heading repeated at its top. */
const withoutRepeat = (chunk: string): string => (firstLine(chunk).endsWith(' [continued]') ? chunk.slice(chunk.indexOf('\n') + 1) : chunk);

function transcript(agentLines: number): string {
  const long = Array.from({ length: agentLines }, (_, i) => `Step ${i}: checked the parser against case ${i}, which still passes.`);
  return [
    '---',
    'session_id: s1',
    '---',
    '',
    '# Parser',
    '',
    '## 14:00 — user',
    'Why does the parser drop dates?',
    '',
    '## 14:05 — agent',
    ...long,
    '',
    '## 14:30 — user',
    'Thanks.',
    '',
  ].join('\n');
}

describe('summary chunks of a long transcript', () => {
  it('start with the heading of the turn they were cut from, keep every line, and stay under the bound', () => {
    const text = transcript(400);
    const chunks = chunkTranscript(text, 4096);
    assert.ok(chunks.length > 5);
    for (const chunk of chunks.slice(1)) {
      assert.ok(parseTurnHeading(firstLine(chunk)), `a chunk starts with no speaker: ${firstLine(chunk)}`);
      assert.ok(bytes(chunk) <= 4096);
    }
    const continued = chunks.filter((c) => firstLine(c) === '## 14:05 — agent [continued]');
    assert.ok(continued.length >= 4);
    assert.equal(chunks.map(withoutRepeat).join('').trimEnd(), text.trimEnd());
  });

  it('repeats no heading above a chunk that starts with a turn of its own', () => {
    const chunks = chunkTranscript(transcript(60), 4096);
    const last = chunks[chunks.length - 1];
    assert.ok(last.startsWith('## 14:30 — user\nThanks.') || last.includes('\n## 14:30 — user\nThanks.'));
    assert.ok(!chunks.some((c) => /\[continued\]\n## /.test(c)));
  });

  it('cuts one giant line into pieces, each under its turn’s heading and under the bound', () => {
    const log = 'é'.repeat(9000);
    const text = `## 09:00 — user\nHere is the log:\n${log}\n`;
    const chunks = chunkTranscript(text, 4096);
    for (const chunk of chunks.slice(1)) assert.equal(firstLine(chunk), '## 09:00 — user [continued]');
    for (const chunk of chunks) assert.ok(bytes(chunk) <= 4096);
    assert.equal(chunks.map(withoutRepeat).join('').replace(/\n/g, ''), text.replace(/\n/g, ''));
  });

  it('a continued heading replaces the tag a heading had, and still parses as that speaker', () => {
    const chunks = chunkTranscript(`## 10:00 — agent [memory]\n${'word '.repeat(2000)}\n${'more '.repeat(2000)}\n`, 12_000);
    assert.equal(firstLine(chunks[1]), '## 10:00 — agent [continued]');
    assert.deepEqual(parseTurnHeading(firstLine(chunks[1])), { role: 'assistant', hour: 10, minute: 0 });
  });

  it('every part a model is asked to summarize starts with a speaker; a marked line from the middle of a long turn still reaches the harvest', async () => {
    const filler = Array.from({ length: 1500 }, (_, i) => `Line ${i} of the pasted notes, nothing to keep here.`);
    const conv: Conversation = {
      id: 'long-1',
      format: 'claude-code',
      sourcePath: '/x/long-1.jsonl',
      startedAt: '2026-12-01T14:00:00.000Z',
      turns: [
        {
          role: 'user',
          at: '2026-12-01T14:00:00.000Z',
          text: [...filler, 'Decision: dates are parsed as UTC everywhere.', ...filler].join('\n'),
        },
        { role: 'assistant', at: '2026-12-01T14:05:00.000Z', text: 'Understood.' },
      ],
    };
    const rules = new RulesProvider();
    const seen: ModelRequest[] = [];
    const recording: Provider = {
      name: 'recording',
      label: 'recording',
      offline: true,
      generate: (request) => {
        seen.push(request);
        return rules.generate(request);
      },
    };
    const result = await distillConversation(conv, { provider: recording, harvestPrompt: 'harvest', summarizePrompt: 'summarize' });
    const parts = seen.filter((r) => r.task === 'summarize').map((r) => r.content.slice(r.content.indexOf('\n\n') + 2));
    assert.ok(parts.length >= 3);
    for (const part of parts.slice(1)) assert.match(firstLine(part), /^## 14:00 — user \[continued\]$/);
    assert.ok(result.summarized);
    assert.deepEqual(
      result.items.decisions.map((d) => d.statement),
      ['dates are parsed as UTC everywhere.'],
    );
  });
});
