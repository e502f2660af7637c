import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, runCli } from '../helpers/cli';

describe('lore context', function () {
  this.timeout(30_000);

  async function workspaceWithKnowledge() {
    const ws = await makeWorkspace();
    fs.writeFileSync(path.join(ws.ws, 'src', 'lib.ts'), 'export const lib = 2;\n');
    fs.appendFileSync(path.join(ws.root, 'decisions.md'), '\n- Cache the stable prefix — cheaper turns [from: c1, 2026-11-20]\n');
    assert.equal((await runCli(['digest', '--root', ws.root])).code, 0);
    for (const [file, note] of [
      ['lib.ts', 'Holds the helpers.'],
      ['app.ts', 'Entry point.'],
    ]) {
      const added = await runCli(['note', path.join(ws.ws, 'src', file), note, '--root', ws.root]);
      assert.equal(added.code, 0, added.stderr);
    }
    return ws;
  }

  it('prints the compiled context with the digest and the notes of the files in scope', async () => {
    const { ws, root } = await workspaceWithKnowledge();
    const result = await runCli(
      ['context', '--root', root, '--files', 'src/lib.ts', '--files', 'src/app.ts', '--message', 'What does lib do?'],
      { cwd: ws },
    );
    assert.equal(result.code, 0, result.stderr);
    const text = result.stdout;
    assert.match(text, /\{knowledge\}\n# Knowledge digest[^]*Cache the stable prefix[^]*\{\/knowledge\}\n/);
    assert.ok(text.indexOf('## src/app.ts\n- Entry point.') < text.indexOf('## src/lib.ts\n- Holds the helpers.'), 'notes sorted by path');
    assert.match(text, /\{active-files\}\n- src\/lib\.ts\n- src\/app\.ts\n\{\/active-files\}/);
    assert.ok(text.endsWith('{message}\nWhat does lib do?\n{/message}\n'));
    assert.match(result.stderr, /stable prefix: \d+ of \d+ bytes/);
  });

  it('--json gives the text, the stable prefix in UTF-16 units and UTF-8 bytes, and the boundaries', async () => {
    const { ws, root } = await workspaceWithKnowledge();
    const result = await runCli(['context', '--root', root, '--json', '--files', 'src/app.ts', 'src/lib.ts', '--message', 'ça — 🚀'], {
      cwd: ws,
    });
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.deepEqual(Object.keys(json), [
      'text',
      'stablePrefixLength',
      'stablePrefixBytes',
      'units',
      'boundaries',
      'budgetTokens',
      'tokens',
      'slots',
      'hits',
      'topics',
    ]);
    assert.equal(json.units.stablePrefixLength, 'utf16-code-units');
    assert.equal(json.units.stablePrefixBytes, 'utf8-bytes');
    assert.equal(json.stablePrefixBytes, Buffer.byteLength(json.text.slice(0, json.stablePrefixLength), 'utf8'));
    assert.deepEqual(
      json.boundaries.map((b: { layer: string }) => b.layer),
      ['role', 'knowledge', 'file-notes', 'active-files', 'message'],
    );
    const notes = json.boundaries.find((b: { layer: string }) => b.layer === 'file-notes');
    assert.equal(json.stablePrefixLength, notes.end);
  });

  it('keeps the first N bytes identical across turns (the contract, end to end)', async () => {
    const { ws, root } = await workspaceWithKnowledge();
    const turn = async (message: string) =>
      JSON.parse((await runCli(['context', '--root', root, '--json', '--files', 'src/app.ts', '--message', message], { cwd: ws })).stdout);
    const [a, b] = [await turn('first'), await turn('second, longer — with ünïcode')];
    assert.equal(a.stablePrefixBytes, b.stablePrefixBytes);
    const n = a.stablePrefixBytes;
    assert.ok(Buffer.from(a.text).subarray(0, n).equals(Buffer.from(b.text).subarray(0, n)));
    assert.notEqual(a.text, b.text);
  });

  it('has no knowledge block once digest.md is deleted, and warns about missing files', async () => {
    const { ws, root } = await workspaceWithKnowledge();
    fs.rmSync(path.join(root, 'digest.md'));
    const result = await runCli(['context', '--root', root, '--files', 'src/nope.ts', '--message', 'hi'], { cwd: ws });
    assert.equal(result.code, 0);
    assert.ok(!result.stdout.includes('{/knowledge}'));
    assert.match(result.stderr, /no such file: src\/nope\.ts/);
    assert.match(result.stderr, /no digest/);
  });

  it('is listed in lore --help and has its own --help', async () => {
    assert.match(
      (await runCli(['--help'])).stdout,
      /lore context \[--root DIR\] \[--files F\.\.\.\] \[--message TEXT\] \[--budget TOKENS\]/,
    );
    assert.match((await runCli(['context', '--help'])).stdout, /UTF-16 code units/);
  });
});
