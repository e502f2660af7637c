/**
 * An agent's remember of a statement the store already holds answers with that item (its source
 * added when written directly), a forgotten statement is neither remembered nor accepted back, and
 * an accepted item the file came to say meanwhile gains its source instead of a second line.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changeItem, rememberItem, type AgentWriteContext } from '../../../src/core/store/items/agentWrites';
import { planRemember } from '../../../src/core/store/items/rememberItem';
import { itemId } from '../../../src/core/model/itemId';
import { decideReview, listReview } from '../../../src/core/store/items/reviewQueue';
import { ensureStoreLayout } from '../../../src/core/store/initStore';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

const TODAY = new Date('2026-11-27T10:00:00Z');
const direct: AgentWriteContext = { source: 'claude-code:s1', today: TODAY, mode: 'direct' };
const pending: AgentWriteContext = { source: 'claude-code:s1', today: TODAY };
const ESBUILD = '- the build uses esbuild [from: c1, 2026-11-20]';

function setup(): { paths: StorePaths; read: (f: string) => string } {
  const ws = makeTempDir();
  const paths = storePaths(path.join(ws, '.lore'), ws);
  ensureStoreLayout(paths);
  fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${ESBUILD}\n`);
  return { paths, read: (f) => fs.readFileSync(path.join(paths.root, f), 'utf8') };
}

describe('remember: the same statement is the same item', () => {
  it('written directly, the same statement adds the writer as a source and answers with the existing id', async () => {
    const { paths, read } = setup();
    const plan = planRemember(paths, { kind: 'fact', text: 'The build uses **esbuild**.' }, 'claude-code:s1', TODAY);
    assert.ok(plan.ok);
    assert.deepEqual(plan.existing, { id: itemId(ESBUILD), line: ESBUILD });
    const result = await rememberItem(paths, { kind: 'fact', statement: 'The build uses **esbuild**.' }, direct);
    assert.equal(result.status, 'recorded');
    assert.equal(result.id, itemId(ESBUILD));
    assert.equal(read('facts.md'), '# Facts\n\n- the build uses esbuild [from: c1, 2026-11-20; claude-code:s1, 2026-11-27]\n');
    const again = await rememberItem(paths, { kind: 'fact', statement: 'the build uses esbuild' }, direct);
    assert.equal(again.status, 'unchanged');
    assert.equal(again.id, itemId(ESBUILD));
  });

  it('waiting for review, the same statement writes nothing and names the existing item', async () => {
    const { paths, read } = setup();
    const result = await rememberItem(paths, { kind: 'fact', statement: 'The build uses esbuild.' }, pending);
    assert.equal(result.status, 'unchanged');
    assert.equal(result.id, itemId(ESBUILD));
    assert.equal(read('facts.md'), `# Facts\n\n${ESBUILD}\n`);
    assert.deepEqual(listReview(paths), []);
  });

  it('a forgotten statement is not remembered again, nor accepted back from the queue', async () => {
    const { paths, read } = setup();
    const queued = await rememberItem(paths, { kind: 'fact', statement: 'The build uses esbuild 0.24' }, pending);
    assert.equal(queued.status, 'pending');
    // Written by another agent, then forgotten for good by id.
    const other = await rememberItem(paths, { kind: 'fact', statement: 'The build uses esbuild 0.24' }, { ...direct, source: 'other' });
    assert.equal(other.status, 'recorded');
    assert.equal((await changeItem(paths, { op: 'forget', id: other.id! }, direct)).status, 'recorded');
    assert.doesNotMatch(read('facts.md'), /0\.24/);

    const back = await rememberItem(paths, { kind: 'fact', statement: 'the build uses esbuild 0.24.' }, direct);
    assert.equal(back.status, 'refused');
    assert.match(back.reason!, /forgot this statement for good/);
    assert.equal(planRemember(paths, { kind: 'fact', text: 'The build uses esbuild 0.24' }, 'x', TODAY).ok, false);

    const update = await changeItem(paths, { op: 'update', id: itemId(ESBUILD), text: 'The build uses esbuild 0.24' }, direct);
    assert.equal(update.status, 'refused', 'an update does not bring the forgotten text back either');
    assert.match(read('facts.md'), /the build uses esbuild \[from: c1/);

    const decided = await decideReview(paths, 'accept', 'all');
    assert.equal(decided.failed.length, 1);
    assert.match(decided.failed[0].reason, /forgot this statement for good/);
    assert.doesNotMatch(read('facts.md'), /0\.24/);
  });

  it('an accepted item the file came to say meanwhile adds its source to that line', async () => {
    const { paths, read } = setup();
    assert.equal((await rememberItem(paths, { kind: 'fact', statement: 'Logs go to stderr.' }, pending)).status, 'pending');
    assert.equal(
      (await rememberItem(paths, { kind: 'fact', statement: 'logs go to stderr' }, { ...direct, source: 'c9' })).status,
      'recorded',
    );
    const decided = await decideReview(paths, 'accept', 'all');
    assert.deepEqual(decided.failed, []);
    assert.equal(read('facts.md'), `# Facts\n\n${ESBUILD}\n- logs go to stderr [from: c9, 2026-11-27; claude-code:s1, 2026-11-27]\n`);
  });
});
