/**
 * scripts/installStep.sh, the one way setup runs a download or an install: a step that stalls is
 * stopped at its timeout and tried again, a step that fails and then succeeds ends well, the
 * person sees a line while it runs, and a step that never succeeds says why and shows its log.
 * Tiny `sleep` steps with timeouts of seconds, set through the same variables a person would use.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, makeTempDir } from '../helpers/paths';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'installStep.sh');

interface StepRun {
  status: number | null;
  stderr: string;
}

function runStep(args: string[], env: Record<string, string> = {}, cwd?: string): StepRun {
  const r = spawnSync('sh', [SCRIPT, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, LORE_INSTALL_BACKOFF: '0', LORE_INSTALL_HEARTBEAT: '1', ...env },
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('installStep.sh', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = makeTempDir('lore-install-step-')));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stops a step that stalls at its timeout, removes what it half installed, and tries again', () => {
    const target = path.join(dir, 'target');
    const tries = path.join(dir, 'tries');
    // Each try records itself, leaves a half-written file, and hangs like a stalled download.
    const stall = `echo x >> "${tries}"; [ -e "${target}/half" ] && echo leftover >> "${tries}"; mkdir -p "${target}"; echo x > "${target}/half"; exec sleep 60`;
    const r = runStep(['--what', 'a stalled thing', '--watch', target, '--clean', target, '--', 'sh', '-c', stall], {
      LORE_INSTALL_TIMEOUT: '2',
      LORE_INSTALL_TRIES: '2',
    });
    assert.equal(r.status, 124, r.stderr);
    assert.equal(fs.readFileSync(tries, 'utf8'), 'x\nx\n', "two tries, the second without the first one's leftover");
    assert.match(r.stderr, /try 1 of 2: it did not finish within 2 s/);
    assert.match(r.stderr, /installing a stalled thing failed after 2 tries/);
  });

  it('ends well when a step fails twice and then succeeds, keeping each try in its log', () => {
    const log = path.join(dir, 'step.log');
    const flaky = 'n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > count; echo "attempt $n"; [ $n -ge 3 ]';
    const r = runStep(['--what', 'a flaky thing', '--log', log, '--', 'sh', '-c', flaky], {}, dir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /try 1 of 3: it failed \(exit status 1\)/);
    assert.match(r.stderr, /try 2 of 3: it failed/);
    assert.match(r.stderr, /installed a flaky thing in \d+ s/);
    assert.equal(fs.readFileSync(log, 'utf8'), 'attempt 1\n--- try 2 of 3 ---\nattempt 2\n--- try 3 of 3 ---\nattempt 3\n');
  });

  it('says what it installs when it starts, how far it got while it runs, and how long it took', () => {
    const target = path.join(dir, 'target');
    const grow = `sleep 1; mkdir -p "${target}"; head -c 3000000 /dev/zero > "${target}/blob"; sleep 3`;
    const r = runStep(['--what', 'a slow thing', '--detail', 'about 3 MB', '--watch', target, '--', 'sh', '-c', grow]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines[0], 'lore: installing a slow thing (about 3 MB) ...');
    assert.match(r.stderr, /still installing a slow thing: \d+ s so far, 3 MB on disk \(\+\d+ MB\)/);
    assert.match(r.stderr, /still installing a slow thing: .*\(\+[1-3] MB\)/, 'a line says how much it grew');
    assert.match(lines.at(-1)!, /^lore: installed a slow thing in \d+ s$/);
  });

  it('while nothing grows, says what the step is at: its latest line that reads as words', () => {
    const build = `echo "  CXX(target) Release/obj.target/spdlog/logger.o"; echo "  199 |   default:  x = 1;"; echo "      |   ^~~~"; sleep 3`;
    const r = runStep(['--what', 'a build', '--', 'sh', '-c', build]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /still installing a build: \d+ s so far; latest: {3}CXX\(target\) Release\/obj\.target\/spdlog\/logger\.o\n/);
  });

  it('after the last failed try shows the end of the log and what the person can do', () => {
    const r = runStep(
      ['--what', 'a broken thing', '--hint', 'ask the mirror owner', '--', 'sh', '-c', 'echo "E404 not found: thing@9"; exit 3'],
      {
        LORE_INSTALL_TRIES: '1',
      },
    );
    assert.equal(r.status, 3);
    assert.match(r.stderr, /installing a broken thing failed after 1 try .*the last try: it failed \(exit status 3\)/);
    assert.match(r.stderr, /^ {4}E404 not found: thing@9$/m);
    assert.match(r.stderr, /lore: ask the mirror owner\n$/);
  });

  it('gives npm a fetch timeout and retries, unless the environment already chose them', () => {
    const log = path.join(dir, 'env.log');
    const show = 'echo "$npm_config_fetch_timeout $npm_config_fetch_retries"';
    assert.equal(runStep(['--what', 'npm', '--log', log, '--', 'sh', '-c', show]).status, 0);
    assert.equal(runStep(['--what', 'npm', '--log', log, '--', 'sh', '-c', show], { npm_config_fetch_timeout: '5000' }).status, 0);
    assert.equal(fs.readFileSync(log, 'utf8'), '120000 4\n5000 4\n');
  });
});
