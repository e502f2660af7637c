import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, transcript } from '../helpers/cli';

describe('bytes Lore does not own stay as they are', () => {
  it('an apply keeps invalid UTF-8 and mixed LF/CRLF lines byte for byte and adds only its own lines', async () => {
    const { root, inbox } = await makeWorkspace();
    const facts = Buffer.concat([
      Buffer.from('# Facts\r\n\r\n'),
      Buffer.from('- the caf'),
      Buffer.from([0xe9]),
      Buffer.from(' menu is in Latin-1 [from: hand, 2026-01-01]\n'),
      Buffer.from('- stray bytes '),
      Buffer.from([0xc3, 0x28, 0xa0, 0xa1]),
      Buffer.from(' by hand\r\n'),
      Buffer.from('- an LF line\n'),
      Buffer.from('- a CRLF line\r\n'),
    ]);
    fs.writeFileSync(path.join(root, 'facts.md'), facts);
    const tasks = Buffer.from('# Tasks\n\n## Open\r\n\r\n- mine \xff\xfe\r\n\n## Done\n', 'latin1');
    fs.writeFileSync(path.join(root, 'tasks.md'), tasks);
    fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', 'Fact: bytes survive.\nTODO: check the bytes.'));

    const result = await runCli(['harvest', '--root', root, '--apply']);
    assert.equal(result.code, 0, result.stderr);
    const after = fs.readFileSync(path.join(root, 'facts.md'));
    // The new line takes the break of the file's last line (CRLF here).
    assert.ok(
      after.equals(Buffer.concat([facts, Buffer.from('- bytes survive. [from: c1, 2026-11-20]\r\n')])),
      JSON.stringify(after.toString('latin1')),
    );
    const tasksAfter = fs.readFileSync(path.join(root, 'tasks.md'));
    assert.ok(
      tasksAfter.equals(
        Buffer.from('# Tasks\n\n## Open\r\n\r\n- mine \xff\xfe\r\n- check the bytes. [from: c1, 2026-11-20]\n\n## Done\n', 'latin1'),
      ),
      JSON.stringify(tasksAfter.toString('latin1')),
    );
  });
});
