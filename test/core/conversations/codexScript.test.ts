import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scriptCalls } from '../../../src/core/services/conversations/codexScript';
import { importConversation } from '../../../src/core/services/conversations/detect';
import { renderTranscript } from '../../../src/core/services/conversations/renderTranscript';
import { FIXTURES } from '../../helpers/paths';

/*
 * codex-code-mode.jsonl is written by hand in the shape of a current Codex rollout in code mode:
 * the agent's tool calls are `custom_tool_call` items named `exec` whose input is a JavaScript
 * program (`await tools.exec_command({...})`, `tools.apply_patch("…")`, an MCP tool, a first-line
 * `// @exec:` pragma, `Promise.all`), answered by `custom_tool_call_output` items holding a list of
 * text parts. The shapes follow openai/codex's code-mode tool and scripts seen in public rollouts;
 * the content is invented.
 */
const CODE_MODE = path.join(FIXTURES, 'conversations', 'codex-code-mode.jsonl');

describe('Codex scripts read as the tool calls they make', () => {
  it('finds code mode’s tools.x(…) and js_repl’s codex.tool("x", …) calls with their literal arguments', () => {
    assert.deepEqual(
      scriptCalls(
        [
          '// @exec: {"yield_time_ms": 10000}',
          'const r = await tools.exec_command({cmd: "npm test", "workdir": \'/w\', yield_time_ms: 30000, prefix_rule: ["npm", "test"]});',
          'text(r.output); // tools.not_a_call({cmd: "x"})',
          'text("tools.exec_command({cmd: \\"quoted\\"})");',
          'await tools.apply_patch("*** Begin Patch\\n*** Add File: a.md\\n+x\\n*** End Patch\\n");',
          'const out = await codex.tool("view_image", { path: `/tmp/shot.png` });',
        ].join('\n'),
      ),
      [
        { name: 'exec_command', input: { cmd: 'npm test', workdir: '/w', prefix_rule: ['npm', 'test'] } },
        { name: 'apply_patch', input: '*** Begin Patch\n*** Add File: a.md\n+x\n*** End Patch\n' },
        { name: 'view_image', input: { path: '/tmp/shot.png' } },
      ],
    );
  });

  it('names a call whose arguments are computed, without guessing them', () => {
    assert.deepEqual(
      scriptCalls('for (const f of files) await tools.exec_command({cmd, workdir: dir, ...rest}); await tools.list_mcp_resources();'),
      [
        { name: 'exec_command', input: {} },
        { name: 'list_mcp_resources', input: undefined },
      ],
    );
    assert.deepEqual(scriptCalls('await tools.exec_command({cmd: `rg ${pattern}`})'), [{ name: 'exec_command', input: {} }]);
  });

  it('stops on broken scripts instead of looping', () => {
    for (const broken of ['tools.exec_command({cmd: "a" )', 'tools.x([1, )', 'tools.x({a: [', 'codex.tool(', 'tools.x("unclosed']) {
      assert.ok(Array.isArray(scriptCalls(broken)), broken);
    }
  });

  it('renders a code-mode rollout as its commands and edits, in order, without the programs around them', () => {
    const conv = importConversation(CODE_MODE, fs.readFileSync(CODE_MODE, 'utf8'));
    assert.equal(conv.format, 'codex');
    const transcript = renderTranscript(conv);
    const toolLines = transcript.split('\n').filter((line) => line.startsWith('> ['));
    assert.deepEqual(toolLines, [
      '> [tool:exec_command] rg -n "exportPath" src',
      '> [tool:exec_command] Get-Content src/export.ts -TotalCount 80',
      '> [tool:exec_command] npm test -- export',
      '> [tool:apply_patch] src/export.ts',
      '> [tool:exec_command] rg -n "\\+ \'/\' \\+" src',
      '> [tool:exec_command] npm test -- export',
      '> [tool:mcp__github__search_issues] export windows path',
    ]);
    for (const boilerplate of ['await', 'tools.', 'text(', 'yield_time_ms', 'Script completed', 'Begin Patch']) {
      assert.ok(!transcript.includes(boilerplate), `${boilerplate} is in the transcript`);
    }
    // The agent's words stay before the calls they announce.
    assert.ok(transcript.indexOf("I'll find where the export path is built") < transcript.indexOf('rg -n "exportPath" src'));
  });

  it('keeps a script that calls no tool as one line, as before', () => {
    const raw = [
      { timestamp: '2026-11-20T09:00:00.000Z', type: 'session_meta', payload: { id: 's-js', timestamp: '2026-11-20T09:00:00.000Z' } },
      {
        timestamp: '2026-11-20T09:00:01.000Z',
        type: 'response_item',
        payload: { type: 'custom_tool_call', call_id: 'c', name: 'exec', input: 'text(6 * 7);' },
      },
    ];
    const conv = importConversation('/s/rollout-js.jsonl', raw.map((r) => JSON.stringify(r)).join('\n'));
    assert.deepEqual(conv.turns[0]?.tools, ['[tool:exec] text(6 * 7);']);
  });
});
