import * as assert from 'node:assert/strict';
import { command, optionTable, renderHelp, usageLines } from '../../src/cli/command';
import { runCli } from '../helpers/cli';

describe('lore commands: declared once, help and parsing from the declaration', () => {
  it('renders usage lines, what each does (continued under it), the prose and the option table', () => {
    const help = renderHelp({
      name: 'demo',
      usage: ['QUERY [--limit N]', { usage: 'undo', does: 'take it back\nall of it' }],
      description: 'Does a demo.',
      options: { limit: { type: 'string', value: 'N', help: 'at most N\n(default 20)' }, quiet: { type: 'boolean' } },
      epilogue: 'Exit status: 0.',
    });
    assert.equal(
      help,
      [
        'lore demo QUERY [--limit N]',
        `lore demo undo${' '.repeat(41 - 'lore demo undo'.length)}take it back`,
        `${' '.repeat(41)}all of it`,
        'Does a demo.',
        '  --limit N  at most N',
        '             (default 20)',
        'Exit status: 0.',
      ].join('\n'),
    );
  });

  it('wraps a long usage before an option group, under the arguments', () => {
    const lines = usageLines('x', `ARG ${Array.from({ length: 20 }, (_, i) => `[--option-${i} V]`).join(' ')}`);
    assert.ok(lines.length > 1);
    assert.ok(lines.every((l) => l.length <= 120));
    assert.ok(lines.slice(1).every((l) => l.startsWith(`${' '.repeat('lore x '.length)}[--option-`)));
  });

  it('keeps one very wide flag from pushing the table right', () => {
    const table = optionTable({
      a: { type: 'boolean', help: 'short' },
      'a-very-long-option-name': { type: 'string', value: 'N', help: 'long' },
    });
    assert.deepEqual(table, ['  --a  short', '  --a-very-long-option-name N  long']);
  });

  it('parses the declared options (and the common ones), refuses others, and answers --help with the rendered help', async () => {
    const seen: unknown[] = [];
    const demo = command({
      name: 'demo',
      usage: ['[--limit N]'],
      options: { limit: { type: 'string', value: 'N', help: 'at most N' }, tag: { type: 'string', multiple: true } },
      takes: { positionals: false },
      run: async (parsed) => {
        seen.push({ ...parsed.values });
        return 0;
      },
    });
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    assert.equal(await demo.run(['--limit', '3', '--tag', 'a', '--tag', 'b', '--json'], io), 0);
    assert.deepEqual(seen, [{ limit: '3', tag: ['a', 'b'], json: true }]);
    await assert.rejects(demo.run(['--nope'], io), /Unknown option '--nope'/);
    await assert.rejects(demo.run(['extra'], io), /unexpected argument "extra"/);
    assert.equal(await demo.run(['--help'], io), 0);
    assert.deepEqual(out, [demo.help]);
    assert.equal(demo.help, 'lore demo [--limit N]\n  --limit N  at most N');
  });

  it('lore --help lists every command by its declared usage, and each command --help is its declaration', async () => {
    const index = (await runCli(['--help'])).stdout;
    const names = [...index.matchAll(/^lore (\w+)/gm)].map((m) => m[1]);
    const unique = [...new Set(names)];
    assert.ok(unique.length >= 28, `${unique.length} commands listed`);
    for (const name of unique) {
      const own = await runCli([name, '--help']);
      assert.equal(own.code, 0, `lore ${name} --help exits 0`);
      const first = own.stdout.split('\n')[0];
      assert.ok(index.includes(first.split('   ')[0].trimEnd()), `lore ${name}'s first usage line is in lore --help`);
    }
    const search = (await runCli(['search', '--help'])).stdout;
    for (const flag of ['--category C', '--since D', '--limit N', '--superseded', '--backend B', '--archived'])
      assert.match(search, new RegExp(`^  ${flag}`, 'm'));
  });
});
