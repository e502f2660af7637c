/**
 * Team memory through git, as a small team has it: a bare remote, three clones (alice, bob, carol,
 * each with their own git identity and `lore init` run once), and a seeded random interleaving of
 * harvests of each person's own conversations, notes (the same source file noted in several
 * clones), tidy, forgetting a teammate's conversation, supersede, review, commit, pull and push.
 * At the end every clone pulls and pushes until all are at one commit, and the store must be the
 * same everywhere with nothing lost, nothing twice, nothing forgotten coming back, no conflict at
 * any merge, and `git status` clean after commands that only read. A fourth clone without Lore
 * (no driver registered) must still merge the category files without conflict markers.
 *
 * Real git and the built CLI (dist/cli.js: `npm run build` first). Seeds: SEEDS below; more with
 * LORE_TEAM_SEEDS=11,12 or LORE_TEAM_RUNS=N (N random seeds, printed); LORE_TEAM_STEPS sets the
 * steps per seed. A failure names its seed and the steps that ran.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LORE } from './teamClone';
import {
  checkDerivedAndLedger,
  checkDriverRegistered,
  checkForgotten,
  checkKnowledge,
  checkNoConflictMarkers,
  checkNotes,
  checkReadOnlyCommands,
  checkSameEverywhere,
} from './teamChecks';
import { CONVERSATIONS, normalizeStatement } from './teamFixtures';
import { emptyExpected, harvest, harvestTheRest, noteTheSameFile, runRandomSteps, seededRandom, type StepContext } from './teamOps';
import { CATEGORY_FILES } from './teamStoreView';
import { cloneWithoutLore, converge, pull, push, setupTeam, type Team } from './teamSync';

const SEEDS = [1, 2, 3];
const STEPS = Number(process.env.LORE_TEAM_STEPS ?? 40);

function seedsToRun(): number[] {
  const extra = (process.env.LORE_TEAM_SEEDS ?? '')
    .split(',')
    .filter((s) => s.trim())
    .map(Number);
  const runs = Number(process.env.LORE_TEAM_RUNS ?? 0);
  const random = Array.from({ length: runs }, () => Math.floor(Math.random() * 2 ** 31));
  return [...SEEDS, ...extra, ...random];
}

/** The failure message: the seed to run again, every problem, and the steps that led there. */
function report(seed: number, team: Team, problems: string[]): string {
  const shown = problems.slice(0, 60);
  return [
    `team run with seed ${seed} (run again: LORE_TEAM_SEEDS=${seed}) found ${problems.length} problem(s):`,
    ...shown.map((p) => `  - ${p.replace(/\n/g, '\n      ')}`),
    ...(problems.length > shown.length ? [`  … and ${problems.length - shown.length} more`] : []),
    'steps:',
    ...team.log.map((l) => `  ${l}`),
  ].join('\n');
}

describe('a team shares one store through git', function () {
  // Real processes on a shared machine: about a minute per seed on 2 cores; the bound is for a loaded one.
  this.timeout(10 * 60_000);

  for (const seed of seedsToRun()) {
    it(`three clones, random harvests, notes, forgets and pulls, end with one store and no conflict (seed ${seed})`, () => {
      const team = setupTeam();
      const ctx: StepContext = { team, expected: emptyExpected(), random: seededRandom(seed) };
      noteTheSameFile(ctx);
      runRandomSteps(ctx, STEPS);
      harvestTheRest(ctx);
      converge(team);

      const problems = [...team.problems, ...checkSameEverywhere(team.clones)];
      for (const clone of team.clones) {
        problems.push(
          ...checkDriverRegistered(clone),
          ...checkNoConflictMarkers(clone),
          ...checkKnowledge(clone, ctx.expected),
          ...checkForgotten(clone, ctx.expected),
          ...checkNotes(clone, ctx.expected),
          ...checkDerivedAndLedger(clone),
          ...checkReadOnlyCommands(clone),
        );
      }
      assert.deepEqual(problems, [], report(seed, team, problems));
    });
  }

  it('a clone without Lore merges the category files without conflict markers (the union fallback)', () => {
    const team = setupTeam();
    const ctx: StepContext = { team, expected: emptyExpected(), random: seededRandom(0) };
    const [alice] = team.clones;
    harvest(
      alice,
      ctx,
      CONVERSATIONS.filter((c) => c.id === 'alice-cart'),
    );
    alice.commitAll('alice: first harvest');
    push(team, alice);

    // Dave never installed Lore: he adds a line to two category files by hand while alice harvests.
    const dave = cloneWithoutLore(team);
    assert.equal(dave.git('config', '--get', 'merge.lore.driver').stdout, '', 'dave has no driver');
    const byHand = { 'facts.md': '- the staging database is called lorestage', 'decisions.md': '- code review needs two approvals' };
    for (const [file, line] of Object.entries(byHand)) fs.appendFileSync(path.join(dave.store, file), `${line}\n`);
    dave.commitAll('dave: what I know, by hand');

    const late = CONVERSATIONS.find((c) => c.late)!;
    harvest(alice, ctx, [late]);
    alice.commitAll('alice: a late harvest');
    push(team, alice);

    const merged = dave.git('pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    const found: string[] = [];
    if (merged.code !== 0) found.push(`dave's pull exited ${merged.code}: ${(merged.stderr + merged.stdout).trim()}`);
    for (const file of CATEGORY_FILES) {
      const text = dave.read(file);
      if (/^(?:<{7}|>{7})/m.test(text)) found.push(`dave's ${file} has conflict markers:\n${text}`);
    }
    for (const [file, line] of Object.entries(byHand))
      if (!dave.read(file).includes(line)) found.push(`dave's own line is gone from ${file}: ${line}`);
    for (const s of late.statements) {
      const file = `${s.category}.md`;
      if (!normalizeStatement(dave.read(file)).includes(normalizeStatement(s.text)))
        found.push(`alice's "${s.text}" did not reach dave's ${file}`);
    }
    // Lore still reads what the union left (the ledger was changed on one side only).
    const dryRun = dave.lore(LORE.harvestDryRun());
    if (dryRun.code !== 0) found.push(`Lore refuses dave's merged store: ${dryRun.stderr.trim()}`);
    // Pushed back, a teammate with Lore takes dave's merge without trouble.
    if (merged.code === 0) {
      push(team, dave);
      pull(team, alice);
    }
    const problems = [...team.problems, ...found, ...checkNoConflictMarkers(alice)];
    assert.deepEqual(problems, [], problems.join('\n'));
  });
});
