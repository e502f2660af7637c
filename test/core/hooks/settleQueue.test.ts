import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { queueDir, readQueuedSessions, settleQueue } from '../../../src/core/store/captureQueue';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

/** A store with one queued session and its transcript outside the store. */
function queued() {
  const paths = storePaths(path.join(makeTempDir('lore-settle-'), '.lore'));
  const transcript = path.join(makeTempDir('lore-transcripts-'), 's1.jsonl');
  fs.writeFileSync(transcript, '{"type":"user"}\n');
  fs.mkdirSync(queueDir(paths), { recursive: true });
  fs.writeFileSync(
    path.join(queueDir(paths), 'claude-s1.json'),
    JSON.stringify({ sessionId: 's1', transcript, cwd: '/w', event: 'Stop', at: '2026-11-24T09:00:00.000Z' }),
  );
  const stat = fs.statSync(transcript);
  const read = { path: transcript, inInbox: false, class: 'harvest', status: 'harvested', bytes: stat.size, mtimeMs: stat.mtimeMs };
  return { paths, transcript, read };
}

describe('settleQueue', () => {
  it('drops a queued session the apply proved harvested, as it was read', () => {
    const { paths, read } = queued();
    settleQueue(paths, [read]);
    assert.deepEqual(readQueuedSessions(paths), []);
  });

  it('keeps it when the transcript changed after the harvest read it (the session went on)', () => {
    const { paths, transcript, read } = queued();
    fs.appendFileSync(transcript, '{"type":"assistant"}\n');
    settleQueue(paths, [read]);
    assert.equal(readQueuedSessions(paths).length, 1);
  });

  it('keeps it when nothing was proven (a failed harvest, or a file of the same name in the inbox)', () => {
    const { paths, read } = queued();
    settleQueue(paths, [
      { ...read, status: 'harvest-failed' },
      { ...read, inInbox: true },
    ]);
    assert.equal(readQueuedSessions(paths).length, 1);
  });
});
