/** nodeRunner: the MCP server definition runs the CLI with the host's own Node, in Electron as in plain Node. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { nodeRunner } from '../../../src/core/base/nodeRunner';

describe('nodeRunner', () => {
  it('runs plain Node as it is, and Electron as Node through ELECTRON_RUN_AS_NODE', () => {
    assert.deepEqual(nodeRunner({ ...process.versions, electron: undefined } as unknown as NodeJS.ProcessVersions, '/usr/bin/node'), {
      command: '/usr/bin/node',
      env: {},
    });
    assert.deepEqual(nodeRunner({ ...process.versions, electron: '37.2.0' }, '/usr/share/code/code'), {
      command: '/usr/share/code/code',
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });

  it('gives a command that really runs a script here', () => {
    const { command, env } = nodeRunner();
    const out = execFileSync(command, ['-e', 'process.stdout.write(String(1 + 1))'], { env: { ...process.env, ...env } }).toString();
    assert.equal(out, '2');
  });
});
