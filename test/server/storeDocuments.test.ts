import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hasMalformedProvenance, parseProvenance } from '../../src/core/model/provenance';
import { analyzeProvenance, repairDate } from '../../src/server/provenanceLines';
import { provenanceLinks } from '../../src/server/storeDocuments';
import { LoreCommands, type OpenProvenanceArgs } from '../../src/shared/protocol';
import type { LspTestClient } from './lspClient';
import { makeWorkspace } from './serverFixtures';

const FACTS = [
  '# Facts',
  '',
  '- Cache blocks are ephemeral [from: conv-1, 2026-11-20]',
  '- Written by hand, no provenance',
  '- Impossible day [from: conv-2, 2026-02-30]',
  '- Unclosed [from: conv-3, 2026-11-21',
  '- Marker not last [from: conv-4, 2026-11-22] then more text',
  '- No date [from: conv-5]',
  '- Bad month [from: conv-6, 2026-13-01]',
  '```',
  '- inside a fence [from: broken',
  '```',
  '- Sloppy date [from: conv-7, 2026/1/5]',
  '',
].join('\n');

/** Applies a code action's single line edit to the text. */
function applyLineEdit(text: string, edit: { range: { start: { line: number } }; newText: string }): string {
  const lines = text.split('\n');
  lines[edit.range.start.line] = edit.newText;
  return lines.join('\n');
}

describe('language server: provenance in store files', function () {
  let client: LspTestClient;
  let facts: string;
  let uri: string;

  before(async () => {
    const w = makeWorkspace();
    facts = path.join(w.paths.root, 'facts.md');
    fs.writeFileSync(facts, FACTS);
    client = await w.start();
    uri = await client.open(facts, FACTS, 'markdown');
    await client.waitFor('textDocument/publishDiagnostics', (p: { uri: string }) => p.uri === uri);
  });

  after(async () => {
    await client.stop();
  });

  it('links every well-formed [from: ID, date] to lore.openProvenance', async () => {
    const links = await client.links(uri);
    assert.deepEqual(
      links.map((l) => l.range.start.line),
      [2],
    );
    const link = links[0];
    assert.deepEqual(link.range, { start: { line: 2, character: 29 }, end: { line: 2, character: 55 } });
    const target = link.target!;
    assert.ok(target.startsWith(`command:${LoreCommands.openProvenance}?`));
    const [args] = JSON.parse(decodeURIComponent(target.slice(target.indexOf('?') + 1))) as [OpenProvenanceArgs];
    assert.deepEqual(args, { source: 'conv-1', date: '2026-11-20', noteFile: facts, line: 2 });
  });

  it('warns on broken markers only: hand-written lines and fenced code are fine', () => {
    const diagnostics = client.diagnostics.get(uri)!;
    assert.deepEqual(
      diagnostics.map((d) => [d.range.start.line, d.code]),
      [
        [4, 'provenance-date'],
        [5, 'provenance-unclosed'],
        [6, 'provenance-not-trailing'],
        [7, 'provenance-malformed'],
        [8, 'provenance-date'],
        [12, 'provenance-malformed'],
      ],
    );
    assert.match(String(diagnostics[0].message), /2026-02-30 is not a calendar date/);
    assert.ok(diagnostics.every((d) => d.source === 'lore'));
  });

  it('offers quick fixes that leave valid provenance (or none)', async () => {
    const diagnostics = client.diagnostics.get(uri)!;
    const expected: Record<number, string[]> = {
      4: ['- Impossible day [from: conv-2, 2026-02-28]', '- Impossible day'],
      5: ['- Unclosed [from: conv-3, 2026-11-21]', '- Unclosed'],
      6: ['- Marker not last then more text [from: conv-4, 2026-11-22]', '- Marker not last then more text'],
      7: ['- No date'],
      8: ['- Bad month'],
      12: ['- Sloppy date [from: conv-7, 2026-01-05]', '- Sloppy date'],
    };
    for (const diagnostic of diagnostics) {
      const actions = await client.codeActions(uri, [diagnostic]);
      const line = diagnostic.range.start.line;
      const results = actions.map((a) => a.edit!.changes![uri][0].newText);
      assert.deepEqual(results, expected[line], `fixes for line ${line}`);
      for (const result of results) assert.ok(!hasMalformedProvenance(result));
      assert.equal(actions[0].kind, 'quickfix');
      const fixed = applyLineEdit(FACTS, actions[0].edit!.changes![uri][0]);
      assert.equal(fixed.split('\n').length, FACTS.split('\n').length);
    }
  });

  it('re-validates on change and clears diagnostics on close', async () => {
    const since = Date.now();
    await client.change(uri, '# Facts\n\n- fine [from: c, 2026-01-01]\n');
    await client.waitFor(
      'textDocument/publishDiagnostics',
      (p: { uri: string; diagnostics: unknown[] }) => p.uri === uri && p.diagnostics.length === 0,
      2000,
      since,
    );
    await client.change(uri, FACTS);
    await client.close(uri);
    await client.waitFor(
      'textDocument/publishDiagnostics',
      (p: { uri: string; diagnostics: unknown[] }) => p.uri === uri && p.diagnostics.length === 0,
      2000,
      Date.now(),
    );
  });

  it('checks note files below their frontmatter, and leaves transcripts alone', async () => {
    const noteFile = path.join(path.dirname(facts), 'files', '1-2.md');
    const text = '---\npath: "a.ts"\nfile_id: "1:2"\nsize: 1\nfingerprint: "[from: x"\n---\n# a.ts\n\n- n [from: c, 2026-04-31]\n';
    fs.writeFileSync(noteFile, text);
    const noteUri = await client.open(noteFile, text, 'markdown');
    const published = await client.waitFor<{ uri: string; diagnostics: Array<{ range: { start: { line: number } } }> }>(
      'textDocument/publishDiagnostics',
      (p: { uri: string }) => p.uri === noteUri,
    );
    assert.deepEqual(
      published.params.diagnostics.map((d) => d.range.start.line),
      [8],
    );
    const inbox = path.join(path.dirname(facts), 'inbox', 'chat.md');
    fs.mkdirSync(path.dirname(inbox), { recursive: true });
    fs.writeFileSync(inbox, '- [from: broken\n');
    const inboxUri = await client.open(inbox, '- [from: broken\n', 'markdown');
    assert.deepEqual(await client.links(inboxUri), []);
  });
});

