/**
 * The day a harvested item's provenance gives is the day its conversation began: for a SpecStory
 * v2.1 export of a Cursor chat, the first message's stamp, not the header's, which is the day the
 * chat was created (weeks earlier in the export this fixture is shaped after).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listItems } from '../../../src/core/model/categoryFile';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { runHarvest } from '../../../src/core/services/harvest/runHarvest';
import { createProvider } from '../../../src/core/services/providers/providerRegistry';
import { initStore } from '../../../src/core/store/initStore';
import { storePaths } from '../../../src/core/store/storePaths';
import { FIXTURES, makeTempDir } from '../../helpers/paths';

describe('harvest: the day provenance gives', () => {
  it('dates a decision from a SpecStory v2.1 Cursor session by its first message (2025-08-18), not its header (2025-06-30)', async () => {
    const ws = makeTempDir('lore-provenance-date-');
    const paths = storePaths(path.join(ws, '.lore'), ws);
    initStore(paths, defaultPromptsDir());
    fs.copyFileSync(path.join(FIXTURES, 'conversations', 'specstory-v2.1-cursor.md'), path.join(paths.inbox, 'cursor-sync.md'));
    await runHarvest({ paths, sources: [paths.inbox], mode: 'apply', provider: createProvider('rules'), reclaim: 'keep' });
    const decisions = listItems(fs.readFileSync(path.join(paths.root, 'decisions.md'), 'utf8')).map((i) => i.raw);
    assert.deepEqual(decisions, [
      '- every sync request names the agent that wrote the session, in APIRequestMetadata. [from: 2b8f0d6e-4c1a-4e59-9d3b-7a6c5e4f3d21, 2025-08-18]',
    ]);
  });
});
