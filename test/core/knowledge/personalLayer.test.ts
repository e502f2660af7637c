/**
 * The personal layer on a real store: an agent's personal write waits in the layer's own
 * review.md, a person accepts a shared queue item as personal, items move between the layers
 * keeping their id and provenance, and agents get personal items (context, get_item, forget by
 * id) while digest.md, review.md, the journal and the store's .gitignore keep them out of what is
 * committed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changeItem, rememberItem, type AgentWriteContext } from '../../../src/core/store/items/agentWrites';
import { findItemsById } from '../../../src/core/store/items/itemLocator';
import { readItem } from '../../../src/core/store/items/itemReport';
import { moveItem } from '../../../src/core/store/items/moveItem';
import { decideReview, listReview } from '../../../src/core/store/items/reviewQueue';
import { ensureStoreLayout } from '../../../src/core/store/initStore';
import { regenerateDigest } from '../../../src/core/store/digest';
import { loadContextInputs } from '../../../src/core/services/context/loadContextInputs';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { itemId } from '../../../src/core/model/itemId';
import { makeTempDir } from '../../helpers/paths';

const TODAY = new Date('2026-11-27T10:00:00Z');
const pending: AgentWriteContext = { source: 'claude-code:s1', today: TODAY };
const direct: AgentWriteContext = { ...pending, mode: 'direct' };

const JENKINS = '- deploys go through Jenkins [from: c1, 2026-11-20]';
const VIM = 'I use vim keybindings and a dark theme';

function setup(): { paths: StorePaths; read: (f: string) => string | undefined } {
  const ws = makeTempDir();
  const paths = storePaths(path.join(ws, '.lore'), ws);
  ensureStoreLayout(paths);
  fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${JENKINS}\n`);
  regenerateDigest(paths);
  const read = (f: string) => (fs.existsSync(path.join(paths.root, f)) ? fs.readFileSync(path.join(paths.root, f), 'utf8') : undefined);
  return { paths, read };
}

/** Every file of the store outside personal/ (what git could commit), joined. */
function sharedText(paths: StorePaths): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (full === paths.personal) continue;
      if (entry.isDirectory()) walk(full);
      else out.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(paths.root);
  return out.join('\n');
}

