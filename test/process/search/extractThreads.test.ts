/**
 * A build whose files are read and extracted by threads ahead of the writer (extractThreads.ts)
 * makes the same index, the same report and the same errors as one that prepares every file
 * itself, also when a thread dies half way. Real threads: test/process/.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { syncIndexInSlices, type SyncOptions } from '../../../src/core/services/search/indexSync';
import { openEngine } from '../../../src/core/services/search/openEngine';
import { loadSqlite } from '../../../src/core/base/sqliteDriver';
import type { StorePaths } from '../../../src/core/store/storePaths';
import { ageStore, makeSearchStore } from '../../core/search/searchFixtures';
import { REPO_ROOT } from '../../helpers/paths';

const FILES = 300;

/** Note files, a large category file (made over several slices) and a link out of the store (not read). */
function fillStore(paths: StorePaths): void {
  for (let i = 0; i < FILES; i++) {
    const notes = [1, 2].map((n) => `- garnet ${n} in module${i}: the parser keeps offsets [from: s${i % 5}, 2026-10-0${n}]`);
    fs.writeFileSync(path.join(paths.files, `9-${i}.md`), `---\npath: lib/p${i}.ts\n---\n# lib/p${i}.ts\n\n${notes.join('\n')}\n`);
  }
  const many = Array.from({ length: 900 }, (_, i) => `- fact ${i} about the onyx cache layer [from: s${i % 9}, 2026-09-12]`);
  fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${many.join('\n')}\n`);
  const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lore-outside-')), 'secret.md');
  fs.writeFileSync(outside, '---\npath: x.ts\n---\n- outside the store\n');
  fs.symlinkSync(outside, path.join(paths.files, '9-link.md'));
  ageStore(paths);
}

interface Built {
  docs: string[];
  report: Record<string, unknown>;
}

async function build(paths: StorePaths, threads?: { threads: number; fromFiles: number; script?: string }): Promise<Built> {
  fs.rmSync(paths.index, { recursive: true, force: true });
  const backend = openEngine(paths).lexical;
  // Small enough that the fixture's conversation is over it: recorded without documents.
  const options: SyncOptions = { maxTranscriptBytes: 64 };
  try {
    const report = await syncIndexInSlices(backend, paths, options, { sliceMs: 5, deferFullText: true, extractThreads: threads });
    const docs = backend
      .getDocs(backend.docRefs().map((d) => d.id))
      .map((d) => JSON.stringify({ ...d, id: undefined }))
      .sort();
    return { docs, report: { ...report, ms: undefined } };
  } finally {
    backend.close();
  }
}

describe('index build with extraction threads', function () {
  this.timeout(120_000);
  let paths: StorePaths;
  let alone: Built;

  before(async function () {
    if (!loadSqlite().driver) this.skip();
    ({ paths } = makeSearchStore());
    fillStore(paths);
    alone = await build(paths);
  });

  it('makes the same documents, report and errors as a build that prepares every file itself', async () => {
    const threaded = await build(paths, { threads: 2, fromFiles: 1 });
    assert.ok(alone.docs.length > FILES * 2 + 900, `${alone.docs.length} documents`);
    assert.deepEqual(threaded.docs, alone.docs);
    assert.deepEqual(threaded.report, alone.report);
    const errors = (alone.report.errors as Array<{ file: string; message: string }>).map((e) => e.file).sort();
    assert.deepEqual(
      errors,
      ['archive/old.txt', 'files/9-link.md', 'inbox/s1.md'],
      'the link is not read, the conversations are over the limit',
    );
  });

  it('a thread that dies half way leaves the rest to the writer, with the same result', async () => {
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lore-thread-')), 'dying.js');
    const extractDocs = path.join(REPO_ROOT, 'out', 'src', 'core', 'services', 'search', 'extractDocs.js');
    fs.writeFileSync(
      script,
      `const { parentPort } = require('node:worker_threads');
       const { prepareFile } = require(${JSON.stringify(extractDocs)});
       let batches = 0;
       parentPort.on('message', (batch) => {
         if (++batches > 2) throw new Error('the thread died');
         parentPort.postMessage({ start: batch.start, results: batch.files.map((f) => prepareFile(f, batch.maxBytes, f.unchangedHash)) });
       });`,
    );
    const dying = await build(paths, { threads: 1, fromFiles: 1, script });
    assert.deepEqual(dying.docs, alone.docs);
    assert.deepEqual(dying.report, alone.report);
  });

  it('a thread script that is missing means no threads, not a failed build', async () => {
    const none = await build(paths, { threads: 2, fromFiles: 1, script: path.join(os.tmpdir(), 'no-such-thread-script.js') });
    assert.deepEqual(none.docs, alone.docs);
  });
});
