import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  loadStoreConfig,
  StoreConfigError,
  storeConfigForWrite,
  storePrivateMarkers,
  takeConfigNotices,
} from '../../../src/core/store/storeConfig';
import { DEFAULT_STORE_CONFIG } from '../../../src/core/model/storeConfigFormat';
import { isStoreTrusted, setStoreTrust } from '../../../src/core/store/storeTrust';
import { makeTempDir } from '../../helpers/paths';

/** config.json with `text` in a store the person trusts (as their own config), unless `trusted` is false. */
function load(text?: string, trusted = true) {
  const dir = makeTempDir('lore-config-');
  if (trusted) setStoreTrust(dir, true);
  const file = path.join(dir, 'config.json');
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
    assert.deepEqual(load('{"reclaim": "archive", "digestEnabled": false, "mine": 1}').config, {
      reclaim: 'archive',
      digestEnabled: false,
      transcripts: true,
      agentWrites: 'pending',
      git: DEFAULT_STORE_CONFIG.git,
      sources: DEFAULT_STORE_CONFIG.sources,
    });
    const nested = load('\ufeff{"harvest": {"reclaim": "keep", "x": true}, "digest": {"enabled": false}}');
    assert.deepEqual(nested.config, {
      reclaim: 'keep',
      digestEnabled: false,
      transcripts: true,
      agentWrites: 'pending',
      git: DEFAULT_STORE_CONFIG.git,
      sources: DEFAULT_STORE_CONFIG.sources,
    });
    assert.equal(nested.warning, undefined);
  });

  it('names the file and the field that is wrong, and keeps the other settings', () => {
    const { file, config, warning } = load('{"reclaim": "shred", "digestEnabled": false}');
    assert.deepEqual(config, {
      reclaim: DEFAULT_STORE_CONFIG.reclaim,
      digestEnabled: false,
      transcripts: true,
      agentWrites: 'pending',
      git: DEFAULT_STORE_CONFIG.git,
      sources: DEFAULT_STORE_CONFIG.sources,
    });
    assert.ok(warning?.startsWith(`${file}: reclaim: `), warning);
    assert.match(warning!, /delete.*archive.*keep/);
    const nested = load('{"digest": {"enabled": "no"}, "reclaim": "keep"}');
    assert.deepEqual(nested.config, {
      reclaim: 'keep',
      digestEnabled: true,
      transcripts: true,
      agentWrites: 'pending',
      git: DEFAULT_STORE_CONFIG.git,
      sources: DEFAULT_STORE_CONFIG.sources,
    });
    assert.match(nested.warning!, /config\.json: digest\.enabled: .*boolean/);
    const transcripts = load('{"transcripts": "off", "reclaim": "keep"}');
    assert.deepEqual(transcripts.config, {
      reclaim: 'keep',
      digestEnabled: true,
      transcripts: true,
      agentWrites: 'pending',
      git: DEFAULT_STORE_CONFIG.git,
      sources: DEFAULT_STORE_CONFIG.sources,
    });
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

  it('a file that is not JSON or not an object is broken: reads get the defaults, writes stop, naming the file and the line', () => {
    const broken = load('{\n  "privateMarkers": {"open": "[[secret]]", "close": "[[/secret]]"}\n  "reclaim": "keep"\n}\n');
    assert.deepEqual(broken.config, DEFAULT_STORE_CONFIG);
    assert.match(broken.warning!, /config\.json:3 is not valid JSON/);
    assert.throws(
      () => storeConfigForWrite(broken.file),
      (e: unknown) =>
        e instanceof StoreConfigError && e.message.startsWith(`${broken.file}:3 is not valid JSON`) && /writes nothing/.test(e.message),
    );
    // The default pair never stands in for the person's own markers.
    assert.throws(() => storePrivateMarkers(broken.file), StoreConfigError);
    const list = load('["reclaim", "keep"]');
    assert.deepEqual(list.config, DEFAULT_STORE_CONFIG);
    assert.match(list.warning!, /config\.json: the top level: /);
    assert.throws(() => storeConfigForWrite(list.file), /is not a JSON object/);
    const markers = load('{"reclaim": "keep", "privateMarkers": {"open": "[[secret]]"}}');
    assert.throws(() => storeConfigForWrite(markers.file), /privateMarkers is not/);
    assert.equal(
      storeConfigForWrite(load('{"reclaim": "shred"}').file).config.reclaim,
      DEFAULT_STORE_CONFIG.reclaim,
      'another wrong field is named and left at its default',
    );
  });

  it('a store the person has not trusted keeps agentWrites and git.commit at their defaults, and says so once', () => {
    takeConfigNotices();
    const both = load('{"agentWrites": "direct", "git": {"commit": "apply", "dailyTags": true}, "reclaim": "keep"}', false);
    assert.deepEqual(both.config, { ...DEFAULT_STORE_CONFIG, reclaim: 'keep', git: { ...DEFAULT_STORE_CONFIG.git, dailyTags: true } });
    assert.deepEqual(both.ignored, ['"agentWrites": "direct"', '"git": {"commit": "apply"}']);
    loadStoreConfig(both.file);
    const notices = takeConfigNotices();
    assert.equal(notices.length, 1);
    assert.match(notices[0], /asks for "agentWrites": "direct" and "git": \{"commit": "apply"\}; Lore ignored them.*lore trust --root /);
    // Narrowing values need no trust.
    assert.equal(load('{"agentWrites": "pending", "git": {"commit": "off"}}', false).config.git.commit, 'off');
    const dir = path.dirname(both.file);
    setStoreTrust(dir, true);
    assert.ok(isStoreTrusted(dir));
    assert.equal(loadStoreConfig(both.file).config.agentWrites, 'direct');
    assert.equal(loadStoreConfig(both.file).config.git.commit, 'apply');
    setStoreTrust(dir, false);
    assert.equal(loadStoreConfig(both.file).config.agentWrites, 'pending');
    // VS Code's word for a trusted workspace: the variable it starts lore mcp with (by any path to the store).
    assert.ok(isStoreTrusted(dir, { ...process.env, LORE_TRUSTED_STORE: path.join(dir, '.') }));
    assert.ok(!isStoreTrusted(dir, { ...process.env, LORE_TRUSTED_STORE: makeTempDir('lore-other-') }));
  });

  it('reads the git section: commit mode, interval and daily tags; a wrong mode is named and left unset', () => {
    assert.deepEqual(DEFAULT_STORE_CONFIG.git, { intervalMinutes: 30, dailyTags: false });
    assert.deepEqual(load('{"git": {"commit": "interval", "intervalMinutes": 5, "dailyTags": true}}').config.git, {
      commit: 'interval',
      intervalMinutes: 5,
      dailyTags: true,
    });
    const wrong = load('{"git": {"commit": "always"}, "reclaim": "keep"}');
    assert.deepEqual(wrong.config, { ...DEFAULT_STORE_CONFIG, reclaim: 'keep' });
    assert.match(wrong.warning!, /git\.commit/);
  });

  it('reads which default sources a harvest takes: each on unless set to false; a wrong value is named', () => {
    assert.deepEqual(DEFAULT_STORE_CONFIG.sources, { inbox: true, claudeCode: true, codex: true, aider: true });
    assert.deepEqual(load('{"sources": {"codex": false, "aider": false}}').config.sources, {
      inbox: true,
      claudeCode: true,
      codex: false,
      aider: false,
    });
    const wrong = load('{"sources": {"codex": "no"}, "reclaim": "keep"}');
    assert.deepEqual(wrong.config, { ...DEFAULT_STORE_CONFIG, reclaim: 'keep' });
    assert.match(wrong.warning!, /sources\.codex/);
  });
});