describe('personal layer', () => {
  it('an agent remembers a personal fact: it waits in the personal review.md, and once accepted agents get it, no committed file holds it', async () => {
    const { paths, read } = setup();
    const queued = await rememberItem(paths, { kind: 'fact', statement: VIM, scope: 'personal' }, pending);
    assert.equal(queued.status, 'pending');
    assert.equal(queued.file, 'personal/facts.md');
    assert.ok(read('personal/review.md')?.includes(VIM));
    assert.ok(!sharedText(paths).includes(VIM), 'the queued personal item is in a shared file');
    const items = listReview(paths);
    const mine = items.find((i) => i.text.includes(VIM));
    assert.ok(mine, 'the personal queue is listed');
    assert.equal(mine.target.file, 'personal/facts.md');
    const decided = await decideReview(paths, 'accept', [mine.id]);
    assert.equal(decided.decided.length, 1);
    assert.deepEqual(decided.failed, []);
    assert.ok(read('personal/facts.md')?.includes(VIM));
    assert.ok(!read('personal/review.md')?.includes(`${VIM} [`), 'the queue line is gone');
    assert.ok(!sharedText(paths).includes(VIM), 'a committed file holds the personal item');
    assert.ok(read('.gitignore')?.split('\n').includes('personal/'));
    const context = loadContextInputs(paths);
    assert.ok(context.digest?.includes('deploys go through Jenkins'), 'the shared digest is in the context');
    assert.ok(context.digest?.includes(VIM), 'the personal item is in the context');
    assert.ok(context.digest!.indexOf('Jenkins') < context.digest!.indexOf(VIM), 'shared first, personal after');
    assert.ok(!read('digest.md')?.includes(VIM));
  });

  it('a person accepts a shared queue item as personal; it is found by id, reported as personal, and forgotten in its layer', async () => {
    const { paths, read } = setup();
    const queued = await rememberItem(paths, { kind: 'fact', statement: VIM }, pending);
    assert.ok(read('review.md')?.includes(VIM), 'a shared write waits in review.md');
    const item = listReview(paths).find((i) => i.text.includes(VIM))!;
    const decided = await decideReview(paths, 'accept', [item.id], { to: 'personal' });
    assert.equal(decided.decided.length, 1);
    assert.ok(decided.written.includes('personal/facts.md') && decided.written.includes('review.md'), decided.written.join());
    assert.ok(
      decided.written.every((f) => !path.isAbsolute(f)),
      'written files are named from the store',
    );
    assert.ok(!sharedText(paths).includes(VIM), 'accepted personal, but a committed file holds it');
    const places = findItemsById(paths, queued.id!);
    assert.deepEqual(
      places.map((p) => [p.file, p.layer]),
      [['personal/facts.md', 'personal']],
    );
    const report = readItem(paths, queued.id!);
    assert.equal(report.layer, 'personal');
    assert.equal(report.file, 'personal/facts.md');
    const forgot = await changeItem(paths, { op: 'forget', id: queued.id! }, direct);
    assert.equal(forgot.status, 'recorded');
    assert.ok(!read('personal/facts.md')?.includes(VIM));
    assert.ok(!sharedText(paths).includes('vim keybindings'), "the forgotten personal item's tombstone went to a shared file");
    assert.ok(read('personal/ledger.json')?.includes(queued.id!), 'the tombstone is kept in the personal layer');
  });

  it('moving an item between the layers keeps its id and provenance, and takes it out of digest.md and back', async () => {
    const { paths, read } = setup();
    const id = itemId(JENKINS);
    const out = await moveItem(paths, id, 'personal');
    assert.ok(out.moved, JSON.stringify(out));
    assert.equal(out.to, 'personal/facts.md');
    assert.ok(!read('facts.md')?.includes('Jenkins'));
    assert.ok(read('personal/facts.md')?.includes(JENKINS), 'the line moved as it was, provenance included');
    assert.ok(!read('digest.md')?.includes('Jenkins'), 'digest.md holds only shared knowledge');
    assert.ok(loadContextInputs(paths).digest?.includes('Jenkins'), 'agents still get it');
    assert.equal(findItemsById(paths, id)[0]?.layer, 'personal');
    const again = await moveItem(paths, id, 'personal');
    assert.ok(!again.moved && again.unchanged);
    const back = await moveItem(paths, id, 'shared');
    assert.ok(back.moved);
    assert.ok(read('facts.md')?.includes(JENKINS));
    assert.ok(!read('personal/facts.md')?.includes('Jenkins'));
    assert.ok(read('digest.md')?.includes('Jenkins'));
    assert.deepEqual(
      findItemsById(paths, id).map((p) => p.layer),
      ['shared'],
    );
  });

  it('an item a person wrapped over several lines moves whole, once, in a CRLF file', async () => {
    const { paths, read } = setup();
    const first = '- releases are cut on Thursdays';
    fs.writeFileSync(
      path.join(paths.root, 'facts.md'),
      `# Facts\r\n\r\n${first}\r\n  after the freeze [from: c3, 2026-11-21]\r\n${JENKINS}\r\n`,
    );
    const id = findItemsById(paths, itemId(`${first} after the freeze [from: c3, 2026-11-21]`))[0]?.id;
    assert.ok(id, 'the wrapped item is found by the id of its joined text');
    const out = await moveItem(paths, id, 'personal');
    assert.ok(out.moved, JSON.stringify(out));
    assert.equal(read('facts.md'), `# Facts\r\n\r\n${JENKINS}\r\n`);
    assert.equal(read('personal/facts.md'), `# Facts\n\n${first}\n  after the freeze [from: c3, 2026-11-21]\n`);
    assert.equal(findItemsById(paths, id)[0]?.layer, 'personal', 'the same id');
  });

  it('a personal note on a file is refused: notes on files are shared knowledge', async () => {
    const { paths } = setup();
    const result = await rememberItem(
      paths,
      { kind: 'note', statement: 'my local port is 4000', path: 'src/app.ts', scope: 'personal' },
      direct,
    );
    assert.equal(result.status, 'refused');
  });

  it('an existing store gets personal/ appended to its .gitignore, the lines a person wrote kept', async () => {
    const { paths, read } = setup();
    fs.writeFileSync(path.join(paths.root, '.gitignore'), '# mine\nscratch/');
    await rememberItem(paths, { kind: 'fact', statement: VIM, scope: 'personal' }, direct);
    assert.equal(read('.gitignore'), '# mine\nscratch/\npersonal/\n');
    await rememberItem(paths, { kind: 'fact', statement: 'I run tests with --watch', scope: 'personal' }, direct);
    assert.equal(read('.gitignore'), '# mine\nscratch/\npersonal/\n', 'appended once');
    assert.equal(read('personal/.gitignore')?.includes('*'), true);
  });
});
