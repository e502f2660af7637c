import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIGEST_HEADER, DIGEST_TRUNCATION_LINE, digestSections, regenerateDigest, renderDigest } from '../../../src/core/store/digest';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

describe('digest', () => {
  it('orders sections, lists newest first and leaves out done tasks and notes', () => {
    const sections = digestSections({
      tasks: '# Tasks\n\n## Open\n\n- t1 [from: a, 2026-01-01]\n- t2 [from: b, 2026-01-02]\n\n## Done\n\n- d1 [from: a, 2026-01-01]\n',
      questions: '# Questions\n\n- q1?\n',
      decisions: '# Decisions\n\n- dec1\n- dec2\n',
      facts: '# Facts\n\n- f1\n',
      playbooks: '# Playbooks\n\n- **p**: a -> b\n',
    });
    const text = renderDigest(sections)!;
    assert.equal(
      text,
      `${DIGEST_HEADER}\n\n## Open tasks\n- t2 [from: b, 2026-01-02]\n- t1 [from: a, 2026-01-01]\n\n## Open questions\n- q1?\n\n## Decisions\n- dec2\n- dec1\n\n## Facts\n- f1\n\n## Playbooks\n- **p**: a -> b\n`,
    );
    assert.ok(!text.includes('d1'));
  });

  it('stays within 4096 UTF-8 bytes with a visible truncation line', () => {
    const facts = '# Facts\n' + Array.from({ length: 400 }, (_, i) => `- fact ${i} with ünïcödé ✓ text [from: c${i}, 2026-01-01]`).join('\n');
    const text = renderDigest(digestSections({ facts }))!;
    assert.ok(Buffer.byteLength(text, 'utf8') <= 4096, String(Buffer.byteLength(text)));
    assert.ok(Buffer.byteLength(text, 'utf8') > 3900, 'uses the budget');
    assert.ok(text.endsWith(`\n${DIGEST_TRUNCATION_LINE}\n`));
    assert.match(text, /- fact 399 /, 'newest first');
    assert.ok(!text.includes('- fact 0 '));
  });

  it('is deleted when every section is empty and when disabled ("delete to turn off")', () => {
    const root = path.join(makeTempDir(), '.lore');
    fs.mkdirSync(root);
    const paths = storePaths(root);
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\n- one\n');
    assert.equal(regenerateDigest(paths).changed, true);
    assert.ok(fs.existsSync(paths.digest));
    assert.equal(regenerateDigest(paths).changed, false, 'unchanged text is not rewritten');
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\nonly prose\n');
    regenerateDigest(paths);
    assert.ok(!fs.existsSync(paths.digest));
    fs.writeFileSync(path.join(root, 'facts.md'), '# Facts\n\n- one\n');
    regenerateDigest(paths, { enabled: false });
    assert.ok(!fs.existsSync(paths.digest));
  });
});
