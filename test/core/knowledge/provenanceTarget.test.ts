import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversationFile, provenanceTarget, turnLineForItem } from '../../../src/core/store/items/provenanceTarget';
import { writeLedger } from '../../../src/core/store/ledger';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

const TRANSCRIPT = [
  '---',
  'id: s1',
  'tool: codex',
  'raw_sha256: ' + 'a'.repeat(64),
  'turns: 3',
  '---',
  '',
  '# Caching the context layers',
  '',
  '## 09:00 — user',
  'Which order should the context layers have?',
  '',
  '## 09:04 — agent',
  'Stable to volatile: role, tools, project, digest, file notes, then turns.',
  '',
  '## 09:10 — user',
  'Fine. Also the digest stays under four kilobytes.',
  '',
].join('\n');

const SHA = 'a'.repeat(64);

function store(): StorePaths {
  const paths = storePaths(path.join(makeTempDir(), '.lore'));
  fs.mkdirSync(paths.inbox, { recursive: true });
  return paths;
}

function plantTranscript(paths: StorePaths, rel = 'transcripts/2026/11/18/0900-s1-caching-the-context-layers.md'): string {
  const file = path.join(paths.root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, TRANSCRIPT);
  return file;
}

describe('provenance targets', () => {
  it('finds the heading of the turn an item came from, by the words it shares', () => {
    const lines = TRANSCRIPT.split('\n');
    const at = (item: string) => lines[turnLineForItem(TRANSCRIPT, item).line];
    assert.equal(
      at('- order the context layers stable to volatile — role, tools, project, digest, file notes, then turns. [from: s1, 2026-11-18]'),
      '## 09:04 — agent',
    );
    assert.equal(at('- the digest stays under four kilobytes. [from: s1, 2026-11-18]'), '## 09:10 — user');
    // Nothing in common (the provenance marker's own words do not count): the top.
    assert.deepEqual(turnLineForItem(TRANSCRIPT, '- unrelated words entirely here [from: s1, 2026-11-18]'), { line: 0, score: 0 });
    // The title and frontmatter are no turn.
    assert.deepEqual(turnLineForItem(TRANSCRIPT, '- caching [from: caching, 2026-11-18]').line, 0);
  });

  it('leads to the stored transcript first, then the raw conversation, then the ledger entry', () => {
    const paths = store();
    const transcript = plantTranscript(paths);
    const raw = path.join(paths.inbox, 's1.jsonl');
    fs.writeFileSync(raw, '{"type":"session_meta"}\nthe digest stays under four kilobytes\n');
    const entry = {
      path: raw,
      status: 'harvested' as const,
      at: '2026-11-18T10:00:00.000Z',
      deleted: false,
      id: 's1',
      transcript: 'transcripts/2026/11/18/0900-s1-caching-the-context-layers.md',
    };
    writeLedger(paths.ledger, { entries: { [SHA]: entry } });
    const item = '- the digest stays under four kilobytes. [from: s1, 2026-11-18]';
    assert.deepEqual(provenanceTarget(paths, 's1', item), {
      kind: 'transcript',
      file: transcript,
      line: TRANSCRIPT.split('\n').indexOf('## 09:10 — user'),
    });
    // The Ledger view's Open Conversation: the same order.
    assert.equal(conversationFile(paths, entry), transcript);

    fs.rmSync(transcript);
    assert.deepEqual(provenanceTarget(paths, 's1', item), { kind: 'conversation', file: raw, line: 1 });
    assert.equal(conversationFile(paths, entry), raw);
    fs.rmSync(raw);
    assert.equal(conversationFile(paths, entry), undefined);
    const target = provenanceTarget(paths, 's1', item);
    assert.equal(target.kind, 'ledger');
    assert.ok(target.kind === 'ledger');
    assert.match(fs.readFileSync(paths.ledger, 'utf8').split('\n')[target.line], new RegExp(`"${SHA}"`));
    assert.deepEqual(provenanceTarget(paths, 'other', item), { kind: 'missing' });
  });

  it('never opens a path a hand-edited ledger names outside transcripts/', () => {
    const paths = store();
    const secret = path.join(paths.root, 'config.json');
    fs.writeFileSync(secret, '{}');
    writeLedger(paths.ledger, {
      entries: {
        [SHA]: { path: '/gone/s1.md', status: 'harvested', at: 'x', deleted: true, id: 's1', transcript: '../.lore/config.json' },
      },
    });
    assert.equal(provenanceTarget(paths, 's1', '- x [from: s1, 2026-11-18]').kind, 'ledger');
  });
});
