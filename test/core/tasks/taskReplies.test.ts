import * as assert from 'node:assert/strict';
import { dream } from '../../../src/core/services/tasks/dream';
import { TaskMemory } from '../../../src/core/services/tasks/taskMemory';
import { taskGetReply, taskSearchReply } from '../../../src/core/services/tasks/taskReplies';
import { estimateTokens } from '../../../src/core/model/tokens';
import { fixtureTaskStore } from '../../helpers/taskStores';

describe('task tool replies', () => {
  it('task_get keeps the newest artifacts that fit the budget and counts the rest', async () => {
    const memory = new TaskMemory(fixtureTaskStore());
    try {
      const full = taskGetReply(memory, { task_id: 'refund-idempotency', max_tokens: 20_000 });
      const small = taskGetReply(memory, { task_id: 'refund-idempotency', max_tokens: 600 });
      const fullTimeline = (full.structured.task as { timeline: Array<{ artifact_id: string }> }).timeline;
      const smallTimeline = (small.structured.task as { timeline: Array<{ artifact_id: string }> }).timeline;
      assert.equal(full.structured.omitted, 0);
      assert.equal(fullTimeline.length, 8);
      assert.ok(smallTimeline.length > 0 && smallTimeline.length < 8);
      assert.equal(small.structured.omitted, 8 - smallTimeline.length);
      assert.deepEqual(
        smallTimeline.map((a) => a.artifact_id),
        fullTimeline.slice(-smallTimeline.length).map((a) => a.artifact_id),
        'the newest are kept, in order',
      );
      assert.ok(estimateTokens(JSON.stringify(small.structured.task)) <= 600);
      assert.match(small.text, /older artifacts left out/);
      assert.equal(taskGetReply(memory, { task_id: 'nope' }).structured.found, false);
    } finally {
      memory.close();
    }
  });

  it('task_search warns that digests are hints to re-ground, and says when one is stale', async () => {
    const paths = fixtureTaskStore();
    await dream(paths, { apply: true, context: { agentId: 'lore', now: () => new Date('2026-11-30T00:00:00Z') } });
    const memory = new TaskMemory(paths);
    try {
      const reply = taskSearchReply(memory, {
        mode: 'brief_project',
        filters: { artifact_kind: 'digest', artifact_role: 'project_brief' },
      });
      assert.deepEqual(reply.structured.warnings, ['digests are hints: re-ground them in the artifacts they name (task_get)']);
      assert.match(reply.text, /\[compiled_digest_hint\]/);
      await memory.record(
        { artifact_kind: 'task_progress', task_id: 'worker-memory-leak', summary: 'fixed in production' },
        { agentId: 'a', now: () => new Date('2026-12-01T00:00:00Z') },
      );
      const stale = taskSearchReply(memory, {
        mode: 'brief_project',
        filters: { artifact_kind: 'digest', artifact_role: 'project_brief' },
      });
      assert.match(stale.text, /\[compiled_digest_hint, stale\]/);
      assert.ok((stale.structured.warnings as string[]).includes('a digest is stale: its sources changed since it was compiled'));
    } finally {
      memory.close();
    }
  });
});
