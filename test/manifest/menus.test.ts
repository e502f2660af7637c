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
  it('hides Initialize Store once a store exists', () => {
    assert.equal(palette.get('lore.initStore'), '!lore.storeExists');
  });

  it('in a window without a store (no folder, the global store not chosen) offers Use the Global Store, and the views say how to get a store', () => {
    assert.equal(palette.get('lore.useGlobalStore'), 'lore.noStore');
    const welcome =
      (manifest.contributes as { viewsWelcome?: Array<{ view: string; contents: string; when?: string }> }).viewsWelcome ?? [];
    for (const view of ['lore.digest', 'lore.knowledge']) {
      const shown = welcome.filter((w) => w.view === view && w.when === 'lore.noStore');
      assert.equal(shown.length, 1, view);
      assert.match(shown[0].contents, /\(command:lore\.useGlobalStore\)/, view);
      assert.match(shown[0].contents, /\(command:vscode\.openFolder\)/, view);
      assert.match(shown[0].contents, /lore\.store\.location/, view);
    }
    // "Initialize Store" welcomes would create nothing there: they are for a window that has a place for a store.
    for (const w of welcome.filter((w) => w.contents.includes('(command:lore.initStore)')))
      assert.equal(w.when, '!lore.storeExists && !lore.noStore', w.view);
  });

  it('offers the per-file note commands only with a file open in the editor', () => {
    for (const command of ['lore.addNote', 'lore.editNotesForFile', 'lore.showNotes'])
      assert.equal(palette.get(command), 'resourceScheme == file', command);
  });

  it('offers Apply, Review and Discard only while a harvest plan is pending', () => {
    for (const command of ['lore.applyHarvest', 'lore.applyHarvestWhenCold', 'lore.reviewHarvest', 'lore.discardHarvest'])
      assert.equal(palette.get(command), 'lore.harvestPending', command);
  });

  it('offers the commands that read the store only when there is one', () => {
    for (const command of [
      'lore.regenerateDigest',
      'lore.search',
      'lore.syncInstructions',
      'lore.acceptReviewItem',
      'lore.rejectReviewItem',
    ]) {
      assert.equal(palette.get(command), 'lore.storeExists', command);
    }
  });

  it('gives every command in the palette a decision: shown always only when it works without a store or an editor', () => {
    // These work in any state: they create the store on the way, or concern VS Code itself.
    // Refresh Prompt Caches reads agent session files, not the store.
    const always = new Set([
      'lore.harvest',
      'lore.importConversations',
      'lore.chooseDistiller',
      'lore.openStore',
      'lore.setApiKey',
      'lore.showLog',
      'lore.cache.refresh',
      'lore.useDirectModelInChat',
    ]);
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
