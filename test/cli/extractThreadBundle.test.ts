/**
 * dist/extractThread.js, the bundle the CLI's first index build runs in threads
 * (src/core/services/search/extractThreads.ts), prepares files on its own: a note file's
 * documents, and a link out of the store not read. Needs `node esbuild.mjs`, as every CLI test does.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ExtractBatch, ExtractBatchResult } from '../../src/core/services/search/extractThreads';
import { REPO_ROOT } from '../helpers/paths';

function prepareInThread(batch: ExtractBatch): Promise<ExtractBatchResult> {
  const worker = new Worker(path.join(REPO_ROOT, 'dist', 'extractThread.js'));
  return new Promise<ExtractBatchResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(batch);
  }).finally(() => void worker.terminate());
}

describe('dist/extractThread.js', function () {
  this.timeout(30_000);

  it("makes a note file's documents and does not read a link out of the store", async () => {
    const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lore-thread-')), '.lore');
    fs.mkdirSync(path.join(root, 'files'), { recursive: true });
    const note = path.join(root, 'files', '1-2.md');
    fs.writeFileSync(note, '---\npath: src/app.ts\n---\n# src/app.ts\n\n- the app starts the watcher first [from: c1, 2026-11-20]\n');
    const outside = path.join(path.dirname(root), 'outside.md');
    fs.writeFileSync(outside, '- a private line\n');
    const link = path.join(root, 'files', '3-4.md');
    fs.symlinkSync(outside, link);
    const file = (abs: string) => ({ rel: path.relative(root, abs), abs, kind: 'notes' as const, mtimeMs: 1, size: fs.statSync(abs).size });
    const reply = await prepareInThread({ storeRoot: root, start: 7, maxBytes: 1 << 20, files: [file(note), file(link)] });
    assert.equal(reply.start, 7);
    const [made, refused] = reply.results;
    assert.deepEqual(
      made.docs?.map((d) => [d.text, d.notedPath, d.line]),
      [['the app starts the watcher first', 'src/app.ts', 6]],
    );
    assert.equal(made.length, fs.statSync(note).size);
    assert.match(refused.readError ?? '', /symbolic link/);
    assert.equal(refused.docs, undefined);
  });
});
