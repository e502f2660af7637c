import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifyConversations } from '../../../src/core/services/harvest/classify';
import { KnownFiles } from '../../../src/core/services/harvest/knownFiles';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

const sha = (data: string) => createHash('sha256').update(data).digest('hex');
/** A moment after every file written so far: what a harvest that read them would pass. */
const readNow = () => Date.now() + 1000;

describe('known files (sha256 of unchanged files outside the inbox, by stat)', () => {
  function setup() {
    const dir = makeTempDir();
    const paths = storePaths(path.join(dir, '.lore'));
    const outside = path.join(dir, 'sessions', 's1.jsonl');
    const inInbox = path.join(paths.inbox, 'c1.md');
    fs.mkdirSync(path.dirname(outside), { recursive: true });
    fs.mkdirSync(paths.inbox, { recursive: true });
    fs.writeFileSync(outside, 'outside text');
    fs.writeFileSync(inInbox, 'inbox text');
    return { paths, outside, inInbox };
  }

  it('trusts a remembered hash while the stat matches, so the file is not read again', () => {
    const { paths, outside } = setup();
    // Remember a hash that is not the file's: only a classification that trusted the stat reports it.
    const remembered = sha('what the file held when it was harvested');
    const known = KnownFiles.open(paths);
    known.remember(outside, remembered, readNow());
    assert.equal(known.save(), undefined);
    const ledger = { entries: { [remembered]: { path: outside, status: 'harvested' as const, at: '', deleted: false } } };
    const [c] = classifyConversations([{ path: outside, inInbox: false }], ledger, { knownFiles: KnownFiles.open(paths) });
    assert.equal(c.class, 'harvested');
    assert.equal(c.sha256, remembered);
  });

  it('reads a file again once it changed, or when the ledger does not prove the remembered hash', () => {
    const { paths, outside } = setup();
    const known = KnownFiles.open(paths);
    known.remember(outside, sha('outside text'), readNow());
    known.save();
    const proven = { entries: { [sha('outside text')]: { path: outside, status: 'harvested' as const, at: '', deleted: false } } };
    fs.appendFileSync(outside, '\nmore turns');
    const [changed] = classifyConversations([{ path: outside, inInbox: false }], proven, { knownFiles: KnownFiles.open(paths) });
    assert.equal(changed.sha256, sha('outside text\nmore turns'));
    assert.equal(changed.class, 'harvest');

    const unproven = {
      entries: { [sha('outside text\nmore turns')]: { path: outside, status: 'harvest-failed' as const, at: '', deleted: false } },
    };
    const again = KnownFiles.open(paths);
    again.remember(outside, sha('outside text\nmore turns'), readNow());
    const [failed] = classifyConversations([{ path: outside, inInbox: false }], unproven, { knownFiles: again });
    assert.equal(failed.class, 'retry');
  });

  it('never trusts it for an inbox file (reclaimed on the strength of its hash)', () => {
    const { paths, inInbox } = setup();
    const known = KnownFiles.open(paths);
    const remembered = sha('something else');
    known.remember(inInbox, remembered, readNow());
    const ledger = { entries: { [remembered]: { path: inInbox, status: 'harvested' as const, at: '', deleted: false } } };
    const [c] = classifyConversations([{ path: inInbox, inInbox: true }], ledger, { knownFiles: known });
    assert.equal(c.sha256, sha('inbox text'));
    assert.equal(c.class, 'harvest');
  });

  it('does not remember a file written after the harvest began reading, nor one that vanished', () => {
    const { paths, outside } = setup();
    const known = KnownFiles.open(paths);
    known.remember(outside, sha('outside text'), Date.now() - 60_000);
    known.remember(path.join(path.dirname(outside), 'gone.jsonl'), sha('x'), readNow());
    known.save();
    const saved = JSON.parse(fs.readFileSync(path.join(paths.cache, 'known-files.json'), 'utf8'));
    assert.deepEqual(Object.keys(saved.files), []);
  });

  it('treats a damaged cache as empty and drops entries of the wrong shape', () => {
    const { paths, outside } = setup();
    fs.mkdirSync(paths.cache, { recursive: true });
    const file = path.join(paths.cache, 'known-files.json');
    fs.writeFileSync(file, '{"version":1,"files":{');
    const stat = fs.statSync(outside);
    assert.equal(KnownFiles.open(paths).lookup(outside, stat), undefined);
    fs.writeFileSync(
      file,
      JSON.stringify({ version: 1, files: { [outside]: [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, 'not a sha'] } }),
    );
    assert.equal(KnownFiles.open(paths).lookup(outside, stat), undefined);
    fs.writeFileSync(
      file,
      JSON.stringify({ version: 1, files: { [outside]: [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, sha('outside text')] } }),
    );
    assert.equal(KnownFiles.open(paths).lookup(outside, stat), sha('outside text'));
  });
});
