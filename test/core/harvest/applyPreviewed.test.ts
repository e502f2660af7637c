/**
 * Applying a preview held in memory (the extension's Apply): agent logs outside the inbox that an
 * agent is still writing must not make every preview stale, and a conversation that merely aged
 * out of the live window is not a new one.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyPreviewedHarvest } from '../../../src/core/services/harvest/applyPreviewed';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { runHarvest } from '../../../src/core/services/harvest/runHarvest';
import { createProvider } from '../../../src/core/services/providers/providerRegistry';
import { initStore } from '../../../src/core/store/initStore';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { transcript } from '../../helpers/cli';
import { makeTempDir } from '../../helpers/paths';

const readFacts = (paths: StorePaths) => fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8');

describe('applyPreviewedHarvest', function () {
  const now = new Date('2026-11-24T12:00:00Z');
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

  function setup() {
    const ws = makeTempDir('lore-applypreviewed-');
    const paths = storePaths(path.join(ws, '.lore'), ws);
    initStore(paths, defaultPromptsDir());
    const agentLogs = path.join(ws, 'sessions');
    fs.mkdirSync(agentLogs);
    const done = path.join(agentLogs, 'done.md');
    // Aider's history file: an agent log, so `live` while recently written.
    const live = path.join(agentLogs, 'live.aider.chat.history.md');
    fs.writeFileSync(done, transcript('done', 'Fact: written an hour ago.'));
    fs.writeFileSync(live, transcript('live', 'Fact: still being written.'));
    fs.utimesSync(done, minutesAgo(60), minutesAgo(60));
    fs.utimesSync(live, minutesAgo(1), minutesAgo(1));
    return { paths, agentLogs, done, live };
  }

  it('applies while an agent log the preview left live keeps growing', async () => {
    const { paths, agentLogs, done, live } = setup();
    const preview = await runHarvest({ paths, sources: [agentLogs], mode: 'preview', provider: createProvider('rules'), now });
    assert.deepEqual(
      preview.conversations.map((c) => [path.basename(c.path), c.class]),
      [
        ['done.md', 'harvest'],
        ['live.aider.chat.history.md', 'live'],
      ],
    );
    fs.appendFileSync(live, '\n## 10:05 — user\nFact: more.\n');
    fs.utimesSync(live, minutesAgo(2), minutesAgo(2));
    const stillLive = await applyPreviewedHarvest(paths, preview, { now });
    assert.equal(stillLive.stale, undefined);
    assert.ok(stillLive.applied);
    assert.match(readFacts(paths), /- written an hour ago\. \[from: done, 2026-11-20\]/);
    assert.doesNotMatch(readFacts(paths), /still being written/);
    assert.ok(fs.existsSync(done), 'files outside the inbox are never reclaimed');
  });

  it('counts a conversation that aged out of the live window with the same bytes as seen, not new', async () => {
    const { paths, agentLogs } = setup();
    const preview = await runHarvest({ paths, sources: [agentLogs], mode: 'preview', provider: createProvider('rules'), now });
    const later = new Date(now.getTime() + 30 * 60_000);
    const applied = await applyPreviewedHarvest(paths, preview, { now: later });
    assert.equal(applied.stale, undefined);
  });

  it('says a changed conversation the plan harvests is stale, and writes nothing', async () => {
    const { paths, agentLogs, done } = setup();
    const preview = await runHarvest({ paths, sources: [agentLogs], mode: 'preview', provider: createProvider('rules'), now });
    fs.appendFileSync(done, 'Fact: an edit after the preview.\n');
    const facts = readFacts(paths);
    const applied = await applyPreviewedHarvest(paths, preview, { now });
    assert.deepEqual(applied.stale, [`${done} changed since the preview`]);
    assert.equal(applied.applied, undefined);
    assert.equal(readFacts(paths), facts);
    assert.ok(!fs.existsSync(paths.ledger));
  });
});
