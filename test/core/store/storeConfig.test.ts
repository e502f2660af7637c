import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_STORE_CONFIG, loadStoreConfig } from '../../../src/core/store/storeConfig';
import { makeTempDir } from '../../helpers/paths';

function load(text?: string) {
  const file = path.join(makeTempDir('lore-config-'), 'config.json');
  if (text !== undefined) fs.writeFileSync(file, text);
  return { file, ...loadStoreConfig(file) };
}

describe('store config (config.json)', () => {
  it('uses the defaults without a file, silently', () => {
    const { config, warning } = load();
    assert.deepEqual(config, DEFAULT_STORE_CONFIG);
    assert.equal(warning, undefined);
  });

  it('reads context.budgetTokens, and names it when it is wrong', () => {
    assert.equal(load('{"context": {"budgetTokens": 12000}}').config.contextBudgetTokens, 12000);
    const wrong = load('{"context": {"budgetTokens": "lots"}, "reclaim": "keep"}');
    assert.equal(wrong.config.contextBudgetTokens, undefined);
    assert.equal(wrong.config.reclaim, 'keep');
    assert.match(wrong.warning!, /context\.budgetTokens/);
  });

  it('reads both spellings and ignores keys it does not know', () => {
    assert.deepEqual(load('{"reclaim": "archive", "digestEnabled": false, "mine": 1}').config, { reclaim: 'archive', digestEnabled: false, transcripts: true, agentWrites: 'pending', git: DEFAULT_STORE_CONFIG.git });
    const nested = load('\ufeff{"harvest": {"reclaim": "keep", "x": true}, "digest": {"enabled": false}}');
    assert.deepEqual(nested.config, { reclaim: 'keep', digestEnabled: false, transcripts: true, agentWrites: 'pending', git: DEFAULT_STORE_CONFIG.git });
    assert.equal(nested.warning, undefined);
  });

  it('names the file and the field that is wrong, and keeps the other settings', () => {
    const { file, config, warning } = load('{"reclaim": "shred", "digestEnabled": false}');
    assert.deepEqual(config, { reclaim: DEFAULT_STORE_CONFIG.reclaim, digestEnabled: false, transcripts: true, agentWrites: 'pending', git: DEFAULT_STORE_CONFIG.git });
    assert.ok(warning?.startsWith(`${file}: reclaim: `), warning);
    assert.match(warning!, /delete.*archive.*keep/);
    const nested = load('{"digest": {"enabled": "no"}, "reclaim": "keep"}');
    assert.deepEqual(nested.config, { reclaim: 'keep', digestEnabled: true, transcripts: true, agentWrites: 'pending', git: DEFAULT_STORE_CONFIG.git });
    assert.match(nested.warning!, /config\.json: digest\.enabled: .*boolean/);
    const transcripts = load('{"transcripts": "off", "reclaim": "keep"}');
    assert.deepEqual(transcripts.config, { reclaim: 'keep', digestEnabled: true, transcripts: true, agentWrites: 'pending', git: DEFAULT_STORE_CONFIG.git });
    assert.match(transcripts.warning!, /config\.json: transcripts: .*boolean/);
  });

  it('turns stored transcripts off with "transcripts": false (on by default)', () => {
    assert.equal(DEFAULT_STORE_CONFIG.transcripts, true);
    assert.deepEqual(load('{"transcripts": false}').config, { ...DEFAULT_STORE_CONFIG, transcripts: false });
  });

  it('sends agents\' writes to the pending queue unless "agentWrites": "direct"; a wrong value is named', () => {
    assert.equal(DEFAULT_STORE_CONFIG.agentWrites, 'pending');
    assert.equal(load('{"agentWrites": "direct"}').config.agentWrites, 'direct');
    const wrong = load('{"agentWrites": "yolo", "reclaim": "keep"}');
    assert.deepEqual(wrong.config, { ...DEFAULT_STORE_CONFIG, reclaim: 'keep' });
    assert.match(wrong.warning!, /agentWrites/);
  });

  it('falls back to the defaults when the file is not JSON or not an object, and says so', () => {
    const broken = load('{ broken');
    assert.deepEqual(broken.config, DEFAULT_STORE_CONFIG);
    assert.match(broken.warning!, /config\.json is not valid JSON/);
    const list = load('["reclaim", "keep"]');
    assert.deepEqual(list.config, DEFAULT_STORE_CONFIG);
    assert.match(list.warning!, /config\.json: the top level: /);
  });

  it('reads the git section: commit mode, interval and daily tags; a wrong mode is named and left unset', () => {
    assert.deepEqual(DEFAULT_STORE_CONFIG.git, { intervalMinutes: 30, dailyTags: false });
    assert.deepEqual(load('{"git": {"commit": "interval", "intervalMinutes": 5, "dailyTags": true}}').config.git, { commit: 'interval', intervalMinutes: 5, dailyTags: true });
    const wrong = load('{"git": {"commit": "always"}, "reclaim": "keep"}');
    assert.deepEqual(wrong.config, { ...DEFAULT_STORE_CONFIG, reclaim: 'keep' });
    assert.match(wrong.warning!, /git\.commit/);
  });
});
