/**
 * Above the engine's base, files are written, moved, made and removed only through base's
 * writers, which refuse a symbolic link in the store (eslint.config.mjs, base/storeLinks.ts). If
 * the rule's globs drift, a raw fs write could come back unnoticed: this lints one line as if it
 * lived in each folder.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '..', '..', '..');

async function rawWriteFindings(file: string, call: string): Promise<number> {
  const eslint = new ESLint({ cwd: root });
  const source = `import * as fs from 'node:fs';\nexport function f(a: string, b: string): void {\n  ${call};\n}\n`;
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-properties').length;
}

describe('store writes go through the writers that refuse links (eslint.config.mjs)', function () {
  this.timeout(60000);

  const calls = ["fs.writeFileSync(a, 'x')", "fs.appendFileSync(a, 'x')", 'fs.renameSync(a, b)', 'fs.mkdirSync(a, { recursive: true })'];
  // Reads too: base's readers take a link out of the store for a missing file (base/readText.ts).
  const reads = ["fs.readFileSync(a, 'utf8')", "fs.openSync(a, 'r')", 'fs.createReadStream(a)'];
  const raw = [...calls, 'fs.copyFileSync(a, b)', 'fs.rmSync(a, { force: true })', 'fs.unlinkSync(a)', 'fs.rmdirSync(a)', ...reads];
  for (const file of ['src/core/store/x.ts', 'src/core/services/harvest/x.ts', 'src/server/x.ts', 'src/mcp/x.ts']) {
    for (const call of raw) {
      it(`refuses ${call} in ${file}`, async () => assert.equal(await rawWriteFindings(file, call), 1));
    }
  }
  for (const call of calls) {
    it(`allows ${call} in the base writers themselves`, async () => assert.equal(await rawWriteFindings('src/core/base/x.ts', call), 0));
  }
});
