import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanSources } from '../../../src/core/services/discovery/scanSources';
import { isConversationFileName } from '../../../src/core/model/conversation';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

describe('scanSources', () => {
  it("takes Aider's hidden history file and leaves editor locks and Lore's own temp files alone", () => {
    const ws = makeTempDir('lore-scan-');
    const paths = storePaths(path.join(ws, '.lore'), ws);
    const logs = path.join(ws, 'logs');
    fs.mkdirSync(logs);
    const names = [
      '.aider.chat.history.md',
      'session.jsonl',
      '.#session.md',
      '.~lock.notes.md#',
      '.~notes.md',
      '.facts.md.123.tmp',
      '.facts.md.lore-prev-1732400000000',
      'notes.txt',
      'image.png',
    ];
    for (const name of names) fs.writeFileSync(path.join(logs, name), 'text\n');
    const found = scanSources(paths, [logs]).files.map((f) => path.basename(f.path));
    assert.deepEqual(found, ['.aider.chat.history.md', 'notes.txt', 'session.jsonl']);
    assert.equal(isConversationFileName('.aider.chat.history.md'), true);
    assert.equal(isConversationFileName('.#x.md'), false);
  });
});
