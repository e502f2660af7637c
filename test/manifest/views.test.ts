/**
 * What a newcomer sees of Lore (issue 30): one view with one next step, a short palette, and the
 * other views as they fill. VS Code evaluates the `when` clauses; this reads them from package.json
 * as VS Code would for a person with a folder open and no store yet.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SHOW_ALL_VIEWS_SETTING, VIEW_KEYS } from '../../src/extension/views/viewKeys';
import { REPO_ROOT } from '../helpers/paths';
import { whenHolds, type Context } from '../helpers/whenClause';

interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string }>;
    menus: { commandPalette: Array<{ command: string; when?: string }> };
    views: { lore: Array<{ id: string; name: string; when?: string }> };
    viewsWelcome: Array<{ view: string; contents: string; when?: string }>;
    configuration: { properties: Record<string, { type: string; default?: unknown }> };
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const { views, viewsWelcome, commands, menus } = manifest.contributes;

/** A folder is open and holds no store: every view key unset, as before the first harvest. */
const NEWCOMER: Context = { 'lore.storeExists': false, 'lore.noStore': false };
/** A store with knowledge, harvest history and one held item. */
const IN_USE: Context = {
  ...NEWCOMER,
  'lore.storeExists': true,
  'lore.hasKnowledge': true,
  'lore.hasHarvested': true,
  'lore.hasHeldItems': true,
};

/** Words a person reads: link targets left out, a link's text counted. */
function words(contents: string): number {
  return contents
    .replace(/\]\([^)]*\)/g, ']')
    .split(/\s+/)
    .filter((w) => /\w/.test(w)).length;
}

function shownViews(context: Context): string[] {
  return views.lore.filter((v) => whenHolds(v.when, context)).map((v) => v.id);
}

function paletteFor(context: Context): string[] {
  const when = new Map(menus.commandPalette.map((e) => [e.command, e.when]));
  return commands.filter((c) => whenHolds(when.get(c.command), context)).map((c) => c.title);
}

describe('package.json: a newcomer sees one next step, the rest as it becomes relevant', () => {
  it('shows a newcomer one view, whose welcome leads with Harvest Conversations… in at most 25 words', () => {
    assert.deepEqual(shownViews(NEWCOMER), ['lore.digest']);
    const welcome = viewsWelcome.filter((w) => w.view === 'lore.digest' && whenHolds(w.when, NEWCOMER));
    assert.equal(welcome.length, 1);
    assert.match(welcome[0].contents, /^\[Harvest Conversations…\]\(command:lore\.harvest\)\n/, 'the first line is the one button');
    assert.ok(words(welcome[0].contents) <= 25, `${words(welcome[0].contents)} words`);
    assert.equal((welcome[0].contents.match(/^\[[^\]]+\]\(command:[^)]+\)$/gm) ?? []).length, 1, 'one button; the rest are links in text');
  });

  it('keeps every empty-state text to 30 words', () => {
    for (const w of viewsWelcome) assert.ok(words(w.contents) <= 30, `${w.view} (${w.when}): ${words(w.contents)} words`);
  });

  it('shows each other view once its key says it has something, or when the person shows them all', () => {
    for (const view of views.lore.filter((v) => v.id !== 'lore.digest' && v.id !== 'lore.plan')) {
      const keys = VIEW_KEYS.filter((key) => view.when?.includes(key));
      assert.equal(keys.length, 1, `${view.id} shows on one key the extension sets (${view.when})`);
      assert.ok(whenHolds(view.when, { ...NEWCOMER, [keys[0]]: true }), view.id);
      assert.ok(whenHolds(view.when, { ...NEWCOMER, [`config.lore.${SHOW_ALL_VIEWS_SETTING}`]: true }), `${view.id} with showAll`);
    }
    assert.deepEqual(shownViews(IN_USE), ['lore.digest', 'lore.ledger', 'lore.knowledge', 'lore.review']);
    assert.equal(manifest.contributes.configuration.properties[`lore.${SHOW_ALL_VIEWS_SETTING}`]?.default, false);
  });

  it('names the agents’ task memory for what it is, apart from the open tasks of tasks.md', () => {
    assert.equal(views.lore.find((v) => v.id === 'lore.tasks')?.name, 'Agent Tasks');
    const empty = viewsWelcome.find((w) => w.view === 'lore.tasks');
    assert.match(empty?.contents ?? '', /task tools/);
    assert.match(empty?.contents ?? '', /tasks\.md are in Knowledge/);
  });

  it('offers a newcomer a short palette: one way to harvest, no plan or held-item commands', () => {
    const palette = paletteFor(NEWCOMER);
    assert.deepEqual(palette, ['Harvest Conversations…', 'Choose How to Distill…', 'Show Log', 'Show All Lore Views']);
    const inUse = paletteFor(IN_USE);
    for (const title of ['Accept Held Item', 'Reject Held Item', 'Search Knowledge', 'Undo Last Harvest'])
      assert.ok(inUse.includes(title), title);
    for (const title of ['Apply Harvest', 'Discard Harvest Plan', 'Import Conversations…', 'Harvest Now', 'Initialize Store'])
      assert.ok(!inUse.includes(title), title);
    assert.ok(paletteFor({ ...IN_USE, 'lore.harvestPending': true }).includes('Apply Harvest'));
  });
});
