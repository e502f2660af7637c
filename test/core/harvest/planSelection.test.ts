/**
 * Reviewing a harvest item by item: rejected lines and reclaims leave the plan, what remains is
 * applied exactly as shown, and the digest follows what is really written.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyPreviewedHarvest } from '../../../src/core/services/harvest/applyPreviewed';
import { planItems, withoutItems } from '../../../src/core/services/harvest/planSelection';
import { defaultPromptsDir } from '../../../src/core/services/harvest/prompts';
import { runHarvest } from '../../../src/core/services/harvest/runHarvest';
import { createProvider } from '../../../src/core/services/providers/providerRegistry';
import { initStore } from '../../../src/core/store/initStore';
import { storePaths } from '../../../src/core/store/storePaths';
import { transcript } from '../../helpers/cli';
import { makeTempDir } from '../../helpers/paths';

describe('planSelection: accept or reject single items before Apply', function () {
  async function preview() {
    const ws = makeTempDir('lore-planselection-');
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
    const paths = storePaths(path.join(ws, '.lore'), ws);
    initStore(paths, defaultPromptsDir());
    fs.writeFileSync(
      path.join(paths.inbox, 'a.md'),
      transcript('a', 'Fact: keep this fact.\nFact: reject this fact.\nTODO: reject this task.\nNote for src/app.ts: keep this note.'),
    );
    fs.writeFileSync(path.join(paths.inbox, 'b.md'), transcript('b', 'Decision: keep this decision — because.', '2026-11-21T10:00:00Z'));
    const report = await runHarvest({
      paths,
      sources: [paths.inbox],
      mode: 'preview',
      provider: createProvider('rules'),
      reclaim: 'delete',
    });
    return { paths, report };
  }

  it('lists every new line and every reclaim as an item', async () => {
    const { paths, report } = await preview();
    const items = planItems(paths, report.plan!);
    const lines = items.flatMap((i) => (i.kind === 'line' ? [[i.file, i.category, i.line.replace(/ \[from:.*$/, '')]] : []));
    assert.deepEqual(
      lines.map(([file, category]) => `${file} ${category}`).sort(),
      ['decisions.md decisions', 'facts.md facts', 'facts.md facts', expectNoteFile(lines), 'tasks.md tasks_open'].sort(),
    );
    assert.deepEqual(
      items.filter((i) => i.kind === 'reclaim').map((i) => i.kind === 'reclaim' && [i.path, i.action]),
      [
        ['inbox/a.md', 'delete'],
        ['inbox/b.md', 'delete'],
      ],
    );
  });

  it('applies only the accepted items; a rejected reclaim keeps its conversation; the digest shows what was written', async () => {
    const { paths, report } = await preview();
    const plan = report.plan!;
    const items = planItems(paths, plan);
    const rejected = items.filter(
      (i) => (i.kind === 'line' && /reject this/.test(i.line)) || (i.kind === 'reclaim' && i.path === 'inbox/b.md'),
    );
    assert.equal(rejected.length, 3);
    const chosen = withoutItems(
      paths,
      plan,
      rejected.map((i) => i.id),
    );
    assert.notEqual(chosen, plan);
    assert.ok(plan.changes.find((c) => c.file === 'facts.md')!.after!.includes('reject this fact'), 'the plan given is not changed');
    assert.equal(chosen.items.facts, plan.items.facts - 1);
    assert.equal(chosen.items.tasks_open, 0);
    assert.ok(!chosen.changes.some((c) => c.file === 'tasks.md'), 'a file left with no new line leaves the plan');

    const applied = await applyPreviewedHarvest(paths, { ...report, plan: chosen });
    assert.equal(applied.stale, undefined);
    const facts = fs.readFileSync(path.join(paths.root, 'facts.md'), 'utf8');
    assert.match(facts, /keep this fact/);
    assert.doesNotMatch(facts, /reject this/);
    assert.doesNotMatch(fs.readFileSync(path.join(paths.root, 'tasks.md'), 'utf8'), /reject this task/);
    assert.match(fs.readFileSync(path.join(paths.root, 'decisions.md'), 'utf8'), /keep this decision/);
    const digest = fs.readFileSync(paths.digest, 'utf8');
    assert.match(digest, /keep this fact/);
    assert.doesNotMatch(digest, /reject this/);
    assert.equal(digest, chosen.changes.find((c) => c.file === 'digest.md')!.after, 'the digest is written as previewed');
    assert.ok(!fs.existsSync(path.join(paths.inbox, 'a.md')), 'an accepted reclaim happens');
    assert.ok(fs.existsSync(path.join(paths.inbox, 'b.md')), 'a rejected reclaim keeps the conversation');
    const ledger = JSON.parse(fs.readFileSync(paths.ledger, 'utf8'));
    const b = Object.values<any>(ledger.entries).find((e) => e.path.endsWith('b.md'));
    assert.equal(b.status, 'harvested');
    assert.equal(b.deleted, false);
  });
});

/** The note file's store-relative name carries device and inode numbers. */
function expectNoteFile(lines: string[][]): string {
  const note = lines.find(([file]) => file.startsWith('files/'));
  assert.ok(note, 'a note line is an item');
  return `${note[0]} files`;
}
