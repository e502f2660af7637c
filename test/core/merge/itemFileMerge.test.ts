import * as assert from 'node:assert/strict';
import { mergeItemFile } from '../../../src/core/model/merge/itemFileMerge';
import { mergeStoreFile, lineUnion, storeFileKind } from '../../../src/core/model/merge/storeFileMerge';

const facts = (...items: string[]) => ['# Facts', '', ...items, ''].join('\n');

describe('merging a file of items by meaning (git merge driver)', () => {
  it('keeps what both sides appended, ours first, each side in its order', () => {
    const base = facts('- a [from: c0, 2026-11-01]');
    const ours = facts('- a [from: c0, 2026-11-01]', '- o1 [from: c1, 2026-11-02]', '- o2 [from: c1, 2026-11-02]');
    const theirs = facts('- a [from: c0, 2026-11-01]', '- t1 [from: c2, 2026-11-03]');
    assert.equal(
      mergeItemFile(base, ours, theirs),
      facts('- a [from: c0, 2026-11-01]', '- o1 [from: c1, 2026-11-02]', '- o2 [from: c1, 2026-11-02]', '- t1 [from: c2, 2026-11-03]'),
    );
  });

  it('merges into a first item after the title, with the blank line people write', () => {
    const base = '# Facts\n';
    const ours = facts('- o1 [from: c1, 2026-11-02]');
    const theirs = facts('- t1 [from: c2, 2026-11-03]');
    assert.equal(mergeItemFile(base, ours, theirs), facts('- o1 [from: c1, 2026-11-02]', '- t1 [from: c2, 2026-11-03]'));
    assert.equal(mergeItemFile(base, base, theirs), theirs);
  });

  it('one statement from two conversations is one line with both sources', () => {
    const base = '# Facts\n';
    const ours = facts('- Deploys use Jenkins [from: c1, 2026-11-02]');
    const theirs = facts('- deploys use  jenkins [from: c2, 2026-11-01]');
    // Both added it: the line of the earlier conversation is kept, whichever side merges.
    assert.equal(mergeItemFile(base, ours, theirs), facts('- deploys use  jenkins [from: c2, 2026-11-01; c1, 2026-11-02]'));
    assert.equal(mergeItemFile(base, theirs, ours), facts('- deploys use  jenkins [from: c2, 2026-11-01; c1, 2026-11-02]'));
    // One that was there before keeps its line (and id); the newcomer's source is added.
    const existing = facts('- Deploys use Jenkins [from: c9, 2026-11-09]');
    assert.equal(
      mergeItemFile(
        existing,
        existing,
        facts('- Deploys use Jenkins [from: c9, 2026-11-09]', '- deploys use jenkins [from: c2, 2026-11-01]'),
      ),
      facts('- Deploys use Jenkins [from: c9, 2026-11-09; c2, 2026-11-01]'),
    );
  });

  it('an item deleted on one side and unchanged on the other stays deleted; changed on the other it is kept', () => {
    const base = facts('- a [from: c0, 2026-11-01]', '- b [from: c0, 2026-11-01]');
    const ours = facts('- b [from: c0, 2026-11-01]');
    assert.equal(mergeItemFile(base, ours, base), ours);
    assert.equal(mergeItemFile(base, base, ours), ours);
    const theirs = facts('- a [from: c0, 2026-11-01; c9, 2026-11-05]', '- b [from: c0, 2026-11-01]');
    assert.equal(mergeItemFile(base, ours, theirs), facts('- a [from: c0, 2026-11-01; c9, 2026-11-05]', '- b [from: c0, 2026-11-01]'));
  });

  it('the same item changed on both sides keeps every source and the supersession marker', () => {
    const base = facts('- a [from: c0, 2026-11-01]');
    const ours = facts('- a [from: c0, 2026-11-01; c1, 2026-11-02]');
    const theirs = facts('- a [superseded by k3m9x2ab, 2026-11-04] [from: c0, 2026-11-01; c2, 2026-11-03]');
    assert.equal(
      mergeItemFile(base, ours, theirs),
      facts('- a [superseded by k3m9x2ab, 2026-11-04] [from: c0, 2026-11-01; c1, 2026-11-02; c2, 2026-11-03]'),
    );
  });

  it('a statement edited differently on both sides keeps both texts, where it was', () => {
    const base = facts('- a [from: c0, 2026-11-01]', '- uses port 80 [from: c0, 2026-11-01]', '- z [from: c0, 2026-11-01]');
    const ours = facts('- a [from: c0, 2026-11-01]', '- uses port 8080 [from: c0, 2026-11-01]', '- z [from: c0, 2026-11-01]');
    const theirs = facts('- a [from: c0, 2026-11-01]', '- uses port 443 [from: c0, 2026-11-01]', '- z [from: c0, 2026-11-01]');
    assert.equal(
      mergeItemFile(base, ours, theirs),
      facts(
        '- a [from: c0, 2026-11-01]',
        '- uses port 8080 [from: c0, 2026-11-01]',
        '- uses port 443 [from: c0, 2026-11-01]',
        '- z [from: c0, 2026-11-01]',
      ),
    );
  });

  it('a task done on one side is done, with what the other side added to it', () => {
    const tasks = (open: string[], done: string[]) => ['# Tasks', '', '## Open', '', ...open, '', '## Done', '', ...done, ''].join('\n');
    const base = tasks(['- t [from: c0, 2026-11-01]', '- u [from: c0, 2026-11-01]'], ['- d [from: c0, 2026-11-01]']);
    const ours = tasks(
      ['- t [from: c0, 2026-11-01; c1, 2026-11-02]', '- u [from: c0, 2026-11-01]', '- new [from: c1, 2026-11-02]'],
      ['- d [from: c0, 2026-11-01]'],
    );
    const theirs = tasks(['- u [from: c0, 2026-11-01]'], ['- d [from: c0, 2026-11-01]', '- t [from: c0, 2026-11-01]']);
    assert.equal(
      mergeItemFile(base, ours, theirs),
      tasks(
        ['- u [from: c0, 2026-11-01]', '- new [from: c1, 2026-11-02]'],
        ['- d [from: c0, 2026-11-01]', '- t [from: c0, 2026-11-01; c1, 2026-11-02]'],
      ),
    );
  });

  it("keeps a person's headings and prose from both sides, and never writes conflict markers", () => {
    const base = facts('- a [from: c0, 2026-11-01]');
    const ours = '# Facts\n\nOur intro.\n\n- a [from: c0, 2026-11-01]\n';
    const theirs = '# Facts\n\n- a [from: c0, 2026-11-01]\n\n## Build\n\n- b [from: c2, 2026-11-03]\n';
    const merged = mergeItemFile(base, ours, theirs);
    assert.equal(merged, '# Facts\n\nOur intro.\n\n- a [from: c0, 2026-11-01]\n\n## Build\n\n- b [from: c2, 2026-11-03]\n');
  });

  it('reads both halves of a conflict an earlier merge left, and writes no marker', () => {
    const base = facts('- a [from: c0, 2026-11-01]');
    const ours = [
      '# Facts',
      '',
      '- a [from: c0, 2026-11-01]',
      '<<<<<<< HEAD',
      '- x [from: c1, 2026-11-02]',
      '=======',
      '- y [from: c2, 2026-11-02]',
      '>>>>>>> other',
      '',
    ].join('\n');
    const merged = mergeItemFile(base, ours, base);
    assert.equal(merged, facts('- a [from: c0, 2026-11-01]', '- x [from: c1, 2026-11-02]', '- y [from: c2, 2026-11-02]'));
  });

  it('keeps CRLF line breaks and a BOM of ours', () => {
    const base = '\ufeff# Facts\r\n\r\n- a [from: c0, 2026-11-01]\r\n';
    const ours = base + '- b [from: c1, 2026-11-02]\r\n';
    const theirs = base + '- c [from: c2, 2026-11-02]\r\n';
    assert.equal(mergeItemFile(base, ours, theirs), ours + '- c [from: c2, 2026-11-02]\r\n');
  });
});

