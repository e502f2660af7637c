/**
 * The first run as a newcomer lives it, on a machine with real Claude Code and Codex sessions
 * (runIntegration.mjs --first-run; the machine is test/integration/firstRunMachine.mjs): a project
 * with no store, the one next step the first view offers, the sessions of this project found (and
 * not another project's), a preview with the offline extractor (no key), the plan pending, apply,
 * and knowledge whose provenance names those sessions. Each step's time is reported, not asserted.
 * Runs alone in its window: it needs a workspace where nothing was ever set up.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoreApi } from '../../../src/extension/extension';
import { REPORT_MARK } from './index';
import { activateLore, until } from './support';

interface Welcome {
  view: string;
  contents: string;
  when?: string;
}

interface Manifest {
  contributes: { views: Record<string, Array<{ id: string }>>; viewsWelcome: Welcome[] };
}

/** The session ids firstRunMachine.mjs plants (from test/fixtures/corpus). */
const OWN_CLAUDE = ['132b2f66-ee5f-46f6-8904-32d9dc4d36c3', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7'];
const OWN_CODEX = '019c5b35-060f-7693-b14f-9f8f75d4aea6';
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

/** What the first view of Lore's container shows when empty: its welcome's text and the commands its buttons run. */
function firstViewWelcome(lore: LoreApi): { view: string; text: string; commands: string[] } {
  const manifest = vscode.extensions.getExtension('lore-dev.lore')!.packageJSON as Manifest;
  const view = manifest.contributes.views.lore[0].id;
  const shown = manifest.contributes.viewsWelcome.filter((w) => w.view === view && holds(w.when, lore));
  assert.equal(shown.length, 1, `one welcome shows in ${view}: ${shown.map((w) => w.contents).join(' | ')}`);
  const commands = [...shown[0].contents.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
  return { view, text: shown[0].contents, commands };
}

/** Lines of one harvest's knowledge in a category file: `- text [from: id, date]`. */
function itemsFrom(file: string, id: string): string[] {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return text.split('\n').filter((line) => line.startsWith('- ') && line.includes(`[from: ${id},`));
}

describe('Lore first run path on a machine with Claude Code and Codex sessions', function () {
  this.timeout(120_000);
  let lore: LoreApi;
  let sessions: string[] = [];
  /** Time per step, and what the newcomer saw there: reported at the end, never asserted. */
  const steps: Array<{ step: string; ms: number; seen?: string }> = [];
  const timed = async <T>(step: string, run: () => Promise<T>, seen?: (result: T) => string): Promise<T> => {
    const started = Date.now();
    const result = await run();
    steps.push({ step, ms: Date.now() - started, seen: seen?.(result) });
    return result;
  };

  before(async () => {
    lore = await timed('activate Lore', () => activateLore());
  });

  after(() => {
    console.log(REPORT_MARK + 'first run path, time per step:');
    for (const s of steps)
      console.log(REPORT_MARK + `  ${String(s.ms).padStart(6)} ms  ${s.step}${s.seen ? `\n             seen: ${s.seen}` : ''}`);
  });

  it('opens a project with no store, and the first view offers one next step, which sets Lore up', async () => {
    assert.equal(lore.store.exists, false, 'a project where Lore was never set up');
    await until('Lore set its context keys', () => lore.contextKeys.get('lore.storeExists') === false);
    const welcome = firstViewWelcome(lore);
    assert.ok(welcome.commands.length > 0, `${welcome.view} offers a button: ${welcome.text}`);
    // What a newcomer clicks: the first button of the first view.
    const next = welcome.commands[0];
    await timed(
      `click the first button of ${welcome.view} (${next})`,
      () => Promise.resolve(vscode.commands.executeCommand(next)),
      () => welcome.text.replace(/\n/g, ' / '),
    );
    assert.ok(lore.store.exists, 'the first step created the store');
    await until('the views know the store exists', () => lore.contextKeys.get('lore.storeExists') === true);
  });

  it("lists this project's Claude Code and Codex sessions, and not another project's", async () => {
    const report = await timed(
      'look for the agent sessions (what Import Conversations… lists)',
      () => lore.listSources(),
      (r) =>
        (r?.tools ?? [])
          .filter((t) => t.items.some((i) => i.matches))
          .map(
            (t) =>
              `${t.label}: ${t.items
                .filter((i) => i.matches)
                .map((i) => path.basename(i.path))
                .join(', ')}`,
          )
          .join('; '),
    );
    assert.ok(report, 'the language server answered');
    const listed = report.tools.flatMap((t) =>
      t.items.filter((i) => i.matches).map((i) => ({ tool: t.tool, path: i.path, status: i.status })),
    );
    const names = listed.map((s) => path.basename(s.path));
    for (const id of OWN_CLAUDE)
      assert.ok(
        listed.some((s) => s.tool === 'claude-code' && names.includes(`${id}.jsonl`)),
        `Claude Code session ${id}: ${names.join(', ')}`,
      );
    assert.ok(
      listed.some((s) => s.tool === 'codex' && s.path.includes(OWN_CODEX)),
      `the Codex session: ${names.join(', ')}`,
    );
    assert.ok(!listed.some((s) => s.path.includes(OTHER_PROJECT)), "another project's session is not offered");
    assert.equal(listed.length, 3);
    assert.ok(
      listed.every((s) => s.status === 'harvest'),
      `all three are new: ${JSON.stringify(listed)}`,
    );
    sessions = listed.map((s) => s.path);
    // The empty Ledger names them too.
    const hints = (await lore.views.ledger.getChildren()) as unknown as Array<{ label: string }>;
    assert.ok(
      hints.some((h) => /^Found 3 sessions of this workspace on this machine, 3 new/.test(h.label)),
      hints.map((h) => h.label).join(' | '),
    );
  });

  it('previews a harvest of those sessions with the offline extractor, no key needed, and the plan waits', async () => {
    assert.equal(lore.distill.isChosen(), false, 'nothing chosen yet: the first harvest asks');
    // The first harvest's question, answered "The offline extractor".
    await lore.distill.remember('rules');
    const report = await timed(
      'dry run and preview of the three sessions (offline extractor)',
      () => lore.harvestWithoutDialogs({ sources: sessions, showDiff: false }),
      (r) =>
        `${r?.plan?.changes.map((c) => c.file).join(', ')}; ${r?.conversations.map((c) => `${path.basename(c.path)} ${c.status}`).join(', ')}`,
    );
    assert.ok(report?.plan, 'a plan was made');
    assert.equal(report.failed, 0);
    assert.deepEqual(report.conversations.map((c) => c.path).sort(), [...sessions].sort(), 'the dry run read exactly these sessions');
    assert.ok(
      report.plan.changes.some((c) => c.file === 'facts.md'),
      report.plan.changes.map((c) => c.file).join(', '),
    );
    assert.ok(lore.harvest.pending, 'the plan is pending');
    await until('the pending plan is in view (status bar)', () => lore.planStatus.shown);
    assert.ok(
      !fs.existsSync(path.join(lore.store.paths.root, 'digest.md')) ||
        !/## Facts/.test(fs.readFileSync(path.join(lore.store.paths.root, 'digest.md'), 'utf8')),
      'nothing written before apply',
    );
  });

  it('applies: knowledge in the category files with provenance pointing at those sessions, a digest, the views show it', async () => {
    const root = lore.store.paths.root;
    await timed('apply the plan', () => Promise.resolve(vscode.commands.executeCommand('lore.applyHarvest')));
    assert.equal(lore.harvest.pending, undefined, 'the plan was decided');
    const categories = ['facts.md', 'decisions.md', 'tasks.md', 'questions.md', 'playbooks.md'].map((f) => path.join(root, f));
    const fromOwn = [...OWN_CLAUDE, OWN_CODEX].map((id) => categories.flatMap((f) => itemsFrom(f, id)).length);
    assert.ok(fromOwn.reduce((a, b) => a + b, 0) > 0, `items from the project's sessions: ${fromOwn.join(', ')}`);
    assert.equal(categories.flatMap((f) => itemsFrom(f, OTHER_PROJECT)).length, 0, "nothing from another project's session");
    assert.ok(itemsFrom(path.join(root, 'facts.md'), OWN_CLAUDE[0]).length > 0, 'facts from the Claude Code session');
    const digest = fs.readFileSync(path.join(root, 'digest.md'), 'utf8');
    assert.match(digest, /\n## Facts\n- .*\[from: /);
    const knowledge = await timed(
      'the Knowledge view after apply',
      async () => (await lore.views.knowledge.getChildren()) as unknown as Array<{ kind: string; label: string; count: number }>,
      (nodes) => nodes.map((n) => `${n.label} (${n.count})`).join(', '),
    );
    assert.ok(knowledge.find((k) => k.label === 'facts.md')!.count > 0);
    await until('the Digest view shows the harvested facts', () => (lore.views.digest.getChildren() as unknown as unknown[]).length > 0);
    const ledger = await timed(
      'the Ledger view after apply',
      async () =>
        (
          lore.views.ledger.getChildren() as unknown as Array<{ status: string; entries: Array<{ toTreeItem(): vscode.TreeItem }> }>
        ).flatMap((g) => g.entries.map((e) => `${g.status}: ${String(e.toTreeItem().label)}`)),
      (labels) => labels.join(', '),
    );
    assert.equal(ledger.filter((l) => l.startsWith('harvested: ')).length, 3, ledger.join(' | '));
  });
});
