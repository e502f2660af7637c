import * as assert from 'node:assert/strict';
import { TaskIndex } from '../../../src/core/services/tasks/taskIndex';
import { searchTasks } from '../../../src/core/services/tasks/taskSearch';
import { fixtureTaskStore } from '../../helpers/taskStores';

describe('task tables without better-sqlite3 (node:sqlite)', () => {
  it('answers the same filtered, ranked searches as better-sqlite3 on the same logs, and says which driver serves', () => {
    const requests = [
      { query: 'AUC holdout', filters: { dataset_name: 'customers', artifact_kind: 'evidence' as const } },
      { filters: { artifact_kind: 'run_finish' as const, status: 'failed' as const } },
      { query: 'refunds', mode: 'find_failures' as const },
      { filters: { verification_status: 'verified' as const } },
      { query: 'latency pool', filters: { file: 'config/database.yml' } },
    ];
    const answers = (env: NodeJS.ProcessEnv) => {
      const index = TaskIndex.open(fixtureTaskStore(), env);
      try {
        const report = index.refresh();
        return {
          driver: index.db.driver,
          report: [report.tasks, report.artifacts],
          hits: requests.map((r) => searchTasks(index, r).hits.map((h) => [h.artifact_id, h.trust, h.chunk])),
        };
      } finally {
        index.close();
      }
    };
    const native = answers({});
    const builtin = answers({ LORE_SQLITE_DRIVER: 'node' });
    assert.equal(native.driver, 'better-sqlite3');
    assert.match(builtin.driver, /^node:sqlite \(forced by LORE_SQLITE_DRIVER=node\)$/);
    assert.deepEqual(builtin.report, native.report);
    assert.deepEqual(builtin.hits, native.hits);
    assert.ok(native.hits.every((h) => h.length > 0));
  });
});