describe('provenance line analysis', () => {
  it('repairs dates that are almost right and refuses impossible months', () => {
    assert.equal(repairDate('2026-02-30'), '2026-02-28');
    assert.equal(repairDate('2024-02-30'), '2024-02-29');
    assert.equal(repairDate('2026/1/5'), '2026-01-05');
    assert.equal(repairDate('2026-13-01'), undefined);
    assert.equal(repairDate('2026-00-10'), undefined);
    assert.equal(repairDate('soon'), undefined);
  });

  it('finds nothing wrong in valid or absent provenance', () => {
    assert.equal(analyzeProvenance('- plain line'), undefined);
    assert.equal(analyzeProvenance('- ok [from: a, 2026-11-20]'), undefined);
    assert.equal(analyzeProvenance('- early (from: a) mention, then ok [from: a, 2026-11-20]'), undefined);
  });

  it('every fix it offers parses with core provenance', () => {
    for (const line of [
      '- x [from: a, 2026-02-29]',
      '- x [from: a,2026-4-31 ',
      '- x [from: a 2026-01-01]',
      '- x [from: a, 2026-01-01] y [from: b',
    ]) {
      const problem = analyzeProvenance(line)!;
      assert.ok(problem, line);
      for (const fix of problem.fixes) {
        const parsed = parseProvenance(fix.line);
        assert.ok(!parsed || parsed.validDate, `${fix.title}: ${fix.line}`);
        assert.ok(!hasMalformedProvenance(fix.line), `${fix.title}: ${fix.line}`);
      }
    }
  });
});

describe('links on merged provenance and supersession markers', () => {
  it('one link per source on a line several conversations taught, and one from a superseded line to the newer item', () => {
    const text =
      '# Decisions\n\n- uses pnpm [from: c1, 2026-11-01; c2, 2026-11-05]\n- deploys via Jenkins [superseded by k3m9x2ab, 2026-11-27] [from: c1, 2026-11-01]\n';
    const links = provenanceLinks(text, '/store/decisions.md');
    const lines = text.split('\n');
    const shown = links.map((l) => ({
      text: lines[l.range.start.line].slice(l.range.start.character, l.range.end.character),
      args: JSON.parse(decodeURIComponent(l.target!.slice(l.target!.indexOf('?') + 1)))[0],
      command: l.target!.slice(8, l.target!.indexOf('?')),
    }));
    assert.deepEqual(shown, [
      {
        text: 'c1, 2026-11-01',
        command: LoreCommands.openProvenance,
        args: { source: 'c1', date: '2026-11-01', noteFile: '/store/decisions.md', line: 2 },
      },
      {
        text: 'c2, 2026-11-05',
        command: LoreCommands.openProvenance,
        args: { source: 'c2', date: '2026-11-05', noteFile: '/store/decisions.md', line: 2 },
      },
      { text: 'k3m9x2ab', command: LoreCommands.revealItemById, args: { id: 'k3m9x2ab' } },
      {
        text: '[from: c1, 2026-11-01]',
        command: LoreCommands.openProvenance,
        args: { source: 'c1', date: '2026-11-01', noteFile: '/store/decisions.md', line: 3 },
      },
    ]);
  });
});
