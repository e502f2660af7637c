import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli, snapshotTree, transcript, type CliResult } from '../helpers/cli';
import { moduleRecorder } from '../helpers/moduleRecorder';
import { CLI, REPO_ROOT } from '../helpers/paths';

/**
 * Most CLI tests call `main(argv, io)` in the test process. These run the shipped bundle
 * (dist/cli.js) as a real process too, and check that both ways give the same answer, so the
 * in-process shortcut cannot drift from what a user runs.
 */
describe('lore, the built binary (dist/cli.js) in a child process', function () {
  this.timeout(60_000);

  const BODY = 'Fact: the build uses esbuild.\nTODO: write the crash test.\nNote for src/app.ts: exports the app constant.';

  /**
   * A run's output with what differs between two workspaces replaced: the temporary folder (as an
   * absolute path and relative to this process's folder) and the inode of src/app.ts.
   */
  function normalized(result: CliResult, ws: string) {
    const { dev, ino } = fs.statSync(path.join(ws, 'src', 'app.ts'), { bigint: true });
    const replace = (text: string, pairs: Array<[string, string]>) => pairs.reduce((t, [from, to]) => t.split(from).join(to), text);
    const strip = (text: string) =>
      replace(text, [
        [fs.realpathSync(ws), '<ws>'],
        [ws, '<ws>'],
        // Progress lines name files relative to the current folder (the repository, wherever it was cloned).
        [path.relative(process.cwd(), fs.realpathSync(ws)), '<ws>'],
        [path.relative(process.cwd(), ws), '<ws>'],
        [`${dev}-${ino}`, '<id>'],
        [`${dev}:${ino}`, '<id>'],
      ]);
    return { code: result.code, signal: result.signal, stdout: strip(result.stdout), stderr: strip(result.stderr) };
  }

  it('gives the same exit codes, output and files as the in-process run, for a whole harvest', async () => {
    const runs = [];
    for (const spawn of [false, true]) {
      const { ws, root, inbox } = await makeWorkspace();
      fs.writeFileSync(path.join(inbox, 'c1.md'), transcript('c1', BODY));
      const results = [];
      for (const args of [
        ['harvest'],
        ['harvest', '--preview'],
        ['harvest', '--apply'],
        ['notes', path.join(ws, 'src', 'app.ts')],
        ['digest'],
        ['harvest', '--bogus'],
      ]) {
        results.push(normalized(await runCli([...args, '--root', root], { spawn }), ws));
      }
      runs.push({ results, files: snapshotTree(root) });
    }
    const [inProcess, spawned] = runs;
    assert.deepEqual(
      spawned.results.map((r) => r.code),
      [0, 0, 0, 0, 0, 2],
    );
    assert.deepEqual(inProcess.results, spawned.results);
    for (const file of ['facts.md', 'tasks.md', 'digest.md']) assert.equal(inProcess.files[file], spawned.files[file], file);
    assert.equal(Object.keys(inProcess.files).length, Object.keys(spawned.files).length);
  });

  it('resolves relative paths against its cwd, in process as in the binary, and leaves the test process where it was', async () => {
    const { ws, root } = await makeWorkspace();
    const cwd = process.cwd();
    const outputs = [];
    for (const spawn of [false, true]) {
      const result = await runCli(['context', '--root', root, '--files', 'src/app.ts', 'src/missing.ts'], { cwd: ws, spawn });
      assert.equal(result.code, 0, result.stderr);
      outputs.push(result.stdout + result.stderr);
    }
    assert.match(outputs[0], /\{active-files\}\n- src\/app\.ts\n/);
    assert.match(outputs[0], /warning: no such file: src\/missing\.ts/);
    assert.equal(outputs[0], outputs[1]);
    assert.equal(process.cwd(), cwd);
  });

  it('prints its version and usage, and exits 2 on an unknown command', async () => {
    const version = await runCli(['--version'], { spawn: true });
    const { version: packageVersion } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.deepEqual([version.code, version.stdout], [0, `${packageVersion}\n`]);
    assert.deepEqual(await runCli(['--version']), version);
    // dist/cli.js prints the usage rendered at build time: the same as main renders now, and exit codes as main's.
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const [spawned, inProcess] = [await runCli(args, { spawn: true }), await runCli(args)];
      assert.deepEqual(spawned, inProcess, args.join(' '));
      assert.equal(spawned.code, args.length ? 0 : 2);
      assert.match(spawned.stdout, /^lore — [^]*\nlore search QUERY /);
    }
    const unknown = await runCli(['frobnicate'], { spawn: true });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^lore: unknown command "frobnicate"/);
  });

  it('loads only the command it runs: `lore --version` and `lore --help` load no bundle, `lore digest` no zod, SQLite, SDK or package', async () => {
    const { root } = await makeWorkspace();
    const runs: Record<string, { zod: boolean; files: string[]; packages: string[] }> = {};
    for (const args of [['--version'], ['--help'], ['digest', '--root', root], ['frobnicate']]) {
      const recorder = moduleRecorder();
      const result = await runCli(args, { spawn: true, env: { NODE_OPTIONS: recorder.nodeOptions } });
      assert.equal(result.code, args[0] === 'frobnicate' ? 2 : 0, result.stderr);
      const loaded = recorder.read();
      runs[args[0]] = {
        zod: loaded.zod,
        files: loaded.files,
        packages: loaded.requests.filter((r) => !require('node:module').isBuiltin(r) && !/^[./]/.test(r)),
      };
    }
    const cliMain = path.join(REPO_ROOT, 'dist', 'cliMain.js');
    assert.deepEqual(runs['--version'], { zod: false, files: [CLI], packages: [] });
    assert.deepEqual(runs['--help'], { zod: false, files: [CLI], packages: [] });
    assert.deepEqual(runs.digest, { zod: false, files: [CLI, cliMain], packages: [] });
    // A mistyped command renders the usage in process, which loads every command, zod (from dist/vendor/) included: the checks above can fail.
    assert.equal(runs.frobnicate.zod, true);
    assert.ok(runs.frobnicate.files.includes(path.join(REPO_ROOT, 'dist', 'vendor', 'zod.js')));
  });
});
