/**
 * The manifest's `when` clauses: a command that cannot work in the current state is not offered
 * (issue 13: Add Note without an editor ended in an error with Open Log; Initialize Store was
 * offered when a store existed). VS Code evaluates these clauses, so this reads them as VS Code
 * does: from package.json, by command.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/paths';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}
interface Manifest {
  contributes: { commands: Array<{ command: string; title: string }>; menus: Record<string, MenuEntry[]> };
}

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const palette = new Map(manifest.contributes.menus.commandPalette.map((e) => [e.command, e.when]));

describe('package.json: commands are offered only where they can work', () => {
  it('leaves Initialize Store out of the palette: a first harvest makes the store (the walkthrough still offers it)', () => {
    assert.equal(palette.get('lore.initStore'), 'false');
  });

  it('in a window without a store (no folder, the global store not chosen) offers Use the Global Store, and the view says how to get a store', () => {
    assert.equal(palette.get('lore.useGlobalStore'), 'lore.noStore');
    const welcome =
      (manifest.contributes as { viewsWelcome?: Array<{ view: string; contents: string; when?: string }> }).viewsWelcome ?? [];
    // The Digest view is the one view such a window shows.
    const shown = welcome.filter((w) => w.when === 'lore.noStore');
    assert.deepEqual(
      shown.map((w) => w.view),
      ['lore.digest'],
    );
    assert.match(shown[0].contents, /\(command:lore\.useGlobalStore\)/);
    assert.match(shown[0].contents, /\(command:vscode\.openFolder\)/);
    assert.match(shown[0].contents, /lore\.store\.location/);
    // A welcome that would create a store is for a window that has a place for one.
    for (const w of welcome.filter((w) => /\(command:lore\.(initStore|harvest)\)/.test(w.contents)))
      assert.ok(w.when?.includes('!lore.noStore') || w.when === 'lore.storeExists', `${w.view}: ${w.when}`);
  });

  it('offers Add Note with a file open in the editor, and the notes of a file once there is knowledge', () => {
    assert.equal(palette.get('lore.addNote'), 'resourceScheme == file');
    for (const command of ['lore.editNotesForFile', 'lore.showNotes'])
      assert.equal(palette.get(command), 'resourceScheme == file && lore.hasKnowledge', command);
  });

  it('offers Apply, Review and Discard only while a harvest plan is pending', () => {
    for (const command of ['lore.applyHarvest', 'lore.applyHarvestWhenCold', 'lore.reviewHarvest', 'lore.discardHarvest'])
      assert.equal(palette.get(command), 'lore.harvestPending', command);
  });

  it('offers the commands that read knowledge only when there is some, and held-item commands only while one waits', () => {
    for (const command of ['lore.regenerateDigest', 'lore.search', 'lore.syncInstructions'])
      assert.equal(palette.get(command), 'lore.hasKnowledge', command);
    for (const command of [
      'lore.acceptReviewItem',
      'lore.acceptSuggestions',
      'lore.rejectReviewItem',
      'lore.keepReviewItemPersonal',
      'lore.editReviewItem',
    ])
      assert.equal(palette.get(command), 'lore.hasHeldItems', command);
  });

  it('has one way to start a harvest in the palette; the inbox and import entry points stay in their views', () => {
    for (const command of ['lore.importConversations', 'lore.harvestInbox']) assert.equal(palette.get(command), 'false', command);
    const titles = manifest.contributes.menus['view/title'];
    assert.ok(titles.some((e) => e.command === 'lore.harvestInbox' && e.when === 'view == lore.inbox'));
    assert.ok(titles.some((e) => e.command === 'lore.importConversations' && e.when === 'view == lore.ledger'));
  });

  it('gives every command in the palette a decision: shown always only when it works without a store or an editor', () => {
    // These work in any state: Harvest creates the store on the way, the others concern Lore itself.
    const always = new Set(['lore.harvest', 'lore.chooseDistiller', 'lore.showLog']);
    const undecided = manifest.contributes.commands.map((c) => c.command).filter((c) => !palette.has(c) && !always.has(c));
    assert.deepEqual(undecided, [], 'each new command needs a commandPalette `when` (or a place in the list above)');
  });

  it('has one palette entry per command, each naming a command that exists', () => {
    const commands = new Set(manifest.contributes.commands.map((c) => c.command));
    const entries = manifest.contributes.menus.commandPalette.map((e) => e.command);
    assert.equal(new Set(entries).size, entries.length, 'duplicate palette entries');
    for (const command of entries) assert.ok(commands.has(command), `${command} is not a contributed command`);
  });
});
