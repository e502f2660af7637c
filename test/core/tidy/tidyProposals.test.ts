/** What `lore tidy` proposes for one file, without a model. */
import * as assert from 'node:assert/strict';
import { tidyProposals } from '../../../src/core/services/tidy/tidyProposals';

function propose(lines: string[], heading = '# Decisions') {
  return tidyProposals('decisions.md', `${heading}\n\n${lines.join('\n')}\n`);
}

describe('tidy proposals', () => {
  it('merges exact and near duplicates from several conversations into the oldest line, keeping every source', () => {
    const { merges, supersessions } = propose([
      '- Installs use pnpm instead of npm [from: c2, 2026-11-05]',
      '- use pnpm, not npm, for installs [from: c1, 2026-11-01]',
      '- Use pnpm, not npm, for installs [from: c3, 2026-11-07]',
      '- the CI runs on ubuntu-latest [from: c1, 2026-11-01]',
    ]);
    assert.deepEqual(supersessions, []);
    assert.equal(merges.length, 1);
    assert.equal(merges[0].keep.raw, '- use pnpm, not npm, for installs [from: c1, 2026-11-01]');
    assert.equal(merges[0].line, '- use pnpm, not npm, for installs [from: c1, 2026-11-01; c2, 2026-11-05; c3, 2026-11-07]');
    assert.equal(merges[0].drop.length, 2);
  });

  it('merges the same statement told with another final full stop or emphasis as an exact duplicate, one merge per statement', () => {
    const { merges } = propose([
      '- Use **pnpm**. [from: b, 2026-11-01]',
      '- use pnpm [from: a, 2026-11-01]',
      '- Use pnpm! [from: c, 2026-11-03]',
      '- use pnpm 9 [from: d, 2026-11-04]',
      '- Logs go to stderr. [from: a, 2026-11-02]',
      '- logs go to _stderr_ [from: e, 2026-11-05]',
    ]);
    assert.deepEqual(
      merges.map((m) => [m.line, m.similarity]),
      [
        ['- Use **pnpm**. [from: b, 2026-11-01; a, 2026-11-01; c, 2026-11-03]', 1],
        ['- Logs go to stderr. [from: a, 2026-11-02; e, 2026-11-05]', 1],
      ],
    );
  });

  it('never merges opposite statements: the newer one supersedes the older', () => {
    const { merges, supersessions } = propose([
      '- the staging database is safe to reset [from: c1, 2026-11-01]',
      '- the staging database is not safe to reset [from: c2, 2026-11-09]',
    ]);
    assert.deepEqual(merges, []);
    assert.equal(supersessions.length, 1);
    assert.equal(supersessions[0].reason, 'opposite');
    assert.match(supersessions[0].old.raw, /is safe/);
    assert.match(supersessions[0].by.raw, /not safe/);
  });

  it('an announced change on the same subject supersedes; an unrelated newer item does not', () => {
    const { supersessions } = propose([
      '- deploys go through Jenkins [from: c1, 2026-11-01]',
      '- the logo is blue [from: c1, 2026-11-01]',
      '- switched deploys from Jenkins to GitHub Actions [from: c4, 2026-11-10]',
      '- the docs site now uses Astro [from: c5, 2026-11-11]',
    ]);
    assert.deepEqual(
      supersessions.map((s) => [s.old.raw, s.reason]),
      [['- deploys go through Jenkins [from: c1, 2026-11-01]', 'change']],
    );
  });

  it('a newer playbook of the same name supersedes the older one', () => {
    const { supersessions } = tidyProposals(
      'playbooks.md',
      '# Playbooks\n\n- **release**: npm version -> git push [from: c1, 2026-11-01]\n- **release**: npm run check -> changeset publish [from: c2, 2026-11-08]\n',
    );
    assert.equal(supersessions.length, 1);
    assert.equal(supersessions[0].reason, 'playbook');
    assert.match(supersessions[0].old.raw, /npm version/);
  });

  it("leaves a person's own lines, superseded lines, and open against done tasks alone", () => {
    const { merges, supersessions } = tidyProposals(
      'tasks.md',
      [
        '# Tasks',
        '',
        '## Open',
        '',
        '- migrate the refund path to v3 [from: c1, 2026-11-01]',
        '- write the release notes',
        '',
        '## Done',
        '',
        '- migrate the refund path to v3 [from: c2, 2026-11-04]',
        '- write the release notes',
        '- old wording of a task [superseded by k3m9x2ab, 2026-11-02] [from: c1, 2026-11-01]',
        '- old wording of a task [from: c3, 2026-11-03]',
        '',
      ].join('\n'),
    );
    assert.deepEqual(merges, []);
    assert.deepEqual(supersessions, []);
  });
});
