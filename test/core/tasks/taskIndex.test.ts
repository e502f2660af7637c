import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexDatabaseFile } from '../../../src/core/services/search/openEngine';
import { storePaths } from '../../../src/core/store/storePaths';
import { recordArtifact } from '../../../src/core/services/tasks/recordArtifact';
import { taskLogFile } from '../../../src/core/services/tasks/taskFiles';
import { TaskIndex } from '../../../src/core/services/tasks/taskIndex';
import { makeTempDir } from '../../helpers/paths';

describe('task side tables in the SQLite index', () => {
  let clock = Date.parse('2026-11-20T10:00:00Z');
  const ctx = (agentId: string) => ({ agentId, now: () => new Date((clock += 60_000)) });

  async function fixture() {
    const paths = storePaths(path.join(makeTempDir(), '.lore'));
    await recordArtifact(
      paths,
      { artifact_kind: 'task_start', task_id: 'churn', goal: 'predict churn', dataset_refs: [{ name: 'customers', version: 'v3' }] },
      ctx('alice'),
    );
    const ev = await recordArtifact(
      paths,
      {
        artifact_kind: 'evidence',
        task_id: 'churn',
        summary: 'AUC 0.81 on holdout',
        confidence: 0.7,
        verification_status: 'verified',
        entity_refs: [{ name: 'xgboost', type: 'model' }],
        provenance: { files: ['notebooks/churn.ipynb'], conversation_id: 'conv-1' },
      },
      ctx('alice'),
    );
    await recordArtifact(
      paths,
      {
        artifact_kind: 'verification',
        task_id: 'churn',
        reply_to_artifact_id: ev.artifact.artifact_id,
        summary: 'I checked my own result',
      },
      ctx('alice'),
    );
    await recordArtifact(paths, { artifact_kind: 'task_start', task_id: 'latency', goal: 'cut p99 latency' }, ctx('bob'));
    return { paths, evidenceId: ev.artifact.artifact_id };
  }

  const rows = (index: TaskIndex, sql: string, ...args: unknown[]) => index.db.prepare(sql).all(...args);

  it('projects the logs into the tables, and a claim is verified only by another agent', async () => {
    const { paths, evidenceId } = await fixture();
    const index = TaskIndex.open(paths);
    try {
      const report = index.refresh();
      assert.equal(report.tasks, 2);
      assert.equal(report.artifacts, 4);
      assert.deepEqual(rows(index, 'SELECT name, version FROM datasets'), [{ name: 'customers', version: 'v3' }]);
      assert.deepEqual(rows(index, 'SELECT target_kind, target FROM artifact_links ORDER BY target_kind'), [
        { target_kind: 'conversation', target: 'conv-1' },
        { target_kind: 'file', target: 'notebooks/churn.ipynb' },
      ]);
      // The claim's own verification_status field and a self-verification do not count.
      assert.deepEqual(rows(index, 'SELECT verification_status FROM evidence WHERE artifact_id = ?', evidenceId), [
        { verification_status: 'unverified' },
      ]);
      await recordArtifact(
        paths,
        { artifact_kind: 'verification', task_id: 'churn', reply_to_artifact_id: evidenceId, summary: 'reran: AUC 0.80' },
        ctx('carol'),
      );
      const second = index.refresh();
      assert.deepEqual(second.reindexed, ['churn'], 'only the task whose log changed is read again');
      assert.deepEqual(rows(index, 'SELECT verification_status FROM evidence WHERE artifact_id = ?', evidenceId), [
        { verification_status: 'verified' },
      ]);
      assert.deepEqual(
        rows(index, 'SELECT relation_kind FROM artifact_relations WHERE to_artifact_id = ? ORDER BY relation_kind', evidenceId),
        [{ relation_kind: 'verifies' }, { relation_kind: 'verifies' }],
      );
    } finally {
      index.close();
    }
  });

  it('is rebuilt from the JSONL alone: deleted, it comes back the same; a removed log leaves nothing behind', async () => {
    const { paths } = await fixture();
    const snapshot = (index: TaskIndex) =>
      JSON.stringify([
        rows(index, 'SELECT * FROM task_artifacts ORDER BY artifact_id'),
        rows(index, 'SELECT * FROM tasks ORDER BY task_id'),
        rows(index, 'SELECT artifact_id, chunk_kind, text FROM task_chunks ORDER BY artifact_id, chunk_kind, text'),
      ]);
    let index = TaskIndex.open(paths);
    index.refresh();
    const before = snapshot(index);
    index.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(indexDatabaseFile(paths) + suffix, { force: true });
    index = TaskIndex.open(paths);
    try {
      index.rebuild();
      assert.equal(snapshot(index), before);
      fs.rmSync(taskLogFile(paths, 'churn'));
      const report = index.refresh();
      assert.deepEqual(report.removed, ['churn']);
      assert.deepEqual(rows(index, "SELECT count(*) AS n FROM task_artifacts WHERE task_id = 'churn'"), [{ n: 0 }]);
      assert.deepEqual(rows(index, 'SELECT count(*) AS n FROM datasets'), [{ n: 0 }]);
    } finally {
      index.close();
    }
  });

  it('reports malformed lines and indexes the rest', async () => {
    const { paths } = await fixture();
    fs.appendFileSync(taskLogFile(paths, 'latency'), '{"artifact_kind": "evidence"}\n');
    const index = TaskIndex.open(paths);
    try {
      const report = index.refresh();
      assert.equal(report.malformed.length, 1);
      assert.equal(report.malformed[0].file, 'tasks/latency.jsonl');
      assert.equal(report.malformed[0].line, 2);
      assert.equal(report.artifacts, 4);
    } finally {
      index.close();
    }
  });
});
