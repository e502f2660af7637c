/**
 * A harvest writes each statement once: the same statement from several conversations of one run
 * is one line with every source, one already in the store gains the new source, and a forgotten
 * statement or conversation does not come back by either way.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { runHarvest } from '../../../src/core/services/harvest/runHarvest';
import { createProvider } from '../../../src/core/services/providers/providerRegistry';
import { initStore } from '../../../src/core/store/initStore';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { listItems } from '../../../src/core/model/categoryFile';
import { parseNoteFile } from '../../../src/core/model/noteFile';
import { transcript } from '../../helpers/cli';
import { makeTempDir } from '../../helpers/paths';

function store(): { ws: string; paths: StorePaths } {
  const ws = makeTempDir('lore-samestatement-');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
  const paths = storePaths(path.join(ws, '.lore'), ws);
  initStore(paths, defaultPromptsDir());
  return { ws, paths };
}

async function harvest(paths: StorePaths, mode: 'preview' | 'apply' = 'apply') {
  return runHarvest({ paths, sources: [paths.inbox], mode, provider: createProvider('rules'), reclaim: 'keep' });
}

function items(paths: StorePaths, file: string): string[] {
  const text = fs.readFileSync(path.join(paths.root, file), 'utf8');
  return listItems(file.startsWith('files/') ? parseNoteFile(text).body : text).map((i) => i.raw);
}

describe('harvest: the same statement is one line with every source', () => {
  it('folds a statement from eight conversations into one line, earliest first, in the preview and the apply', async () => {
    const { paths } = store();
    // Written in an order that is not the order of their dates.
    const days = [27, 21, 24, 22, 28, 23, 25, 26];
    days.forEach((day, i) => {
      const id = `c${i}`;
      const text = i % 2 ? 'Fact: The build uses esbuild.' : 'Fact: the **build** uses esbuild';
      fs.writeFileSync(
        path.join(paths.inbox, `${id}.md`),
        transcript(id, `${text}\nFact: only ${id} says this.`, `2026-11-${day}T10:00:00Z`),
      );
    });
    const preview = await harvest(paths, 'preview');
    assert.equal(preview.plan!.duplicates?.folded, 7);
    assert.equal(preview.plan!.items.facts, 9, 'one line for the shared statement, one for each own fact');
    const applied = await harvest(paths);
    const shared = items(paths, 'facts.md').filter((l) => /esbuild/i.test(l));
    const order = [...days.entries()].sort((a, b) => a[1] - b[1]).map(([i, day]) => `c${i}, 2026-11-${day}`);
    assert.deepEqual(shared, [`- The build uses esbuild. [from: ${order.join('; ')}]`]);
    assert.equal(applied.plan!.duplicates?.folded, 7);
    assert.equal(items(paths, 'facts.md').length, 9);
  });

  it('adds a later conversation as a source of the line already there, and a harvest of it again changes nothing', async () => {
    const { paths } = store();
    fs.writeFileSync(path.join(paths.inbox, 'a.md'), transcript('a', 'Fact: logs go to stderr.', '2026-11-20T10:00:00Z'));
    await harvest(paths);
    fs.writeFileSync(path.join(paths.inbox, 'b.md'), transcript('b', 'Fact: Logs go to stderr', '2026-11-24T10:00:00Z'));
    const second = await harvest(paths);
    assert.deepEqual(items(paths, 'facts.md'), ['- logs go to stderr. [from: a, 2026-11-20; b, 2026-11-24]']);
    assert.equal(second.plan!.duplicates?.merged, 1);
    assert.equal(second.plan!.relations?.merged[0].same, 'statement');
    // The same conversation, grown (new content, same session id): its statement is already a source.
    fs.writeFileSync(path.join(paths.inbox, 'b.md'), transcript('b', 'Fact: Logs go to stderr\nFact: more.', '2026-11-24T10:00:00Z'));
    const third = await harvest(paths);
    assert.equal(third.plan!.duplicates?.merged ?? 0, 0);
    assert.deepEqual(items(paths, 'facts.md'), [
      '- logs go to stderr. [from: a, 2026-11-20; b, 2026-11-24]',
      '- more. [from: b, 2026-11-24]',
    ]);
  });

  it('folds notes on one file, and adds a source to a note already written', async () => {
    const { paths } = store();
    fs.writeFileSync(path.join(paths.inbox, 'a.md'), transcript('a', 'Note for src/app.ts: exports app.', '2026-11-20T10:00:00Z'));
    fs.writeFileSync(path.join(paths.inbox, 'b.md'), transcript('b', 'Note for src/app.ts: Exports app', '2026-11-21T10:00:00Z'));
    await harvest(paths);
    const [note] = fs.readdirSync(paths.files).filter((n) => n.endsWith('.md'));
    assert.deepEqual(items(paths, `files/${note}`), ['- exports app. [from: a, 2026-11-20; b, 2026-11-21]']);
    fs.writeFileSync(path.join(paths.inbox, 'c.md'), transcript('c', 'Note for src/app.ts: exports app', '2026-11-22T10:00:00Z'));
    await harvest(paths);
    assert.deepEqual(items(paths, `files/${note}`), ['- exports app. [from: a, 2026-11-20; b, 2026-11-21; c, 2026-11-22]']);
  });
});
