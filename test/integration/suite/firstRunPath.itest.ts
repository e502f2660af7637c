/**
 * The first run as a newcomer lives it, on a machine with real Claude Code and Codex sessions
 * (runIntegration.mjs --first-run; the machine is test/integration/firstRunMachine.mjs): a project
 * with no store shows one view, Get Started, with one button, Harvest Conversations…; that harvest
 * makes the store and reads this project's sessions (not another project's), named by what was
 * asked; the offline extractor's preview waits in the Harvest Plan view with its files and items;
 * Apply writes knowledge whose provenance names those sessions, a digest, and a Ledger that names
 * them by title. Each step's time is reported, not asserted.
 * Runs alone in its window: it needs a workspace where nothing was ever set up.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { planTabs } from '../../../src/extension/harvest/pendingPlanStatus';
import { dryRunConversations, type PlanRow } from '../../../src/extension/harvest/planTreeModel';
import type { ShownReport } from '../../../src/shared/protocol';
import { REPORT_MARK } from './index';
import { activateLore, until } from './support';

interface Welcome {
  view: string;
  contents: string;
  when?: string;
}

interface Manifest {
  contributes: { viewsWelcome: Welcome[] };
}

/** The sessions firstRunMachine.mjs plants (from test/fixtures/corpus): their ids, and the titles their tools recorded. */
const OWN = [
  { id: '132b2f66-ee5f-46f6-8904-32d9dc4d36c3', tool: 'claude-code', title: '@claude-code-prompt.md really ULTRATHINK this' },
  {
    id: '5c0375b4-57a5-4f26-b12d-d022ee4e51b7',
    tool: 'claude-code',
    title: '/orchestrator @CLAUDE.md を最新の状態にアップデートしてください',
  },
  { id: '019c5b35-060f-7693-b14f-9f8f75d4aea6', tool: 'codex', title: 'init' },
];
const OTHER_PROJECT = 'c64cc478-3430-40fe-8e9c-4ee9986e9754';

/**
 * Whether a welcome's `when` holds for Lore's context keys: the clauses Lore's welcomes use are
 * keys joined by `&&`, each maybe negated; anything else fails loudly, so a new form is noticed.
 */
function holds(when: string | undefined, lore: LoreApi): boolean {
  if (!when) return true;
  return when.split('&&').every((term) => {
    const m = /^\s*(!?)\s*(lore\.[\w.]+)\s*$/.exec(term);
    assert.ok(m, `a when clause this test can read: ${when}`);
    const value = lore.contextKeys.get(m[2] as Parameters<LoreApi['contextKeys']['get']>[0]) ?? false;
    return m[1] === '!' ? !value : value;
  });
}

/**
 * The buttons an empty view shows: VS Code draws a welcome line that is only a command link as a
 * button (a link inside a sentence stays a link).
 */
function welcomeButtons(view: string, lore: LoreApi): Array<{ label: string; command: string }> {
  const manifest = vscode.extensions.getExtension('lore-dev.lore')!.packageJSON as Manifest;
  const shown = manifest.contributes.viewsWelcome.filter((w) => w.view === view && holds(w.when, lore));
  assert.equal(shown.length, 1, `one welcome shows in ${view}: ${shown.map((w) => w.contents).join(' | ')}`);
  return shown[0].contents.split('\n').flatMap((line) => {
    const m = /^\[([^\]]+)\]\(command:([\w.]+)[^)]*\)$/.exec(line.trim());
    return m ? [{ label: m[1], command: m[2] }] : [];
  });
}

/** Lines of one session's knowledge in a category file: `- text [from: id, date]`. */
function itemsFrom(file: string, id: string): string[] {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return text.split('\n').filter((line) => line.startsWith('- ') && line.includes(`[from: ${id},`));
}

function section(rows: PlanRow[], name: string): PlanRow[] {
  const found = rows.find((r) => r.kind === 'section' && r.section === name);
  return found?.kind === 'section' ? found.children : [];
}

