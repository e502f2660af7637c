import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { humanTime } from '../../src/core/model/format';
import { itemId } from '../../src/core/model/itemId';
import type { OpenProvenanceArgs } from '../../src/shared/protocol';
import { gitIn, initRepo } from '../helpers/gitRepo';
import { eventually, makeWorkspace } from './serverFixtures';

function hoverText(hover: unknown): string {
  return (hover as { contents?: { value?: string } } | null)?.contents?.value ?? '';
}

describe('language server: the hover on a knowledge item', function () {
  this.timeout(60_000);

  it('lists every source of a merged line, each linking to its conversation at the line, escaped', async () => {
    const w = makeWorkspace();
    const decisions = path.join(w.paths.root, 'decisions.md');
    const line = '- use esbuild [from: ses-1, 2026-11-20; x)(command:workbench.action.quit, 2026-11-24]';
    fs.writeFileSync(decisions, `# Decisions\n\n${line}\n- plain line without provenance\n`);
    const client = await w.start();
    try {
      const uri = await client.open(decisions, undefined, 'markdown');
      const value = hoverText(await client.hover(uri, 2, 4));
      const links = [...value.matchAll(/\[([^\]]*)\]\((command:[^?)]*)\?([^)]*)\)/g)];
      assert.deepEqual(
        links.map((m) => m[2]),
        ['command:lore.openProvenance', 'command:lore.openProvenance'],
        value,
      );
      const args = links.map((m) => (JSON.parse(decodeURIComponent(m[3])) as OpenProvenanceArgs[])[0]);
      assert.deepEqual(args, [
        { source: 'ses-1', date: '2026-11-20', noteFile: decisions, line: 2 },
        { source: 'x)(command:workbench.action.quit', date: '2026-11-24', noteFile: decisions, line: 2 },
      ]);
      // The date as people say it (humanTime, tested on its own), after the escaped source.
      assert.equal(links[1][1], `x\\)\\(command\\:workbench\\.action\\.quit, ${humanTime('2026-11-24')}`, 'the source is text, not markup');
      assert.match(value, /From 2 conversations: /);
      // A hand-written line has no sources to link.
      assert.doesNotMatch(hoverText(await client.hover(uri, 3, 4)), /From|command:/);
    } finally {
      await client.stop();
    }
  });

  it('says that an item of the personal layer is personal, and tells no git history of it', async () => {
    const w = makeWorkspace();
    const line = '- my dev server runs on port 4137 [from: ses-1, 2026-11-20]';
    fs.mkdirSync(path.join(w.paths.root, 'personal'), { recursive: true });
    const facts = path.join(w.paths.root, 'personal', 'facts.md');
    fs.writeFileSync(facts, `# Facts\n\n${line}\n`);
    const client = await w.start();
    try {
      const uri = await client.open(facts, undefined, 'markdown');
      const value = hoverText(await client.hover(uri, 2, 4));
      assert.match(value, new RegExp(`item \`${itemId(line)}\``), value);
      assert.match(value, /Personal: yours only/);
      assert.match(value, /From conversation: /);
    } finally {
      await client.stop();
    }
  });

  it('says when the item was learned and how often it changed, from git', async () => {
    const w = makeWorkspace();
    const facts = path.join(w.paths.root, 'facts.md');
    const line = '- alpha is the cache [from: ses-1, 2026-11-20]';
    fs.writeFileSync(facts, `# Facts\n\n${line}\n- beta [from: ses-1, 2026-11-20]\n`);
    initRepo(w.ws);
    gitIn(w.ws, 'commit', '-q', '--allow-empty', '-m', 'unrelated');
    // Case is folded in the id: the same item, reworded, in a commit whose subject tries markup.
    fs.writeFileSync(facts, `# Facts\n\n${line.replace('alpha', 'Alpha')}\n- beta [from: ses-1, 2026-11-20]\n`);
    gitIn(w.ws, 'commit', '-q', '-am', 'capitalise [x](command:workbench.action.quit)', '--author', 'Ben <ben@example.com>');
    const client = await w.start();
    try {
      const uri = await client.open(facts, undefined, 'markdown');
      const value = hoverText(await client.hover(uri, 2, 4));
      const id = itemId(line);
      assert.match(value, new RegExp(`^\\*\\*Lore\\*\\* · item \`${id}\``));
      assert.match(value, /Learned \d{4}-\d{2}-\d{2} from conversation ses\\-1 — the person\\'s first commit \([0-9a-f]{7}\)/);
      // Who added it: the author of the commit that first held the line, not of the later rewording.
      assert.match(value, /\n\nAdded by Test Person, \d{4}\\-\d{2}\\-\d{2}\n\nLearned/);
      assert.match(
        value,
        /Changed 1 time since, last \d{4}-\d{2}-\d{2} — capitalise \\\[x\\\]\\\(command\\:workbench\\\.action\\\.quit\\\) \([0-9a-f]{7}\)/,
      );
      // The other item never changed; the heading is no item.
      assert.doesNotMatch(hoverText(await client.hover(uri, 3, 4)), /Changed/);
      assert.equal(await client.hover(uri, 0, 2), null);
      // An edit on disk, not committed: the hover says so (a new file version, asked again).
      fs.appendFileSync(facts, '- gamma [from: ses-2, 2026-11-21]\n');
      await client.change(uri, fs.readFileSync(facts, 'utf8'));
      const uncommitted = hoverText(await client.hover(uri, 4, 4));
      assert.match(uncommitted, /\*Not committed yet\.\*/);
      assert.doesNotMatch(uncommitted, /Added by/);
    } finally {
      await client.stop();
    }
  });

  it('shows who added each note of a file, from git, escaped, and nothing for a note not committed yet', async () => {
    const w = makeWorkspace();
    w.write('src/app.ts', 'export const app = 1;\n');
    w.note('src/app.ts', ['- the app starts here [from: ses-1, 2026-11-20]']);
    initRepo(w.ws);
    // A teammate's commit adds a second note; the name tries markup, which the hover must show as text.
    const noteFile = w.note('src/app.ts', ['- the port is 8080 [from: ses-2, 2026-11-21]']);
    gitIn(w.ws, 'add', '-A');
    gitIn(w.ws, 'commit', '-q', '-m', 'teammate note', '--author', 'Ana [x](command:workbench.action.quit) <ana@example.com>');
    const client = await w.start();
    try {
      const uri = await client.open(path.join(w.ws, 'src/app.ts'));
      const value = hoverText(await client.hover(uri, 0, 3));
      assert.match(value, /the app starts here.* — added by Test Person, \d{4}\\-\d{2}\\-\d{2} ·/);
      assert.match(
        value,
        /the port is 8080.* — added by Ana \\\[x\\\]\\\(command\\:workbench\\\.action\\\.quit\\\), \d{4}\\-\d{2}\\-\d{2} ·/,
      );
      assert.doesNotMatch(value, /command:workbench/, 'the name is text, not a link');
      // A third note, written but not committed: no author (the hover is asked again for the new version).
      fs.appendFileSync(noteFile, '- uncommitted note [from: ses-3, 2026-11-22]\n');
      const later = await eventually(async () => {
        const v = hoverText(await client.hover(uri, 0, 3));
        return /uncommitted note/.test(v) ? v : undefined;
      });
      assert.match(later, /the port is 8080.* — added by Ana/);
      const line = later.split('\n').find((l) => l.includes('uncommitted note'))!;
      assert.doesNotMatch(line, /added by/);
    } finally {
      await client.stop();
    }
  });

  it('names a source conversation by the title the ledger keeps for it, escaped, its id when there is none', async () => {
    const w = makeWorkspace();
    const facts = path.join(w.paths.root, 'facts.md');
    fs.writeFileSync(facts, '# Facts\n\n- alpha [from: ses-1, 2026-11-20; ses-2, 2026-11-21]\n');
    const entry = (id: string, title?: string) => ({
      path: `/x/${id}.jsonl`,
      status: 'harvested',
      at: '2026-11-21T10:00:00.000Z',
      deleted: false,
      id,
      title,
    });
    fs.writeFileSync(
      path.join(w.paths.root, 'ledger.json'),
      JSON.stringify({ entries: { ['a'.repeat(64)]: entry('ses-1', 'Why *does* the [cart] round?'), ['b'.repeat(64)]: entry('ses-2') } }),
    );
    const client = await w.start();
    try {
      const uri = await client.open(facts, undefined, 'markdown');
      const value = hoverText(await client.hover(uri, 2, 4));
      assert.match(value, /From 2 conversations: \[Why \\\*does\\\* the \\\[cart\\\] round\\\?, 20 Nov( 2026)?\]\(command:/);
      assert.match(value, / · \[ses\\-2, 21 Nov( 2026)?\]\(command:/);
    } finally {
      await client.stop();
    }
  });

  it('names the item only, without git', async () => {
    const w = makeWorkspace();
    const facts = path.join(w.paths.root, 'facts.md');
    fs.writeFileSync(facts, '# Facts\n\n- alpha [from: ses-1, 2026-11-20]\n');
    const client = await w.start();
    try {
      const uri = await client.open(facts, undefined, 'markdown');
      const value = hoverText(await client.hover(uri, 2, 4));
      assert.ok(
        value.startsWith(`**Lore** · item \`${itemId('- alpha [from: ses-1, 2026-11-20]')}\`\n\nFrom conversation: [ses\\-1, 20 Nov`),
        value,
      );
      assert.match(value, /^From conversation: \[ses\\-1, 20 Nov( 2026)?\]\(command:lore\.openProvenance\?/m);
      assert.doesNotMatch(value, /Learned|Changed|Added by/);
    } finally {
      await client.stop();
    }
  });
});
