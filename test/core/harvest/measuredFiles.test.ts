import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
// The module object itself (a namespace import is a copy of getters): what classify's reads go through.
import nodeFs from 'node:fs';
import * as path from 'node:path';
import { classifyConversations } from '../../../src/core/services/harvest/classify';
import { MeasuredFiles } from '../../../src/core/services/harvest/measuredFiles';
import type { SourceFile } from '../../../src/core/services/discovery/scanSources';
import type { Conversation } from '../../../src/core/model/conversation';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

/** The files `classify` reads whole (fs.readFileSync), while `body` runs. */
function filesRead(body: () => void): string[] {
  const read: string[] = [];
  const original = nodeFs.readFileSync;
  (nodeFs as { readFileSync: unknown }).readFileSync = (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (typeof file === 'string') read.push(file);
    return (original as (...args: unknown[]) => unknown)(file, ...rest);
  };
  try {
    body();
  } finally {
    (nodeFs as { readFileSync: unknown }).readFileSync = original;
  }
  return read;
}

/** A Claude Code session of `turns` prompts. */
function session(turns: number): string {
  return (
    Array.from({ length: turns }, (_, i) =>
      JSON.stringify({
        type: 'user',
        sessionId: 's1',
        timestamp: `2026-11-20T10:0${i}:00.000Z`,
        message: { role: 'user', content: `question number ${i} about the cache` },
      }),
    ).join('\n') + '\n'
  );
}

describe('what a dry run learned, reused by the next one', () => {
  let paths: StorePaths;
  let dir: string;
  let files: SourceFile[];
  beforeEach(() => {
    const ws = makeTempDir('lore-measured-');
    paths = storePaths(path.join(ws, '.lore'), ws);
    fs.mkdirSync(paths.root, { recursive: true });
    dir = path.join(ws, 'sessions');
    fs.mkdirSync(dir);
    const write = (name: string, data: string | Buffer) => {
      fs.writeFileSync(path.join(dir, name), data);
      return { path: path.join(dir, name), inInbox: false };
    };
    files = [
      write('s1.jsonl', session(3)),
      write('copy.jsonl', session(3)),
      write('blank.md', ' \n'),
      write('bin.md', Buffer.from([0x68, 0x00])),
      write('plain.md', 'hello there'),
    ];
  });

  const dryRun = (options: { liveWindowMs?: number; now?: number } = {}) => {
    // A file changed within the millisecond the run starts is not remembered (its ctime is not
    // before the read): the test's writes are made a moment earlier, as a person's are.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    const measuredFiles = MeasuredFiles.open(paths);
    let out: ReturnType<typeof classifyConversations> = [];
    const read = filesRead(() => {
      out = classifyConversations(files, { entries: {} }, { measuredFiles, ...options });
    });
    assert.equal(measuredFiles.save(), undefined);
    return { out, read: read.filter((f) => f.startsWith(dir)) };
  };
  const summary = (out: ReturnType<typeof classifyConversations>) =>
    out.map((c) => [path.basename(c.path), c.class, c.sha256, c.turns, c.renderedBytes, c.title, c.reason]);

  it('classifies a second time alike without reading any file, from the per-machine cache', () => {
    const first = dryRun();
    assert.equal(first.read.length, files.length);
    assert.ok(fs.existsSync(path.join(paths.cache, 'measured-files.json')));
    const second = dryRun();
    assert.deepEqual(second.read, []);
    assert.deepEqual(summary(second.out), summary(first.out));
    assert.deepEqual(
      second.out.map((c) => c.class),
      ['harvest', 'duplicate', 'empty', 'binary', 'harvest'],
    );
  });

  it('reads and imports a changed file again', () => {
    dryRun();
    fs.writeFileSync(files[0].path, session(5));
    const again = dryRun();
    // Its old copy, a duplicate until now (only hashed), is imported now that it is not one.
    assert.deepEqual(again.read, [files[0].path, files[1].path]);
    assert.equal(again.out[0].turns, 5);
    assert.equal(again.out[1].class, 'harvest');
    assert.equal(again.out[1].turns, 3);
    assert.deepEqual(dryRun().read, []);
  });

  it('imports a file an earlier dry run only hashed (it was live then), and remembers it', () => {
    const now = Date.now();
    for (const f of files) fs.utimesSync(f.path, new Date(now - 1000), new Date(now - 1000));
    const live = dryRun({ liveWindowMs: 60_000, now });
    assert.equal(live.out[0].class, 'live');
    const later = dryRun({ liveWindowMs: 60_000, now: now + 120_000 });
    assert.equal(later.out[0].class, 'harvest');
    assert.equal(later.out[0].turns, 3);
    assert.deepEqual(dryRun().read, [], 'what the import measured is remembered');
  });

  it('is not used by a run that distills: it reads and imports its candidates', () => {
    dryRun();
    const conversations = new Map<string, Conversation>();
    const read = filesRead(() =>
      classifyConversations(files, { entries: {} }, { measuredFiles: MeasuredFiles.open(paths), conversations }),
    );
    assert.ok(read.includes(files[0].path));
    assert.equal(conversations.get(files[0].path)?.turns.length, 3);
  });

  it('creates no store where there is none', () => {
    const nowhere = storePaths(path.join(makeTempDir('lore-measured-'), '.lore'));
    const measuredFiles = MeasuredFiles.open(nowhere);
    classifyConversations(files, { entries: {} }, { measuredFiles });
    assert.equal(measuredFiles.save(), undefined);
    assert.equal(fs.existsSync(nowhere.root), false);
  });
});
