/**
 * The engine's tiers as eslint.config.mjs declares them (ENGINE_ZONES) and as its rule
 * `lore/engine-tiers` enforces them: the declaration is a partial order (no zone reaches itself
 * through its siblings), every folder of src/core is in a zone, and the rule refuses what it is
 * meant to (an import up a tier, an undeclared sibling service, in every import form) and lets
 * the rest through. A rule that silently matched nothing would let the engine grow back into
 * one loop; this notices.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '..', '..', '..');

interface EngineConfig {
  ENGINE_TIERS: string[];
  ENGINE_ZONES: Record<string, string[]>;
  engineZone(file: string): string | undefined;
}

async function tierErrors(file: string, source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'lore/engine-tiers').map((m) => m.message);
}

describe('engine tiers (eslint.config.mjs)', function () {
  this.timeout(60000);
  let config: EngineConfig;

  before(async () => {
    config = (await import(pathToFileURL(path.join(root, 'eslint.config.mjs')).href)) as EngineConfig;
  });

  it('declares siblings of the same tier only, each of them a declared zone, with no loop among them', () => {
    const zones = config.ENGINE_ZONES;
    const tier = (zone: string) => zone.split('/')[0];
    for (const [zone, uses] of Object.entries(zones)) {
      assert.ok(config.ENGINE_TIERS.includes(tier(zone)), `${zone} is in no tier`);
      for (const used of uses) {
        assert.ok(used in zones, `${zone} uses ${used}, which is not declared`);
        assert.equal(tier(used), tier(zone), `${zone} names ${used}: a lower tier is always allowed, a higher one never`);
      }
    }
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (zone: string, trail: string[]): void => {
      if (state.get(zone) === 'done') return;
      assert.notEqual(state.get(zone), 'visiting', `the zones loop: ${[...trail, zone].join(' → ')}`);
      state.set(zone, 'visiting');
      for (const used of zones[zone]) visit(used, [...trail, zone]);
      state.set(zone, 'done');
    };
    for (const zone of Object.keys(zones)) visit(zone, []);
  });

  it('puts every source file of src/core in a declared zone', () => {
    const stray: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && !config.engineZone(full)) stray.push(path.relative(root, full));
      }
    };
    walk(path.join(root, 'src', 'core'));
    assert.deepEqual(stray, []);
  });

  const refused: Array<[string, string]> = [
    ['src/core/base/x.ts', "import { x } from '../model/categories';"],
    ['src/core/model/x.ts', "import { x } from '../store/storePaths';"],
    ['src/core/store/x.ts', "import { x } from '../services/search/searchIndex';"],
    ['src/core/store/items/x.ts', "import type { X } from '../../services/harvest/plan';"],
    ['src/core/store/x.ts', "const m = require('../services/search/searchIndex'); void m;"],
    ['src/core/store/x.ts', "export type M = typeof import('../services/search/searchIndex');"],
    ['src/core/store/x.ts', "export { x } from '../services/tasks/taskDb';"],
    ['src/core/store/x.ts', "void import('../services/tasks/taskDb');"],
    ['src/core/store/x.ts', "import { x } from './items/reviewQueue';"],
    ['src/core/services/harvest/x.ts', "import { x } from '../tasks/taskDb';"],
    ['src/core/services/conversations/x.ts', "import { x } from '../context/buildContext';"],
    ['src/core/unplanned/x.ts', ''],
  ];
  for (const [file, source] of refused) {
    it(`refuses in ${file}: ${source || '(a folder in no zone)'}`, async () => {
      assert.equal((await tierErrors(file, source)).length, 1);
    });
  }

  const allowed: Array<[string, string]> = [
    ['src/core/model/x.ts', "import { x } from '../base/atomicWrite';"],
    ['src/core/model/x.ts', "import { x } from './safety/redact';"],
    ['src/core/store/items/x.ts', "import { x } from '../storePaths';"],
    ['src/core/store/items/x.ts', "import { x } from '../history/storeHistory';"],
    ['src/core/services/harvest/x.ts', "import { x } from '../search/itemSimilarity';"],
    ['src/core/services/harvest/x.ts', "import { x } from '../../store/changes/applyPlan';"],
    ['src/core/services/harvest/x.ts', "import { z } from 'zod';"],
  ];
  for (const [file, source] of allowed) {
    it(`allows in ${file}: ${source}`, async () => {
      assert.deepEqual(await tierErrors(file, source), []);
    });
  }
});