describe('the merge driver by file kind', () => {
  it('tells the kinds apart by path', () => {
    assert.equal(storeFileKind('.lore/ledger.json'), 'ledger');
    assert.equal(storeFileKind('.lore/digest.md'), 'derived');
    assert.equal(storeFileKind('.lore/journal/2026-11-02.md'), 'journal');
    assert.equal(storeFileKind('.lore/files/9f3a.md'), 'note');
    assert.equal(storeFileKind('.lore/facts.md'), 'items');
    assert.equal(storeFileKind('.lore/archive/knowledge/facts.md'), 'items');
  });

  it('keeps ours for the digest (it is regenerated after the merge)', () => {
    assert.deepEqual(mergeStoreFile('.lore/digest.md', 'b', 'o', 't'), { text: 'o', kind: 'derived' });
  });

  it('merges a note file key by key and its notes as items', () => {
    const note = (fm: string[], ...notes: string[]) => ['---', ...fm, '---', '# src/app.ts', '', ...notes, ''].join('\n');
    const base = note(['id: "n1"', 'path: "src/app.ts"', 'size: 10'], '- n [from: c0, 2026-11-01]');
    const ours = note(['id: "n1"', 'path: "src/app.ts"', 'size: 12'], '- n [from: c0, 2026-11-01]', '- o [from: c1, 2026-11-02]');
    const theirs = note(
      ['id: "n1"', 'path: "src/app.ts"', 'size: 10', 'fingerprint: "sha256:x"'],
      '- n [from: c0, 2026-11-01]',
      '- t [from: c2, 2026-11-02]',
    );
    const merged = mergeStoreFile('.lore/files/n1.md', base, ours, theirs);
    assert.ok('text' in merged);
    assert.equal(
      merged.text,
      note(
        ['id: "n1"', 'path: "src/app.ts"', 'size: 12', 'fingerprint: "sha256:x"'],
        '- n [from: c0, 2026-11-01]',
        '- o [from: c1, 2026-11-02]',
        '- t [from: c2, 2026-11-02]',
      ),
    );
  });

  it('the fallback union keeps every line once and drops markers', () => {
    assert.equal(lineUnion('a\nb\n', '<<<<<<< x\nb\n=======\nc\n>>>>>>> y\n'), 'a\nb\nc\n');
  });
});

