import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  addSessionGiven,
  MAX_GIVEN_KEYS,
  readSessionGiven,
  sessionGivenFile,
  startSessionGiven,
} from '../../../src/core/services/hooks/sessionGiven';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeWorkspace } from '../../helpers/cli';

describe('the per-session record of what the context hooks gave', () => {
  it('starts with the digest ids, adds what prompts gave by appending, and restarts after a clear or compaction', async () => {
    const { root } = await makeWorkspace();
    const paths = storePaths(root);
    assert.equal(readSessionGiven(paths, 's1'), undefined, 'no record yet');
    startSessionGiven(paths, 's1', ['aaaaaaaa', 'bbbbbbbb']);
    const file = sessionGivenFile(paths, 's1');
    assert.ok(file.startsWith(path.join(root, '.cache', 'hook-sessions') + path.sep));
    assert.ok(!path.basename(file).includes('s1'), 'named by a hash of the id, which may hold any character');
    assert.deepEqual([...readSessionGiven(paths, 's1')!], ['aaaaaaaa', 'bbbbbbbb']);
    const before = fs.readFileSync(file);
    addSessionGiven(paths, 's1', ['bbbbbbbb', 'cccccccc', 'cccccccc', 'topic 0123456789ab']);
    const after = fs.readFileSync(file);
    assert.deepEqual(after.subarray(0, before.length), before, 'appended: the bytes before are as they were');
    assert.deepEqual([...readSessionGiven(paths, 's1')!], ['aaaaaaaa', 'bbbbbbbb', 'cccccccc', 'topic 0123456789ab']);
    // Nothing new: nothing written.
    const stat = fs.statSync(file, { bigint: true });
    addSessionGiven(paths, 's1', ['aaaaaaaa']);
    assert.equal(fs.statSync(file, { bigint: true }).mtimeNs, stat.mtimeNs);
    // A resume keeps what earlier prompts gave; a clear or compaction starts over.
    startSessionGiven(paths, 's1', ['dddddddd'], { keepEarlier: true });
    assert.deepEqual([...readSessionGiven(paths, 's1')!], ['aaaaaaaa', 'bbbbbbbb', 'cccccccc', 'topic 0123456789ab', 'dddddddd']);
    startSessionGiven(paths, 's1', ['dddddddd']);
    assert.deepEqual([...readSessionGiven(paths, 's1')!], ['dddddddd']);
    // Another session has its own record; no session id records nothing.
    assert.equal(readSessionGiven(paths, 's2'), undefined);
    addSessionGiven(paths, '', ['eeeeeeee']);
    assert.equal(readSessionGiven(paths, ''), undefined);
  });

  it('a prompt of a session without a record starts one (its prompt gave the digest), even with nothing else to record', async () => {
    const { root } = await makeWorkspace();
    const paths = storePaths(root);
    addSessionGiven(paths, 'late', []);
    assert.deepEqual([...readSessionGiven(paths, 'late')!], []);
  });

  it('is bounded: the oldest keys go past the cap', async () => {
    const { root } = await makeWorkspace();
    const paths = storePaths(root);
    const keys = Array.from({ length: MAX_GIVEN_KEYS + 5 }, (_, i) => `k${String(i).padStart(7, '0')}`);
    startSessionGiven(paths, 's', keys.slice(0, 10));
    addSessionGiven(paths, 's', keys.slice(10));
    const kept = [...readSessionGiven(paths, 's')!];
    assert.equal(kept.length, MAX_GIVEN_KEYS);
    assert.deepEqual(kept.slice(0, 2), [keys[5], keys[6]]);
    assert.equal(kept.at(-1), keys.at(-1));
  });

  it('a damaged record reads as none and is written again whole; a write cut short loses only its last line', async () => {
    const { root } = await makeWorkspace();
    const paths = storePaths(root);
    startSessionGiven(paths, 's', ['aaaaaaaa']);
    const file = sessionGivenFile(paths, 's');
    fs.appendFileSync(file, 'bbbbbb'); // No line break: cut short.
    assert.deepEqual([...readSessionGiven(paths, 's')!], ['aaaaaaaa']);
    addSessionGiven(paths, 's', ['cccccccc']);
    assert.deepEqual([...readSessionGiven(paths, 's')!], ['aaaaaaaa', 'cccccccc']);
    fs.writeFileSync(file, '{"not": "a record"}\n');
    assert.equal(readSessionGiven(paths, 's'), undefined);
    addSessionGiven(paths, 's', ['dddddddd']);
    assert.deepEqual([...readSessionGiven(paths, 's')!], ['dddddddd']);
  });

  it('keeps at most 100 session records, the longest untouched going first', async () => {
    const { root } = await makeWorkspace();
    const paths = storePaths(root);
    for (let i = 0; i < 100; i++) {
      startSessionGiven(paths, `s${i}`, ['aaaaaaaa']);
      // Ages them in order (mtime), oldest first.
      const at = new Date(Date.UTC(2026, 0, 1, 0, i));
      fs.utimesSync(sessionGivenFile(paths, `s${i}`), at, at);
    }
    startSessionGiven(paths, 'new', ['aaaaaaaa']);
    assert.equal(fs.readdirSync(path.join(root, '.cache', 'hook-sessions')).length, 100);
    assert.equal(readSessionGiven(paths, 's0'), undefined, 'the oldest went');
    assert.ok(readSessionGiven(paths, 's1'));
    assert.ok(readSessionGiven(paths, 'new'));
  });
});
