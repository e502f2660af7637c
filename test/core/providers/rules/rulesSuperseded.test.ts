import * as assert from 'node:assert/strict';
import {
  isChoiceReplaced,
  isTrivialDone,
  mayBeSuperseded,
  namedSubjects,
} from '../../../../src/core/services/providers/rules/rulesSuperseded';
import { readTranscript } from '../../../../src/core/services/providers/rules/rulesTranscript';
import { harvestOf } from './rulesSupport';

function statements(items: Array<{ statement: string }>): string[] {
  return items.map((item) => item.statement);
}

describe('rules extractor superseded work', () => {
  it('names the files, paths, identifiers and code spans a statement mentions', () => {
    assert.deepEqual(namedSubjects('Updated `update-paths.js` and src/app/main.py to call convertTocLinks'), [
      'update-paths.js',
      'src/app/main.py',
      'convertTocLinks'.toLowerCase(),
    ]);
    assert.deepEqual(namedSubjects('Pointed ESLint at the README'), ['eslint', 'readme']);
    assert.deepEqual(namedSubjects('Set it to `>=20.0.0` with `Update paths`'), []);
    assert.deepEqual(namedSubjects('The TOC was updated and the blog post reworded'), []);
  });

  it('leaves trivia edits and headings that announce a list out, and keeps real changes', () => {
    for (const statement of [
      'A console log was added to print the `relativeTestMd` path',
      'Added clear comments above each line in `test-toc-scripts.js`',
      'Added a `<br>` tag between the sentences',
      'Fixed typos in `README.md`',
      'Made the following changes to update the Mermaid workflow',
      'Made several improvements to the Git hooks',
      'Updated the Mermaid diagram with a progressive color palette',
      'Changed the `box-shadow` of `.card` to purple',
    ]) {
      assert.ok(isTrivialDone(statement), statement);
    }
    for (const statement of [
      'Added a module-level docstring to `src/main.py`',
      'Added `tsconfig.eslint.json` that includes the tests',
      'Removed the backup file creation from `update-paths.js`',
      'CLAUDE.md was created with documentation of the project structure',
      'Changed the UI font to Plus Jakarta Sans in `style.css`',
    ]) {
      assert.ok(!isTrivialDone(statement), statement);
    }
  });

  it('distrusts earlier work that names nothing, that many requests followed, or that a later request names again', () => {
    const transcript = readTranscript(
      [
        '## user', // 0
        'Add the export.',
        '## agent', // 1
        'Done.',
        '## user', // 2
        'Now change `export.ts` to write JSON.',
        '## agent', // 3
        'Done.',
        '## user', // 4
        'Thanks.',
        '## agent', // 5
        'Done.',
        '## user', // 6
        'Bye.',
      ].join('\n'),
    );
    assert.ok(mayBeSuperseded('Added the export to `export.ts`', 1, transcript), 'named again in a later request');
    assert.ok(mayBeSuperseded('Added the export feature', 3, transcript), 'names nothing');
    assert.ok(!mayBeSuperseded('Added `formatDate` to `dates.ts`', 3, transcript), 'two requests later, not named again');
    assert.ok(mayBeSuperseded('Added `formatDate` to `dates.ts`', 1, transcript), 'three requests followed');
  });

  it("keeps the last answer's work and drops work a later request replaced", async () => {
    const items = await harvestOf(
      [
        '## user',
        'Make the title use a gradient.',
        '## agent',
        "I've updated the `.gradient-text` class in `styles.css` to use a purple gradient.",
        '## user',
        'The `.gradient-text` should be blue, not purple.',
        '## agent',
        "I've changed the `.gradient-text` gradient in `styles.css` to blue.",
      ].join('\n'),
    );
    assert.deepEqual(statements(items.tasks_done), ['Changed the `.gradient-text` gradient in `styles.css` to blue']);
  });

  it('keeps work done just before a thank-you that does not touch it again', async () => {
    const items = await harvestOf(
      [
        '## user',
        'The server cannot see my files.',
        '## agent',
        'I changed the mount point to `/app/projects` so it stays under `/app`.',
        '## user',
        'Thanks, it works now.',
      ].join('\n'),
    );
    assert.deepEqual(statements(items.tasks_done), ['Changed the mount point to `/app/projects` so it stays under `/app`']);
  });

  it('drops a choice the person settles again later with the same verb, and keeps the last one standing', async () => {
    const transcript = readTranscript(
      [
        '## user',
        "let's use Graphik font instead",
        '## agent',
        'Graphik needs a licence.',
        '## user',
        "okay no licence, let's use Inter",
      ].join('\n'),
    );
    assert.ok(isChoiceReplaced('Use Graphik font instead', 0, transcript));
    assert.ok(!isChoiceReplaced('Rename session cd to dir', 0, transcript));
    const items = await harvestOf(
      ['## user', "let's use Graphik font instead", '## agent', 'Graphik needs a licence.', '## user', 'Thanks, that looks good.'].join(
        '\n',
      ),
    );
    assert.deepEqual(statements(items.decisions), ['Use Graphik font instead']);
    const replaced = await harvestOf(
      [
        '## user',
        "let's use Graphik font instead",
        '## agent',
        'Graphik needs a licence.',
        '## user',
        "okay no licence, let's use Inter",
      ].join('\n'),
    );
    assert.deepEqual(statements(replaced.decisions), []);
  });
});
