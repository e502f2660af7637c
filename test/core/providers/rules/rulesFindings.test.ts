import * as assert from 'node:assert/strict';
import {
  announcedFinding,
  findingOf,
  isDiscoveryAnnouncement,
  isReviewOpinion,
} from '../../../../src/core/services/providers/rules/rulesFindings';
import { harvestOf } from './rulesSupport';

describe('rules extractor findings', () => {
  it('reads conclusions an agent states', () => {
    assert.deepEqual(findingOf('The test fails because the fixture clock is set in UTC.'), {
      statement: 'The test fails because the fixture clock is set in UTC',
      causal: true,
    });
    assert.equal(
      findingOf('The root cause is a stale lockfile in packages/api.')?.statement,
      'The root cause is a stale lockfile in packages/api',
    );
    assert.equal(findingOf('It turns out that vitest runs the suites in parallel.')?.statement, 'Vitest runs the suites in parallel');
    assert.deepEqual(findingOf('The API base URL is configured in config/default.json.'), {
      statement: 'The API base URL is configured in config/default.json',
      causal: false,
    });
    assert.equal(
      findingOf('So, the build breaks because esbuild does not bundle .node files.')?.statement,
      'The build breaks because esbuild does not bundle .node files',
    );
  });

  it('reads causes stated as "was due to", "stems from", "occurs when" and after "I see that"', () => {
    assert.equal(
      findingOf('The issue you were experiencing was due to a compatibility problem between standard 16 and Node 22.')?.statement,
      'The issue you were experiencing was due to a compatibility problem between standard 16 and Node 22',
    );
    assert.equal(
      findingOf('I see that the flaky failures stem from overlays left in document.body.')?.statement,
      'The flaky failures stem from overlays left in document.body',
    );
    assert.equal(findingOf('The error occurs because the HTML reporter cannot handle browser tests.')?.causal, true);
    assert.equal(findingOf('The crash was due to a missing null check in mirror().')?.causal, true);
    assert.equal(findingOf('The mirror crash comes from the missing null check in src/canvas-transforms.js.')?.causal, true);
  });

  it('leaves out the error of the moment that the sentence never names, and requests in the imperative', () => {
    assert.equal(findingOf('The error is coming from src/canvas-transforms.js line 63.'), undefined);
    assert.equal(findingOf('The failure only appears when `--reporter=html` is present.'), undefined);
    assert.equal(findingOf('The error occurs because the HTML reporter cannot handle browser tests.')?.causal, true);
    assert.equal(findingOf('Create a simple frontend that reads the results from results/results.json.'), undefined);
    assert.equal(findingOf('The table reads the results from results/results.json.'), undefined);
    assert.equal(findingOf('The timeout comes from the proxy in front of the API.')?.causal, true);
  });

  it('leaves out what went wrong with one try, and keeps the cause of a named failure', () => {
    for (const sentence of [
      'The bash attempt reached WSL but failed because `/bin/bash` is missing inside that WSL environment.',
      'The previous error was due to a formatting issue in the edit tool, not the code itself.',
      'My first attempt failed because the port was busy.',
    ]) {
      assert.equal(findingOf(sentence), undefined, sentence);
    }
    assert.equal(
      findingOf('The release build fails because `strip` is missing on the runner.')?.statement,
      'The release build fails because `strip` is missing on the runner',
    );
  });

  it("tells a reviewer's verdict on a proposal from a fact of the code", async () => {
    assert.ok(isReviewOpinion('The plan does not cover the content lifecycle that `Knowledge` relies on'));
    assert.ok(isReviewOpinion('`image`/`audio` as three optional fields is not the best fit for the embedder contract'));
    assert.ok(!isReviewOpinion('`hasattr` is not a valid capability check here: the base `Embedder` defines these methods'));
    assert.ok(!isReviewOpinion('The planner service is configured in `config/planner.yaml`'));
    const items = await harvestOf(
      [
        '## agent',
        '## Findings',
        '- The plan does not cover the content lifecycle of `Knowledge`.',
        '- Fixing only `PgVector` is not enough: Qdrant extracts `doc.content` the same way.',
      ].join('\n'),
    );
    assert.deepEqual(
      items.facts.map((f) => f.statement),
      ['Fixing only `PgVector` is not enough: Qdrant extracts `doc.content` the same way.'],
    );
  });

  it('reads the sentence after "Found it." as the finding, when it states one', async () => {
    assert.ok(isDiscoveryAnnouncement('I found exactly how it works.'));
    assert.ok(isDiscoveryAnnouncement('Found the issue:'));
    assert.ok(!isDiscoveryAnnouncement('I found the file and read it.'));
    assert.equal(announcedFinding('Let me check the flag next.'), undefined);
    assert.equal(announcedFinding('It works.'), undefined);
    const items = await harvestOf(
      [
        '## user',
        'How do I point login at another cloud?',
        '## agent',
        'I found exactly how it works. The CLI has a hidden `--cloud-url` flag that overrides the default base URL.',
        'I found the config. Let me read it.',
      ].join('\n'),
    );
    assert.deepEqual(
      items.facts.map((f) => f.statement),
      ['The CLI has a hidden `--cloud-url` flag that overrides the default base URL'],
    );
  });

  it('reads "only appears when" as a finding, "appears to" as a hedge', () => {
    assert.equal(findingOf('The HTML reporter crash only appears when `--reporter=html` is present.')?.causal, true);
    assert.equal(findingOf('The failure appears to happen when the reporter is html.'), undefined);
  });

  it('leaves vague locations of a problem and vague limitations out', () => {
    assert.equal(findingOf('The problem is in how the configuration is being parsed.'), undefined);
    assert.equal(findingOf('There is no clear indication that a list command exists.'), undefined);
    assert.equal(findingOf("There's no way that is currently possible."), undefined);
  });

  it('keeps the correction, not the finding it corrects', async () => {
    const items = await harvestOf(
      [
        '## user',
        'Why does the build fail?',
        '## agent',
        'The build fails because the lockfile is stale.',
        '## user',
        'Regenerated it, still failing.',
        '## agent',
        'Actually, the problem is that esbuild does not bundle .node files.',
      ].join('\n'),
    );
    assert.deepEqual(
      items.facts.map((f) => f.statement),
      ['The problem is that esbuild does not bundle .node files'],
    );
  });

  it('reads a limitation that names what is missing', () => {
    assert.equal(
      findingOf('There is no way to make `npm version` ignore tracked changes in one folder.')?.statement,
      'There is no way to make `npm version` ignore tracked changes in one folder',
    );
    assert.equal(
      findingOf("No — there's no `specstory skills pull` command on any branch.")?.statement,
      "There's no `specstory skills pull` command on any branch",
    );
    // A limitation is a conclusion like a cause: "actually, there is" later takes it back.
    assert.equal(findingOf('There is no way to make `npm version` skip a folder.')?.causal, true);
  });

  it('leaves hypotheses, plans, questions and pronoun subjects out', () => {
    for (const sentence of [
      'The test probably fails because the clock is in UTC.',
      'Maybe the root cause is the lockfile.',
      'I think the build breaks because of esbuild.',
      'Let me check whether the config is defined in config/default.json.',
      'Is the API base URL configured in config/default.json?',
      'This fails because the file is missing.',
      'The tests pass now.',
    ])
      assert.equal(findingOf(sentence), undefined, sentence);
  });

  it('keeps a finding from an agent turn as a fact', async () => {
    const items = await harvestOf(
      '## user\nwhy does CI fail?\n\n## agent\n> [tool:Bash] npm test → exit 1\nThe snapshot test fails because the CI runner has a different locale. I set LANG in the workflow.\n',
    );
    assert.deepEqual(items.facts, [{ statement: 'The snapshot test fails because the CI runner has a different locale' }]);
  });

  it('drops a conclusion the conversation takes back', async () => {
    const retractedByAgent = await harvestOf(
      "## user\nwhy does CI fail?\n\n## agent\nThe root cause is the cache key in the workflow.\n\n## agent\nThat wasn't it: the real cause is the runner image.\n",
    );
    assert.deepEqual(retractedByAgent.facts, []);
    const retractedByPerson = await harvestOf(
      '## user\nwhy does CI fail?\n\n## agent\nThe job fails because the cache key changed.\n\n## user\nstill failing, same error\n\n## agent\nLooking again.\n',
    );
    assert.deepEqual(retractedByPerson.facts, []);
  });

  it('keeps a conclusion that was not taken back, and says a repeated one once', async () => {
    const items = await harvestOf(
      '## user\nwhere is the port set?\n\n## agent\nThe port is configured in server/config.ts.\n\n## user\nthanks\n\n## agent\nAs said, the port is configured in server/config.ts.\n',
    );
    assert.deepEqual(items.facts, [{ statement: 'The port is configured in server/config.ts' }]);
  });

  it('reads no finding from an agent reasoning about the request', async () => {
    const items = await harvestOf(
      "## user\nwrite the PRD\n\n## agent\nOkay, let's tackle this. The problem is that large canvases are slow to scroll.\n",
    );
    assert.deepEqual(items.facts, []);
  });
});
