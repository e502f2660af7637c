/**
 * dist/search.js writes its lines straight to file descriptors 1 and 2 (cliSupport.ts directStdio):
 * every byte arrives, in order, also through a pipe that is full (the rest goes through the stream),
 * and a reader that goes away early ends the output quietly rather than with an EPIPE crash.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { directWriter } from '../../src/cli/cliSupport';
import { makeWorkspace } from '../helpers/cli';
import { CLI, makeTempDir } from '../helpers/paths';

describe('direct stdout and stderr (lore search)', function () {
  this.timeout(30_000);

  it('hands what a full non-blocking pipe cannot take to the stream, every byte in order', async () => {
    const fifo = path.join(makeTempDir('lore-fifo-'), 'out');
    execFileSync('mkfifo', [fifo]);
    // Read and write ends on one FIFO, the write end non-blocking: it fills at the pipe's size.
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    const streamed: Buffer[] = [];
    const write = directWriter(
      fd,
      () => ({ write: (chunk: Buffer) => streamed.push(Buffer.from(chunk)) }) as unknown as NodeJS.WritableStream,
    );
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
    for (const line of lines) write(line);
    const drained: Buffer[] = [];
    const chunk = Buffer.alloc(65536);
    for (let n = fs.readSync(reader, chunk); n > 0; n = readOrZero(reader, chunk)) drained.push(Buffer.from(chunk.subarray(0, n)));
    fs.closeSync(fd);
    fs.closeSync(reader);
    assert.ok(streamed.length > 0, 'the pipe filled, so some lines went through the stream');
    assert.equal(Buffer.concat([...drained, ...streamed]).toString('utf8'), lines.map((l) => `${l}\n`).join(''));
  });

  it('ends quietly, exit code 0, when the reader of its output is gone (| true, | head -1)', async () => {
    const { root } = await makeWorkspace();
    const items = Array.from(
      { length: 600 },
      (_, i) => `- the cache layer keeps entry ${i} warm [from: c${i % 7}, 2026-11-0${1 + (i % 9)}]`,
    );
    fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${items.join('\n')}\n`);
    for (const reader of ['true', 'head -1']) {
      const r = spawnSync(
        'bash',
        ['-c', `"$0" "$1" search cache --root "$2" --limit 500 | ${reader}; exit "\${PIPESTATUS[0]}"`, process.execPath, CLI, root],
        {
          encoding: 'utf8',
        },
      );
      assert.equal(r.status, 0, `${reader}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /EPIPE|Error/, reader);
      assert.match(r.stderr, /500 results \(sqlite/, reader);
    }
  });
});

/** readSync on a non-blocking descriptor: 0 when nothing is left (EAGAIN). */
function readOrZero(fd: number, buffer: Buffer): number {
  try {
    return fs.readSync(fd, buffer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
    throw error;
  }
}