describe('Lore first run path on a machine with Claude Code and Codex sessions', function () {
  this.timeout(120_000);
  let lore: LoreApi;
  let report: ShownReport | undefined;
  /** Time per step, and what the newcomer saw there: reported at the end, never asserted. */
  const steps: Array<{ step: string; ms: number; seen?: string }> = [];
  const timed = async <T>(step: string, run: () => Promise<T>, seen?: (result: T) => string): Promise<T> => {
    const started = Date.now();
    const result = await run();
    steps.push({ step, ms: Date.now() - started, seen: seen?.(result) });
    return result;
  };
  /** The Lore views on screen, by id. */
  const shownViews = () =>
    Object.entries(lore.treeViews)
      .filter(([, view]) => view.visible)
      .map(([id]) => id);

  before(async () => {
    lore = await timed('activate Lore', () => activateLore());
  });

  after(() => {
    console.log(REPORT_MARK + 'first run path, time per step:');
    for (const s of steps)
      console.log(REPORT_MARK + `  ${String(s.ms).padStart(6)} ms  ${s.step}${s.seen ? `\n             seen: ${s.seen}` : ''}`);
  });

  it('opens a project with no store: one view, Get Started, whose one button is Harvest Conversations…', async () => {
    assert.equal(lore.store.exists, false, 'a project where Lore was never set up');
    await until('Lore set its context keys', () => lore.contextKeys.get('lore.storeExists') === false);
    await timed(
      'open the Lore sidebar',
      async () => {
        await vscode.commands.executeCommand('workbench.view.extension.lore');
        await until('a Lore view is on screen', () => shownViews().length > 0);
      },
      () => shownViews().join(', '),
    );
    assert.deepEqual(shownViews(), ['lore.digest'], 'one view');
    assert.equal(lore.treeViews['lore.digest'].title, 'Get Started');
    assert.equal(lore.planView.view.visible, false, 'no plan yet');
    assert.deepEqual(welcomeButtons('lore.digest', lore), [{ label: 'Harvest Conversations…', command: 'lore.harvest' }]);
  });

  it("Harvest Conversations… makes the store and reads this project's three sessions by title, not another project's", async () => {
    // The first harvest asks how to distill: answered "The offline extractor", as the question records it.
    assert.equal(lore.distill.isChosen(), false, 'nothing chosen yet: the first harvest asks');
    await lore.distill.remember('rules');
    // The button's command, past its dialogs (a modal a test cannot answer): the same flow, the
    // same sources (what lore.harvest reads by default), the plan left pending and its diff opened.
    report = await timed(
      'Harvest Conversations…: make the store, dry run, offline preview',
      () => lore.harvestWithoutDialogs(),
      (r) => (r ? dryRunConversations(r).replace(/\n/g, ' / ') : 'nothing'),
    );
    assert.ok(lore.store.exists, 'the harvest made the store');
    assert.ok(report?.plan, 'a plan was made');
    const read = report.conversations.filter((c) => c.class === 'harvest');
    assert.equal(report.failed, 0);
    assert.ok(!report.conversations.some((c) => c.path.includes(OTHER_PROJECT)), "another project's session is not read");
    assert.deepEqual(
      read
        .map((c) =>
          path
            .basename(c.path)
            .replace(/^rollout-[\dT-]+?-(?=[0-9a-f]{8}-)/, '')
            .replace(/\.jsonl$/, ''),
        )
        .sort(),
      OWN.map((s) => s.id).sort(),
      `the sessions read: ${read.map((c) => c.path).join(', ')}`,
    );
    // Named by what was asked, as the dry run's dialog lists them, not by file name.
    const listed = dryRunConversations(report).split('\n');
    for (const s of OWN) {
      const conversation = read.find((c) => c.path.includes(s.id))!;
      assert.equal(conversation.title, s.title);
      assert.ok(
        listed.some((line) => line.startsWith(`${s.title} · `)),
        `the dialog names ${s.title}: ${listed.join(' | ')}`,
      );
    }
    assert.ok(!listed.some((line) => /\.jsonl/.test(line)), `no file names: ${listed.join(' | ')}`);
  });

  it('the Harvest Plan view is on screen beside the diff, with the files and items; nothing written yet', async () => {
    await timed(
      'the Harvest Plan view shows',
      () => until('the Harvest Plan view is on screen', () => lore.planView.view.visible),
      () => lore.planView.rows()[0]?.label ?? '',
    );
    assert.ok(lore.harvest.pending, 'the plan is pending');
    await until('a proposed diff is open', () => planTabs().length > 0);
    const rows = lore.planView.rows();
    assert.equal(rows[0].kind, 'summary');
    // No one marked anything in these sessions: all the offline extractor takes is a suggestion to confirm.
    assert.match(rows[0].label, /^Held for your review: \d+ suggestions to confirm$/, rows[0].label);
    const files = section(rows, 'files').map((f) => f.label);
    assert.ok(files.includes('review.md'), files.join(', '));
    const held = section(rows, 'held').map((i) => i.label);
    assert.ok(held.includes('JSONL format - one JSON object per line'), held.join(' | '));
    assert.ok(
      !fs.existsSync(path.join(lore.store.paths.root, 'digest.md')) ||
        !/## Facts/.test(fs.readFileSync(path.join(lore.store.paths.root, 'digest.md'), 'utf8')),
      'nothing written before apply',
    );
  });

  it('applies and keeps the suggestions: knowledge with provenance to those sessions, a digest, and a Ledger that names them by title', async () => {
    const root = lore.store.paths.root;
    await timed('Apply', () => Promise.resolve(vscode.commands.executeCommand('lore.applyHarvest')));
    assert.equal(lore.harvest.pending, undefined, 'the plan was decided');
    await until('the Harvest Plan view is gone', () => !lore.planView.view.visible);
    assert.ok(itemsFrom(path.join(root, 'review.md'), OWN[0].id).length > 0, 'suggestions from the first session wait in review.md');
    await timed(
      'the Review view shows the suggestions',
      () => until('Review on screen', () => shownViews().includes('lore.review')),
      () => shownViews().join(', '),
    );
    await timed('Accept All Suggestions', () => Promise.resolve(vscode.commands.executeCommand('lore.acceptSuggestions')));
    const categories = ['facts.md', 'decisions.md', 'tasks.md', 'questions.md', 'playbooks.md'].map((f) => path.join(root, f));
    assert.equal(categories.flatMap((f) => itemsFrom(f, OTHER_PROJECT)).length, 0, "nothing from another project's session");
    assert.ok(itemsFrom(path.join(root, 'facts.md'), OWN[0].id).length > 0, 'facts from the first Claude Code session');
    // The second says what it did in its last answer ("CLAUDE.md … updated"); its list of npm script names is no playbook.
    assert.ok(itemsFrom(path.join(root, 'tasks.md'), OWN[1].id).length > 0, 'a done task from the second');
    assert.equal(itemsFrom(path.join(root, 'playbooks.md'), OWN[1].id).length, 0, 'no playbook of bare script names');
    assert.match(fs.readFileSync(path.join(root, 'digest.md'), 'utf8'), /\n## Facts\n- .*\[from: /);
    await timed(
      'the Knowledge and Ledger views appear',
      () => until('Knowledge and Ledger on screen', () => ['lore.knowledge', 'lore.ledger'].every((id) => shownViews().includes(id))),
      () => shownViews().join(', '),
    );
    assert.equal(lore.treeViews['lore.digest'].title, 'Digest');
    const knowledge = (await lore.views.knowledge.getChildren()) as unknown as Array<{ label: string; count: number }>;
    assert.ok(knowledge.find((k) => k.label === 'facts.md')!.count > 0, knowledge.map((k) => k.label).join(', '));
    await until('the Digest view shows the harvested facts', async () => ((await lore.views.digest.getChildren()) ?? []).length > 0);
    const ledger = await timed(
      'the Ledger view after apply',
      async () =>
        (
          lore.views.ledger.getChildren() as unknown as Array<{ status: string; entries?: Array<{ toTreeItem(): vscode.TreeItem }> }>
        ).flatMap((g) => (g.entries ?? []).map((e) => `${g.status}: ${String(e.toTreeItem().label)}`)),
      (labels) => labels.join(', '),
    );
    assert.deepEqual(ledger.sort(), OWN.map((s) => `harvested: ${s.title}`).sort());
  });
});