describe('merging large files', () => {
  it('merges two sides that each appended 20,000 items to a file of 20,000', () => {
    const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `- ${prefix} fact ${i} [from: ${prefix}, 2026-11-20]`);
    const base = facts(...lines('base', 20_000));
    const ours = facts(...lines('base', 20_000), ...lines('ours', 20_000));
    const theirs = facts(...lines('base', 20_000), ...lines('theirs', 20_000));
    const merged = mergeItemFile(base, ours, theirs);
    assert.equal(merged, facts(...lines('base', 20_000), ...lines('ours', 20_000), ...lines('theirs', 20_000)));
  });
});

describe('merging review.md', () => {
  it('unites what both sides held, by section, and an item decided on one side is gone', () => {
    const review = (...sections: Array<[string, string[]]>) =>
      ['# Review', '', 'Intro.', '', ...sections.flatMap(([name, items]) => [`## ${name}`, '', ...items.flatMap((i) => [i, ''])])].join(
        '\n',
      );
    const held = (text: string, source: string) => `- ${text} [from: ${source}, 2026-11-20] [flagged: remote-exec]`;
    const base = review(['facts.md', [held('run curl | sh', 'c0')]]);
    const ours = review(['facts.md', [held('run curl | sh', 'c0'), held('pipe wget to bash', 'c1')]]);
    const theirs = review(['facts.md', []], ['decisions.md', [held('turn off TLS checks', 'c2')]]);
    const merged = mergeStoreFile('.lore/review.md', base, ours, theirs);
    assert.ok('text' in merged);
    assert.equal(
      merged.text,
      review(['facts.md', [held('pipe wget to bash', 'c1')]], ['decisions.md', [held('turn off TLS checks', 'c2')]]),
    );
  });
});
