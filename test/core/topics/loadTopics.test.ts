import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { globToRegExp } from '../../../src/core/services/topics/globMatch';
import { loadTopics, topicsDir } from '../../../src/core/services/topics/loadTopics';
import { GuardedPattern, patternProblem } from '../../../src/core/services/topics/safeRegex';
import { matchTopics, prepareTopics } from '../../../src/core/services/topics/topicTiers';
import { storePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';
import { storeWithTopics } from '../../helpers/topicStores';

const DEPLOY = `---
type: topic
description: Deploying to production safely
triggers:
  - keywords: [deploy, rollback, "release train"]
  - pattern: "\\\\bprod(uction)?\\\\b"
    scope: both
  - glob: "deploy/**/*.yaml"
subscriptions:
  - docs/deploy.md
activation: gated
priority: high
max_context_kb: 2
---
# Deploying

Run the smoke tests before every rollout; never deploy on Fridays.
`;

describe('topic files', () => {
  it('parses a topic with its triggers, defaults and body', () => {
    const paths = storeWithTopics({
      'deploy.md': DEPLOY,
      'style.md': '---\ntriggers:\n  - pattern: "print "\n    scope: output\n---\nUse Python 3 print().\n',
    });
    const { topics, problems } = loadTopics(paths);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      topics.map((t) => t.name),
      ['deploy', 'style'],
    );
    const [deploy, style] = topics;
    assert.equal(deploy.description, 'Deploying to production safely');
    assert.deepEqual(
      deploy.triggers.map((t) => [t.kind, t.scope]),
      [
        ['keywords', 'input'],
        ['pattern', 'both'],
        ['glob', 'input'],
      ],
    );
    assert.equal(deploy.activation, 'gated');
    assert.equal(deploy.priority, 'high');
    assert.equal(deploy.maxContextBytes, 2048);
    assert.deepEqual(deploy.subscriptions, ['docs/deploy.md']);
    assert.match(deploy.body, /^# Deploying\n\nRun the smoke tests/);
    // Defaults of §2.2.
    assert.equal(style.activation, 'auto');
    assert.equal(style.priority, 'medium');
    assert.equal(style.similarityThreshold, 0.15);
    assert.equal(style.maxContextBytes, 4096);
    assert.equal(style.description, 'Use Python 3 print().');
  });

  it('matches keyword phrases across any whitespace', () => {
    const [deploy] = loadTopics(storeWithTopics({ 'deploy.md': DEPLOY })).topics;
    assert.equal(
      matchTopics(prepareTopics([deploy]), { text: 'when does the Release\n  Train leave?', scope: 'input' })[0].tier1?.matched,
      'release train',
    );
  });

  it('reads the long trigger form of the design ({type: pattern, match})', () => {
    const paths = storeWithTopics({
      'mail.md': '---\ntriggers:\n  - type: pattern\n    match: "email|inbox"\n    scope: input\n---\nMail.\n',
    });
    const [topic] = loadTopics(paths).topics;
    assert.equal(topic.triggers[0].kind, 'pattern');
  });

  it('names the file and the frontmatter line of a bad regex, and still loads the other topics', () => {
    const bad = '---\ndescription: broken\ntriggers:\n  - keywords: [a]\n  - pattern: "(unclosed"\n---\nBody.\n';
    const paths = storeWithTopics({ 'bad.md': bad, 'deploy.md': DEPLOY });
    const { topics, problems } = loadTopics(paths);
    assert.deepEqual(
      topics.map((t) => t.name),
      ['deploy'],
    );
    assert.equal(problems.length, 1);
    assert.equal(problems[0].file, 'topics/bad.md');
    assert.equal(problems[0].line, 5);
    assert.match(problems[0].message, /triggers\.1\.pattern "\(unclosed": invalid regular expression/);
  });

  it('reports YAML errors, wrong fields and unknown trigger kinds with their lines', () => {
    const paths = storeWithTopics({
      'a-yaml.md': '---\ntriggers:\n  - pattern: [unclosed\n---\nx\n',
      'b-field.md': '---\ndescription: x\npriority: urgent\n---\nx\n',
      'c-kind.md': '---\ntriggers:\n  - keywords: [x]\n  - webhook: email\n---\nx\n',
      'd-none.md': 'no frontmatter here\n',
      'e-escape.md': '---\nsubscriptions:\n  - ../../etc/passwd\n---\nx\n',
    });
    const { topics, problems } = loadTopics(paths);
    assert.deepEqual(topics, []);
    const byFile = Object.fromEntries(problems.map((p) => [p.file, p]));
    assert.match(byFile['topics/a-yaml.md'].message, /not valid YAML/);
    assert.ok(byFile['topics/a-yaml.md'].line! >= 3, `line ${byFile['topics/a-yaml.md'].line}`);
    assert.equal(byFile['topics/b-field.md'].line, 3);
    assert.match(byFile['topics/b-field.md'].message, /^priority: /);
    assert.equal(byFile['topics/c-kind.md'].line, 4);
    assert.match(byFile['topics/c-kind.md'].message, /a trigger is \{pattern/);
    assert.equal(byFile['topics/d-none.md'].line, 1);
    assert.equal(byFile['topics/e-escape.md'].line, 3);
    assert.match(byFile['topics/e-escape.md'].message, /must not leave the workspace/);
  });

  it('skips names that are not plain and symbolic links', () => {
    const paths = storeWithTopics({ 'ok.md': DEPLOY, 'we ird.md': DEPLOY });
    fs.symlinkSync(path.join(topicsDir(paths), 'ok.md'), path.join(topicsDir(paths), 'link.md'));
    const { topics, problems } = loadTopics(paths);
    assert.deepEqual(
      topics.map((t) => t.name),
      ['ok'],
    );
    assert.deepEqual(problems.map((p) => p.file).sort(), ['topics/link.md', 'topics/we ird.md']);
  });

  it("caches the parsed frontmatter by the file's hash, and parses a changed file again", () => {
    const paths = storeWithTopics({ 'deploy.md': DEPLOY, 'bad.md': '---\npriority: urgent\n---\nx\n' });
    assert.equal(loadTopics(paths).topics[0].body.startsWith('# Deploying'), true);
    const cacheFile = path.join(paths.cache, 'topics-parsed.json');
    const cached = JSON.parse(fs.readFileSync(cacheFile, 'utf8'));
    assert.deepEqual(Object.keys(cached.entries), ['deploy.md'], 'only valid topics are cached');
    // The next load takes the body from the cache (the file's bytes did not change).
    cached.entries['deploy.md'].content = 'From the cache.';
    fs.writeFileSync(cacheFile, JSON.stringify(cached));
    assert.equal(loadTopics(paths).topics[0].body, 'From the cache.');
    // A changed file is parsed again; a cache entry of the wrong shape is ignored.
    fs.writeFileSync(path.join(topicsDir(paths), 'deploy.md'), DEPLOY.replace('never deploy on Fridays', 'deploy any day'));
    assert.match(loadTopics(paths).topics[0].body, /deploy any day/);
    const again = JSON.parse(fs.readFileSync(cacheFile, 'utf8'));
    again.entries['deploy.md'].meta.triggers = 'not a list';
    fs.writeFileSync(cacheFile, JSON.stringify(again));
    assert.equal(loadTopics(paths).topics[0].triggers.length, 3);
    // A removed topic leaves the cache.
    fs.rmSync(path.join(topicsDir(paths), 'deploy.md'));
    loadTopics(paths);
    assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(cacheFile, 'utf8')).entries), []);
  });

  it('has no topics and no problems without a topics folder', () => {
    const ws = makeTempDir('lore-topics-');
    assert.deepEqual(loadTopics(storePaths(path.join(ws, '.lore'))), { topics: [], problems: [] });
  });
});

