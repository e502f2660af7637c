import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { dream } from '../../../src/core/services/tasks/dream';
import { recordArtifact } from '../../../src/core/services/tasks/recordArtifact';
import { listTaskIds, taskLogFile } from '../../../src/core/services/tasks/taskFiles';
import { TaskIndex } from '../../../src/core/services/tasks/taskIndex';
import { searchTasks } from '../../../src/core/services/tasks/taskSearch';
import { fixtureTaskStore } from '../../helpers/taskStores';

describe('task digests and lore tasks dream', () => {
  const context = { agentId: 'lore', now: () => new Date('2026-11-30T12:00:00Z') };

  it('plans as a dry run, writes digests only when applied, and then finds nothing to do', async () => {
    const paths = fixtureTaskStore();
    const before = listTaskIds(paths).map((id) => fs.readFileSync(taskLogFile(paths, id), 'utf8'));
    const plan = await dream(paths, { apply: false, context });
    assert.equal(plan.dryRun, true);
    assert.equal(plan.actions.filter((a) => a.digest_key.startsWith('task_resume:')).length, 8);
    assert.deepEqual(
      plan.actions
        .filter((a) => a.task_id === '_project')
        .map((a) => a.digest_key.split(':')[0])
        .sort(),
      ['decision_library', 'evidence_library', 'failure_library', 'highlight_library', 'project_brief'],
    );
    assert.deepEqual(
      listTaskIds(paths).map((id) => fs.readFileSync(taskLogFile(paths, id), 'utf8')),
      before,
      'a dry run writes nothing',
    );
    assert.deepEqual(plan.staleTasks.sort(), ['churn-model', 'worker-memory-leak'], 'open tasks untouched for two weeks');

    const applied = await dream(paths, { apply: true, context });
    assert.equal(applied.written.length, 13);
    const again = await dream(paths, { apply: false, context });
    assert.deepEqual(again.actions, []);
    assert.equal(again.fresh, 13);
  });

  it('a digest is a hint until re-grounded, says when its sources moved on, and is refreshed then', async () => {
    const paths = fixtureTaskStore();
    await dream(paths, { apply: true, context });
    const index = TaskIndex.open(paths);
    try {
      index.refresh();
      const resume = searchTasks(index, { mode: 'resume_task', filters: { task_id: 'churn-model' } }).hits[0];
      assert.equal(resume.artifact_role, 'task_resume');
      assert.equal(resume.trust, 'compiled_digest_hint');
      assert.equal(resume.stale, undefined);
      const failures = searchTasks(index, { query: 'pgcrypto', mode: 'find_failures', filters: { artifact_kind: 'digest' } }).hits[0];
      assert.equal(failures.artifact_role, 'failure_library');

      await recordArtifact(
        paths,
        { artifact_kind: 'task_progress', task_id: 'churn-model', summary: 'Q4 data arrived' },
        { agentId: 'claude-code', now: () => new Date('2026-12-01T09:00:00Z') },
      );
      index.refresh();
      assert.equal(
        searchTasks(index, { mode: 'resume_task', filters: { task_id: 'churn-model', artifact_kind: 'digest' } }).hits[0].stale,
        true,
      );
      const plan = await dream(paths, { apply: true, context: { ...context, now: () => new Date('2026-12-01T10:00:00Z') }, index });
      assert.deepEqual(
        plan.actions.map((a) => a.digest_key).sort(),
        ['project_brief:_project', 'task_resume:churn-model'],
        'only the digests whose sources changed',
      );
      assert.equal(plan.supersededDigests, 2);
      const fresh = searchTasks(index, { mode: 'resume_task', filters: { task_id: 'churn-model', artifact_kind: 'digest' } });
      assert.equal(fresh.hits.length, 1, 'the superseded digest left the index');
      assert.equal(fresh.hits[0].stale, undefined);
      assert.match(fresh.hits[0].text, /Q4 data arrived/);
    } finally {
      index.close();
    }
  });
});
