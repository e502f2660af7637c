import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildHookContext, promptQuery } from '../../../src/core/services/hooks/hookContext';
import { SearchIndex } from '../../../src/core/services/search/searchIndex';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeWorkspace } from '../../helpers/cli';

describe('buildHookContext', function () {
  this.timeout(30_000);

  it('searches the words of a prompt that carry its request, finished words only', () => {
    assert.equal(promptQuery('How do we publish a release? Please tell me about the release pipeline.'), 'publish release pipeline ');
    assert.equal(promptQuery('what is it?'), '');
  });

  it('past its time limit it skips the notes and the search, says so in the log, and still answers with the digest', async () => {
    const { ws, root } = await makeWorkspace();
    const paths = storePaths(root);
    fs.appendFileSync(path.join(root, 'playbooks.md'), '- **release**: tag, then npm publish [from: c1, 2026-11-21]\n');
    fs.writeFileSync(paths.digest, '# Knowledge digest\n\n## Facts\n- The digest is here [from: c2, 2026-11-21]\n');
    const index = SearchIndex.open(paths, { embedder: null });
    await index.update();
    index.close();
    fs.writeFileSync(path.join(ws, 'release.md'), 'how we release\n');
    const request = { event: 'UserPromptSubmit', prompt: 'how do we publish a release? see release.md', cwd: ws };
    const inTime = buildHookContext(paths, request);
    assert.match(inTime, /\n\{search-hits\}\n[\s\S]*npm publish/);
    const logged: string[] = [];
    const late = buildHookContext(paths, request, { deadline: 0, log: (m) => logged.push(m) });
    assert.ok(!late.includes('\n{search-hits}\n'));
    assert.match(late, /The digest is here/);
    assert.deepEqual(logged, ['notes skipped: the time limit was reached', 'search skipped: the time limit was reached']);
  });
});
