import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { appendItems } from '../../../src/core/model/categoryFile';
import { replaceTextGuarded } from '../../../src/core/base/storeText';
import { makeTempDir } from '../../helpers/paths';

// Real threads and real waits: Lore's settle watch must see the other thread's saves as they happen.
const LORE_LINE = '- lore fact [from: c1, 2026-11-20]';
const appendLore = (text: string | undefined) => appendItems(text, 'Facts', [LORE_LINE]);

function strayFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name !== 'facts.md');
}

/**
 * Another thread of this test, standing for an editor process: it runs while the main thread is
 * blocked inside Lore's synchronous write, and steps are handed over through a shared flag.
 */
function editorThread(script: string, data: Record<string, unknown>): { flag: Int32Array; done: Promise<void> } {
  const shared = new SharedArrayBuffer(4);
  const flag = new Int32Array(shared);
  const worker = new Worker(
    `const fs = require('node:fs'); const { workerData } = require('node:worker_threads'); const flag = new Int32Array(workerData.shared); const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); ${script}`,
    { eval: true, workerData: { ...data, shared } },
  );
  const done = new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', () => resolve());
  });
  return { flag, done };
}

/** Blocks until the editor thread sets the flag to `value`. */
function waitFor(flag: Int32Array, value: number): void {
  while (Atomics.load(flag, 0) !== value) Atomics.wait(flag, 0, Atomics.load(flag, 0), 50);
}

describe('the concurrency contract against an editor in another thread', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = makeTempDir('lore-contract-');
    file = path.join(dir, 'facts.md');
  });

  const facts = (n: number) =>
    ['# Facts', '', ...Array.from({ length: n }, (_, i) => `- existing fact ${i} [from: a, 2026-01-01]`)].join('\n') + '\n';
  const rewriteFact5 = (text: string | undefined) =>
    text?.replace('- existing fact 5 [from: a, 2026-01-01]\n', '- existing fact 5 changed [from: a, 2026-01-01]\n');

  it('never rewrites a save caught mid-way: it waits for the save and edits the whole file', async () => {
    const before = facts(2_000);
    fs.writeFileSync(file, before);
    replaceTextGuarded(file, appendLore).settle(); // This process has seen the whole file.
    const saved = fs.readFileSync(file, 'utf8') + '- saved by hand\n';
    const cut = saved.lastIndexOf('\n', saved.length / 2) + 1;
    // The editor truncates and writes half of its save (ending at a line break), then the rest a moment later.
    const editor = editorThread(
      `
      const fd = fs.openSync(workerData.file, 'r+');
      fs.ftruncateSync(fd, 0);
      fs.writeSync(fd, workerData.saved.slice(0, workerData.cut), 0);
      Atomics.store(flag, 0, 1); Atomics.notify(flag, 0);
      pause(40);
      fs.writeSync(fd, workerData.saved.slice(workerData.cut), workerData.cut);
      fs.closeSync(fd);`,
      { file, saved, cut },
    );
    waitFor(editor.flag, 1);
    replaceTextGuarded(file, rewriteFact5).settle();
    await editor.done;
    assert.equal(fs.readFileSync(file, 'utf8'), rewriteFact5(saved));
    assert.deepEqual(strayFiles(dir), []);
  });

  it("re-applies its lines when an editor saves a buffer read before Lore's write, moments after it", async () => {
    const before = facts(200);
    fs.writeFileSync(file, before);
    // The editor reads the file, Lore appends, the editor renames its older buffer (plus a typed line) over it.
    const editor = editorThread(
      `
      const stale = fs.readFileSync(workerData.file, 'utf8');
      Atomics.store(flag, 0, 1); Atomics.notify(flag, 0);
      while (Atomics.load(flag, 0) !== 2) Atomics.wait(flag, 0, 1, 50);
      pause(60);
      fs.writeFileSync(workerData.file + '.swp', stale + '- typed by hand\\n');
      fs.renameSync(workerData.file + '.swp', workerData.file);`,
      { file },
    );
    waitFor(editor.flag, 1);
    const replaced = replaceTextGuarded(file, appendLore);
    Atomics.store(editor.flag, 0, 2);
    Atomics.notify(editor.flag, 0);
    replaced.settle(); // Acknowledged once this returns.
    await editor.done;
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes(`${LORE_LINE}\n`), 'the acknowledged line was saved away');
    assert.ok(text.startsWith(`${before}- typed by hand\n`), text.slice(-200));
  });
});
