import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifySource, visitSourceFiles } from '../../../src/core/services/search/sourceFiles';
import { storePaths } from '../../../src/core/store/storePaths';
import { FIXTURES, makeTempDir } from '../../helpers/paths';

describe('search index sources', () => {
  it('indexes the sessions of a Claude Code project folder in the inbox, not its subagent or tool-result files', () => {
    const ws = makeTempDir('lore-sources-');
    const paths = storePaths(path.join(ws, '.lore'), ws);
    fs.cpSync(path.join(FIXTURES, 'conversations', 'claude-project'), path.join(paths.inbox, 'claude-project'), { recursive: true });
    fs.writeFileSync(path.join(paths.inbox, '.aider.chat.history.md'), '#### hello\n');
    const transcripts: string[] = [];
    visitSourceFiles(paths, {}, (rel, _abs, kind) => kind === 'transcript' && transcripts.push(rel));
    assert.equal(transcripts.length, 3, transcripts.join(', '));
    assert.ok(
      transcripts.every((t) => !t.includes('subagents') && !t.includes('tool-results')),
      transcripts.join(', '),
    );
    assert.ok(transcripts.some((t) => t.endsWith('.aider.chat.history.md')));
    const side = path.join(
      paths.inbox,
      'claude-project',
      '5f0c2d4e-7a1b-4c3d-9e8f-0a1b2c3d4e5f',
      'subagents',
      'agent-a1b2c3d4e5f60718.jsonl',
    );
    assert.equal(classifySource(paths, side), undefined, 'a file event about a subagent file is not a source either');
    assert.equal(
      classifySource(paths, path.join(paths.inbox, 'claude-project', '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.jsonl'))?.kind,
      'transcript',
    );
  });
});
