import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StoreChangedNotification, TaskTimelineRequest, TaskToolRequest, TasksListRequest } from '../../src/shared/protocol';
import type { LspTestClient } from './lspClient';
import { makeWorkspace, type TestWorkspace } from './serverFixtures';
import type { ParamsOf } from '../../src/shared/declareMessage';

describe('language server: task memory for the LM tools and the Tasks view (LSP over stdio)', function () {
  let w: TestWorkspace;
  let client: LspTestClient;

  beforeEach(async () => {
    w = makeWorkspace();
    client = await w.start();
  });

  afterEach(async () => {
    await client.stop();
  });

  const tool = (name: string, input: unknown, agentId = 'vscode-agent') =>
    client.connection.sendRequest(TaskToolRequest.type, { tool: name as ParamsOf<typeof TaskToolRequest>['tool'], input, agentId });

  it('records through lore/taskTool, lists by lore/tasks and gives the timeline with its links', async () => {
    const since = Date.now();
    const start = await tool('task_start', { goal: 'Trim the bundle below 1 MB', task_id: 'bundle-size' });
    assert.equal(start.structured.status, 'recorded');
    await client.waitFor<ParamsOf<typeof StoreChangedNotification>>(
      StoreChangedNotification.method,
      (p) => p.files.includes('tasks/bundle-size.jsonl'),
      5000,
      since,
    );
    const evidence = await tool('task_add_evidence', {
      task_id: 'bundle-size',
      summary: 'moment.js is 290 KB of it',
      files: ['src/dates.ts'],
      conversation_id: 'claude-42',
    });
    assert.equal(evidence.structured.status, 'recorded');
    const { tasks } = await client.connection.sendRequest(TasksListRequest.type, {});
    assert.deepEqual(
      tasks.map((t) => [t.task_id, t.status, t.artifact_count]),
      [['bundle-size', 'active', 2]],
    );
    const { entries } = await client.connection.sendRequest(TaskTimelineRequest.type, { taskId: 'bundle-size' });
    assert.deepEqual(
      entries.map((e) => e.artifact_kind),
      ['task_start', 'evidence'],
    );
    assert.deepEqual(entries[1].files, ['src/dates.ts']);
    assert.equal(entries[1].conversation_id, 'claude-42');
    assert.equal(entries[1].agent_id, 'vscode-agent');
    const found = await tool('task_search', { query: 'moment', mode: 'find_evidence' });
    assert.match(found.text, /moment\.js is 290 KB/);
    assert.ok(fs.existsSync(path.join(w.paths.root, 'tasks', 'bundle-size.md')));
  });

  it("checks tool input with the tools' own schemas and answers refusals as readable errors", async () => {
    const bad = await tool('task_progress', { task_id: 'x', summary: 'y', colour: 'red' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /invalid input/);
    const refused = await tool('task_progress', { task_id: 'never-started', summary: 'y' });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /start it with task_start first/);
    await assert.rejects(
      client.connection.sendRequest(TaskToolRequest.method, { tool: 'rm_rf', input: {}, agentId: 'a' }),
      /lore\/taskTool: tool/,
    );
    await assert.rejects(client.connection.sendRequest(TaskTimelineRequest.type, { taskId: '../x' }), /lore\/taskTimeline: taskId/);
  });
});
