import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTopics } from '../../../src/core/services/topics/loadTopics';
import { createTopicFile } from '../../../src/core/services/topics/newTopic';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

describe('new topic from the template', () => {
  it('writes a topic that loads and fires on its name, and never overwrites', () => {
    const paths = storePaths(path.join(makeTempDir('lore-newtopic-'), '.lore'));
    const file = createTopicFile(paths, 'release-train');
    assert.equal(file, path.join(paths.root, 'topics', 'release-train.md'));
    const { topics, problems } = loadTopics(paths);
    assert.deepEqual(problems, []);
    assert.equal(topics[0].name, 'release-train');
    assert.deepEqual(
      topics[0].triggers.map((t) => t.kind),
      ['keywords'],
    );
    assert.equal(topics[0].activation, 'auto');
    assert.throws(() => createTopicFile(paths, 'release-train'), /already exists/);
    assert.throws(() => createTopicFile(paths, '../escape'), /not a topic name/);
    assert.ok(!fs.existsSync(path.join(paths.root, 'escape.md')));
  });
});
