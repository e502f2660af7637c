/**
 * Which SQLite driver a process loads (base/sqliteDriver.ts): better-sqlite3 first, node:sqlite
 * when it cannot load, and node:sqlite first in a process that asked for it (a one-shot search),
 * on a Node where it loads silently. Each case runs in its own process: the choice is made once
 * per process, and a module made to fail must fail from the start.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { failingModules } from '../../helpers/cli';
import { REPO_ROOT } from '../../helpers/paths';

const DRIVER = path.join(REPO_ROOT, 'out', 'src', 'core', 'base', 'sqliteDriver.js');

/** Runs `script` (with `driver` the module) in a fresh Node and returns the driver it printed. */
function driverIn(script: string, failing: string[] = []): { name?: string; why?: string; error?: string; stderr: string } {
  const r = spawnSync(process.execPath, ['-e', `const driver = require(${JSON.stringify(DRIVER)});\n${script}`], {
    encoding: 'utf8',
    env: { ...process.env, LORE_SQLITE_DRIVER: '', NODE_OPTIONS: failing.length ? failingModules(failing) : '' },
  });
  assert.equal(r.status, 0, r.stderr);
  return { ...JSON.parse(r.stdout), stderr: r.stderr };
}

const PRINT = 'const { driver: d, error } = driver.loadSqlite(); console.log(JSON.stringify({ name: d?.name, why: d?.why, error }));';
const QUIET = Number(process.versions.node.split('.')[0]) >= 24;

describe('SQLite driver order', function () {
  this.timeout(20_000);

  it('takes better-sqlite3 first, and node:sqlite with the reason when better-sqlite3 cannot load', () => {
    assert.deepEqual(driverIn(PRINT), { name: 'better-sqlite3', why: '', stderr: '' });
    const fallback = driverIn(PRINT, ['better-sqlite3']);
    assert.equal(fallback.name, 'node:sqlite');
    assert.equal(fallback.why, 'better-sqlite3 could not load: simulated: NODE_MODULE_VERSION mismatch');
  });

  it('takes node:sqlite first once a process prefers it (Node 24+), better-sqlite3 when node:sqlite cannot load', () => {
    const preferred = driverIn(`driver.preferBuiltinSqlite(); ${PRINT}`, ['better-sqlite3']);
    assert.equal(preferred.name, 'node:sqlite');
    assert.equal(
      preferred.why,
      QUIET
        ? 'preferred for a one-shot command: it loads faster'
        : 'better-sqlite3 could not load: simulated: NODE_MODULE_VERSION mismatch',
    );
    assert.equal(preferred.stderr, '');
    assert.deepEqual(driverIn(`driver.preferBuiltinSqlite(); ${PRINT}`, ['node:sqlite']), { name: 'better-sqlite3', why: '', stderr: '' });
    const neither = driverIn(`driver.preferBuiltinSqlite(); ${PRINT}`, ['better-sqlite3', 'node:sqlite']);
    assert.equal(neither.name, undefined);
    assert.match(neither.error!, /^better-sqlite3 could not load \(simulated: .*\) and node:sqlite is not available \(simulated: /);
  });

  it('keeps better-sqlite3 on a Node whose node:sqlite warns, and once a driver has loaded', () => {
    assert.equal(driverIn(`driver.preferBuiltinSqlite('22.14.0'); ${PRINT}`).name, 'better-sqlite3');
    // One process never opens databases through two SQLite libraries (their locks do not see each other).
    assert.equal(driverIn(`driver.loadSqlite(); driver.preferBuiltinSqlite(); ${PRINT}`).name, 'better-sqlite3');
  });
});