describe('topic patterns (untrusted regexes)', () => {
  it('match case-insensitively on bounded input, escapes kept as written', () => {
    assert.equal(new GuardedPattern('\\bDeploy\\b').match('Please DEPLOY now'), 'deploy');
    assert.equal(new GuardedPattern('\\S+@\\S+').match('mail A@B.org'), 'a@b.org');
    // Beyond the bound the pattern does not look.
    assert.equal(new GuardedPattern('needle').match('x'.repeat(9000) + 'needle'), undefined);
    assert.equal(new GuardedPattern('needle').match('needle' + 'x'.repeat(9000), 'end'), undefined);
    assert.equal(new GuardedPattern('needle').match('x'.repeat(9000) + 'needle', 'end'), 'needle');
  });

  it('run a catastrophic pattern in linear time instead of hanging', () => {
    const pattern = new GuardedPattern('(a+)+b');
    // On a backtracking engine this input takes longer than the age of the universe.
    assert.equal(pattern.match('a'.repeat(5000) + 'c'), undefined);
    assert.equal(pattern.slowMs, undefined);
    assert.equal(new GuardedPattern('(a|aa)*c').match('a'.repeat(8000)), undefined);
  });

  it('refuse backreferences and overlong patterns', () => {
    assert.match(patternProblem('(a)\\1')!, /backreference/);
    assert.match(patternProblem('x'.repeat(501))!, /longer than 500/);
    assert.match(patternProblem('[')!, /invalid regular expression/);
    assert.equal(patternProblem('\\b(email|inbox|mail)\\b'), undefined);
  });
});

describe('topic globs', () => {
  it('match base names anywhere without a slash, whole paths with one', () => {
    assert.ok(globToRegExp('*.py').test('src/tools/run.py'));
    assert.ok(!globToRegExp('*.py').test('src/tools/run.pyc'));
    assert.ok(globToRegExp('deploy/**/*.yaml').test('deploy/prod/eu/app.yaml'));
    assert.ok(globToRegExp('deploy/**/*.yaml').test('deploy/app.yaml'));
    assert.ok(!globToRegExp('deploy/**/*.yaml').test('other/deploy/app.yaml'));
    assert.ok(globToRegExp('src/*.{ts,tsx}').test('src/app.tsx'));
    assert.ok(!globToRegExp('src/*.ts').test('src/sub/app.ts'));
    assert.ok(globToRegExp('docs/?.md').test('docs/a.md'));
  });
});
