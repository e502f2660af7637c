import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseHookInput, toolInputPaths } from '../../../src/core/services/hooks/hookInput';
import { MAX_RECENT_TOOL_FILES, recentToolFiles, recordToolFiles } from '../../../src/core/services/hooks/toolFiles';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

function store() {
  const ws = makeTempDir('lore-toolfiles-');
  const paths = storePaths(path.join(ws, '.lore'));
  fs.mkdirSync(paths.root);
  return { ws, paths };
}

describe('tool files (the files tool calls name, for glob triggers)', () => {
  it("reads the paths of Claude Code's and VS Code's tool inputs", () => {
    assert.deepEqual(toolInputPaths({ file_path: '/w/src/a.ts', content: 'x' }), ['/w/src/a.ts']);
    assert.deepEqual(toolInputPaths({ notebook_path: 'nb/x.ipynb', new_source: '' }), ['nb/x.ipynb']);
    assert.deepEqual(toolInputPaths({ pattern: 'TODO', path: 'src' }), ['src']);
    assert.deepEqual(toolInputPaths({ files: ['src/main.ts', { filePath: 'src/b.ts' }, 7, ''] }), ['src/main.ts', 'src/b.ts']);
    assert.deepEqual(toolInputPaths({ filePath: 'src/c.ts', startLine: 1 }), ['src/c.ts']);
    // Not paths: a shell command, numbers, oversized strings, NUL bytes, arrays as input.
    assert.deepEqual(toolInputPaths({ command: 'cat src/a.ts' }), []);
    assert.deepEqual(toolInputPaths({ file_path: 'x'.repeat(2000) }), []);
    assert.deepEqual(toolInputPaths({ file_path: 'a\0b' }), []);
    assert.deepEqual(toolInputPaths(['src/a.ts']), []);
    assert.equal(toolInputPaths({ files: Array.from({ length: 100 }, (_, i) => `f${i}.ts`) }).length, 20);
    const parsed = parseHookInput(
      JSON.stringify({
        session_id: 's',
        cwd: '/w',
        hook_event_name: 'PostToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: '/w/src/a.ts' },
        tool_response: {},
      }),
    );
    assert.deepEqual('problem' in parsed ? parsed : parsed.toolFiles, ['/w/src/a.ts']);
    // Other events carry no tool files, whatever their input holds.
    const prompt = parseHookInput(
      JSON.stringify({ cwd: '/w', hook_event_name: 'UserPromptSubmit', prompt: 'x', tool_input: { file_path: '/w/a' } }),
    );
    assert.ok(!('problem' in prompt) && prompt.toolFiles === undefined);
  });

  it('keeps workspace paths only, relative and redacted, newest first, bounded, per session', () => {
    const { ws, paths } = store();
    const key = 'sk-ant-api03-' + 'A'.repeat(90);
    recordToolFiles(paths, 's1', ws, [
      path.join(ws, 'src', 'a.ts'),
      '/etc/passwd',
      path.join(paths.root, 'facts.md'),
      '../outside.ts',
      `logs/${key}.txt`,
    ]);
    const recorded = recentToolFiles(paths, 's1');
    assert.equal(recorded[0], 'src/a.ts');
    assert.equal(recorded.length, 2);
    assert.match(recorded[1], /^logs\/\[REDACTED:[^\]]+\]\.txt$/);
    assert.ok(
      !fs.readFileSync(path.join(paths.cache, 'tool-files', fs.readdirSync(path.join(paths.cache, 'tool-files'))[0]), 'utf8').includes(key),
    );
    // Relative to the agent's folder; a file named again moves to the front.
    recordToolFiles(paths, 's1', path.join(ws, 'src'), ['b.ts', 'a.ts']);
    assert.deepEqual(recentToolFiles(paths, 's1').slice(0, 3), ['src/b.ts', 'src/a.ts', recorded[1]]);
    assert.deepEqual(recentToolFiles(paths, 's2'), []);
    for (let i = 0; i < 30; i++) recordToolFiles(paths, 's1', ws, [`f${i}.ts`]);
    const bounded = recentToolFiles(paths, 's1');
    assert.equal(bounded.length, MAX_RECENT_TOOL_FILES);
    assert.equal(bounded[0], 'f29.ts');
    // Nothing new named: the file is not rewritten.
    const file = path.join(paths.cache, 'tool-files', fs.readdirSync(path.join(paths.cache, 'tool-files'))[0]);
    const before = fs.statSync(file).mtimeMs;
    fs.utimesSync(file, new Date(1000), new Date(1000));
    assert.deepEqual(recordToolFiles(paths, 's1', ws, ['f29.ts', '/etc/hosts']), []);
    assert.equal(fs.statSync(file).mtimeMs, 1000);
    assert.ok(before > 1000);
  });

  it('keeps at most 100 sessions, dropping the oldest', () => {
    const { ws, paths } = store();
    for (let i = 0; i < 105; i++) {
      recordToolFiles(paths, `s${i}`, ws, ['a.ts']);
      const dir = path.join(paths.cache, 'tool-files');
      for (const name of fs.readdirSync(dir))
        if (fs.statSync(path.join(dir, name)).mtimeMs > 1e12) fs.utimesSync(path.join(dir, name), new Date(i * 1000), new Date(i * 1000));
    }
    assert.equal(fs.readdirSync(path.join(paths.cache, 'tool-files')).length, 100);
    assert.deepEqual(recentToolFiles(paths, 's0'), []);
    assert.deepEqual(recentToolFiles(paths, 's104'), ['a.ts']);
  });
});
