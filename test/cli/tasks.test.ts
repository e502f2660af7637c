/** `lore tasks …`: the task lifecycle, search, list, show, reindex and dream from the command line. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';
import { fixtureTaskStore } from '../helpers/taskStores';

describe('lore tasks', function () {
  this.timeout(60_000);

  it('records a task from start to finish and finds it again', async () => {
    const { root } = await makeWorkspace();
    const lore = (...args: string[]) => runCli(['tasks', ...args, '--root', root]);
    const start = await lore(
      'start',
      'Speed up the nightly export',
      '--id',
      'nightly-export',
      '--hypothesis',
      'the export scans every row twice',
    );
    assert.equal(start.code, 0, start.stderr);
    assert.match(start.stdout, /recorded task_start a-[0-9a-f]{12} in task nightly-export/);
    const run = await lore('run-start', 'nightly-export', '--tool', 'hyperfine', '--command', 'hyperfine ./export.sh');
    const runId = /a-[0-9a-f]{12}/.exec(run.stdout)![0];
    assert.equal(
      (
        await lore(
          'run-finish',
          'nightly-export',
          runId,
          '--status',
          'failed',
          '--summary',
          'still 41 minutes',
          '--metric',
          'minutes=41',
          '--failed',
          'an index on exported_at did not help',
        )
      ).code,
      0,
    );
    assert.equal(
      (await lore('evidence', 'nightly-export', '--summary', 'EXPLAIN shows a sequential scan of orders', '--file', 'sql/export.sql')).code,
      0,
    );
    assert.equal(
      (await lore('finish', 'nightly-export', '--worked', 'stream rows with a cursor', '--followup', 'drop the unused index')).code,
      0,
    );

    const list = await lore('list');
    assert.match(list.stdout, /^done\s+nightly-export\s+Speed up the nightly export\s+\(5 artifacts/m);
    const failures = await lore('search', 'index', '--mode', 'find_failures', '--filter', 'task_id=nightly-export');
    assert.match(
      failures.stdout.split('\n')[0],
      /nightly-export\s+run_finish\/failed\s+\[canonical_record\]\s+an index on exported_at did not help/,
    );
    const byFile = await lore('search', '--filter', 'file=sql/export.sql', '--json');
    assert.deepEqual(
      JSON.parse(byFile.stdout).hits.map((h: { artifact_kind: string }) => h.artifact_kind),
      ['evidence'],
    );
    const show = await lore('show', 'nightly-export');
    assert.match(show.stdout, /## What worked\n\n- stream rows with a cursor/);
    assert.equal(fs.readFileSync(path.join(root, 'tasks', 'nightly-export.md'), 'utf8').trim(), show.stdout.trim());
  });

  it('says what is wrong with a call (exit 2) or a refused write (exit 1)', async () => {
    const { root } = await makeWorkspace();
    const bad = await runCli(['tasks', 'search', '--filter', 'colour=red', '--root', root]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--filter/);
    const refused = await runCli(['tasks', 'progress', 'nope', '--summary', 'x', '--root', root]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /start it with task_start first/);
  });

  it('reindex rebuilds the tables from the logs and reports malformed lines; dream is a dry run until --apply', async () => {
    const paths = fixtureTaskStore();
    fs.appendFileSync(path.join(paths.root, 'tasks', 'churn-model.jsonl'), 'not json\n');
    assert.ok(!fs.existsSync(path.join(paths.root, 'tasks', 'churn-model.md')));
    const reindex = await runCli(['tasks', 'reindex', '--root', paths.root]);
    assert.equal(reindex.code, 0, reindex.stderr);
    assert.match(reindex.stdout, /8 tasks, 46 artifacts; 1 malformed line\(s\)/);
    assert.match(reindex.stdout, /tasks\/churn-model\.jsonl:10: not JSON/);
    assert.match(
      fs.readFileSync(path.join(paths.root, 'tasks', 'churn-model.md'), 'utf8'),
      /^# Predict customer churn[\s\S]*line 10: not JSON/m,
      'the pages are regenerated from the logs',
    );
    const dry = await runCli(['tasks', 'dream', '--root', paths.root]);
    assert.match(dry.stdout, /^dry run/);
    assert.match(dry.stdout, /create {2}task_resume:churn-model/);
    assert.ok(!fs.existsSync(path.join(paths.root, 'tasks', '_project.jsonl')));
    const applied = await runCli(['tasks', 'dream', '--apply', '--root', paths.root]);
    assert.match(applied.stdout, /applied: 13 digest\(s\) written/);
    const brief = await runCli([
      'tasks',
      'search',
      '--mode',
      'brief_project',
      '--filter',
      'artifact_role=project_brief',
      '--json',
      '--root',
      paths.root,
    ]);
    const hit = JSON.parse(brief.stdout).hits[0];
    assert.equal(hit.trust, 'compiled_digest_hint');
    assert.match(hit.text, /\[blocked\] churn-model/);
  });
});
