/**
 * Agents' writes by id while a person saves facts.md from another process: real processes and
 * real waits (Lore's settle watch must see the other process's saves as they land).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changeItem, type AgentWriteContext } from '../../../src/core/store/items/agentWrites';
import { itemId } from '../../../src/core/model/itemId';
import { ensureStoreLayout } from '../../../src/core/store/initStore';
import { regenerateDigest } from '../../../src/core/store/digest';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';
import { startHandEditor, unexplainedHandLoss } from '../../helpers/startHandEditor';

const TODAY = new Date('2026-11-27T10:00:00Z');
const direct: AgentWriteContext = { source: 'claude-code:s1', today: TODAY, mode: 'direct' };

const JENKINS = '- deploys go through Jenkins [from: c1, 2026-11-20]';
const TASK = '- migrate the refund path [from: c2, 2026-11-21]';

/** The store of test/core/knowledge/agentWrites.test.ts. */
function setup(): { paths: StorePaths; read: (f: string) => string } {
  const ws = makeTempDir();
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
  const paths = storePaths(path.join(ws, '.lore'), ws);
  ensureStoreLayout(paths);
  fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${JENKINS}\n- the build uses esbuild [from: c1, 2026-11-20]\n`);
  fs.writeFileSync(path.join(paths.root, 'tasks.md'), `# Tasks\n\n## Open\n\n${TASK}\n\n## Done\n\n- old one [from: c0, 2026-11-01]\n`);
  regenerateDigest(paths);
  return { paths, read: (f) => fs.readFileSync(path.join(paths.root, f), 'utf8') };
}

describe("agents' writes by id against a person saving in another process", () => {
  // Appends (O_APPEND). An append that lands between Lore's version check and its rename is the one
  // loss POSIX allows (no compare-and-swap rename; see guardedReplace.ts and docs/reliability.md): on a busy
  // machine that gap can stretch, so a lost hand line is excused only when both processes' traces
  // put its save inside a Lore check-then-rename span. Any other loss fails.
  for (const mode of ['append'])
    it(`a person saving facts.md every 3 ms (${mode}) while agents update and forget by id loses no line outside the rename gap`, async function () {
      // Under load each of the 30 changes waits for a save and a settle: minutes, not seconds (no time is asserted).
      this.timeout(300_000);
      const { paths, read } = setup();
      const lines = Array.from({ length: 30 }, (_, i) => `- fact ${i} about orders [from: c${i}, 2026-11-20]`);
      fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${lines.join('\n')}\n`);
      const stopFile = path.join(paths.root, '..', 'stop');
      const editorTrace = path.join(paths.root, '..', 'editor.trace');
      const loreTrace = path.join(paths.root, '..', 'lore.trace');
      process.env.LORE_TEST_REPLACE_TRACE = loreTrace;
      const editor = startHandEditor(path.join(paths.root, 'facts.md'), mode, stopFile, editorTrace);
      const results: string[] = [];
      // Each change waits for the person's next save, so every change meets a file being saved,
      // however the two processes are scheduled.
      const handSaves = () => (read('facts.md').match(new RegExp(`^- hand ${mode} \\d+$`, 'gm')) ?? []).length;
      let seen = 0;
      const nextSave = async () => {
        const until = Date.now() + 10_000;
        while (handSaves() <= seen && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 1));
        seen = handSaves();
      };
      try {
        for (let i = 0; i < 30; i++) {
          await nextSave();
          const op =
            i % 2 === 0
              ? { op: 'update' as const, id: itemId(lines[i]), text: `fact ${i} about orders, updated` }
              : { op: 'forget' as const, id: itemId(lines[i]) };
          // A file that never holds still makes Lore give up cleanly (FileBusyError), as a harvest does.
          const result = await changeItem(paths, op, direct).catch((error: Error) => ({
            status: /kept changing while Lore was updating it/.test(error.message) ? 'busy' : error.message,
            reason: undefined,
          }));
          results.push(`${i}: ${result.status} ${result.reason ?? ''}`.trim());
        }
      } finally {
        fs.writeFileSync(stopFile, '');
        delete process.env.LORE_TEST_REPLACE_TRACE;
      }
      const saved = await editor;
      assert.deepEqual(
        results.filter((r) => !/^\d+: (recorded|busy)$/.test(r)),
        [],
      );
      assert.ok(results.filter((r) => r.endsWith('recorded')).length >= 10, results.join(', '));
      const final = new Set(read('facts.md').split('\n'));
      assert.ok(saved > 20, `the editor saved only ${saved} times`);
      const lost = Array.from({ length: saved }, (_, n) => n).filter((n) => !final.has(`- hand ${mode} ${n}`));
      assert.deepEqual(
        unexplainedHandLoss(lost, editorTrace, loreTrace).unexplained,
        [],
        `hand lines lost outside a rename gap (of ${saved} saves)`,
      );
      for (let i = 0; i < 30; i++) {
        if (results[i].endsWith('busy')) {
          assert.ok(final.has(lines[i]), `item ${i}: given up, so left as it was`);
          continue;
        }
        assert.equal(final.has(lines[i]), false, `item ${i} still as it was`);
        if (i % 2 === 0) assert.ok(final.has(`- fact ${i} about orders, updated [from: c${i}, 2026-11-27]`), `update ${i} lost`);
      }
    });
});
