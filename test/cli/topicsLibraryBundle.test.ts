/**
 * dist/topicsLibrary.js, the bundle the editor's topic commands load on first use (apart from
 * dist/extension.js): built as shipped, it creates a topic from the template and explains a
 * message's context with it, its zod and gray-matter coming from dist/vendor/.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { storePaths } from '../../src/core/store/storePaths';
import { makeTempDir, REPO_ROOT } from '../helpers/paths';

describe('dist/topicsLibrary.js (the topic commands of the editor)', () => {
  it('creates a topic from the template and explains the context of a message that fires it', async () => {
    const lib = require(path.join(REPO_ROOT, 'dist', 'topicsLibrary.js')) as typeof import('../../src/extension/topics/topicsLibrary');
    const paths = storePaths(path.join(makeTempDir('lore-topicslib-'), '.lore'));
    lib.createTopicFile(paths, 'release-train');
    const explained = await lib.explainContext(paths, {
      message: 'when does the release train leave?',
      budgetTokens: lib.DEFAULT_BUDGET_TOKENS,
      noGateReason: 'not asked',
      via: 'vscode',
    });
    assert.deepEqual(
      explained.topics.activation.active.map((a) => [a.topic.name, a.tier]),
      [['release-train', 1]],
    );
    assert.match(
      lib.explanationMarkdown(explained, 'when does the release train leave?'),
      /\| \*\*release\\-train\*\* \| auto, medium \| active, tier 1 \|/,
    );
  });
});
