/**
 * The team around one bare remote, and how its clones exchange work: commit, pull (a real merge)
 * and push (pulling again when the remote moved on). Whatever goes wrong is recorded as a problem
 * and the run goes on, so one run reports every kind of failure, not only the first: a conflict is
 * recorded and then resolved as a person in a hurry would (keeping both sides' lines).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../helpers/paths';
import { Clone, LORE, gitAt, reconcileAfterMerge, teamEnv, type RunResult } from './teamClone';
import { PEOPLE, SOURCE_FILES, type Person } from './teamFixtures';

export class Team {
  readonly problems: string[] = [];
  /** What each step did, for the failure message. */
  readonly log: string[] = [];
  step = 0;

  constructor(
    readonly dir: string,
    readonly remote: string,
    readonly env: NodeJS.ProcessEnv,
    readonly clones: Clone[],
  ) {}

  problem(clone: Clone | undefined, text: string): void {
    this.problems.push(`step ${this.step}${clone ? ` (${clone.person})` : ''}: ${text}`);
  }

  /** Records a Lore or git run that should have succeeded. */
  expectOk(clone: Clone, what: string, r: RunResult): boolean {
    if (r.code === 0) return true;
    this.problem(clone, `${what} exited ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    return false;
  }

  remoteHead(): string {
    return this.clones[0].gitOk('ls-remote', 'origin', 'refs/heads/main').split(/\s/)[0];
  }
}

/**
 * A bare remote; alice starts the project (source files, `lore init`, first push); bob and carol
 * clone it and each run `lore init` once, the one command the README gives a teammate.
 */
export function setupTeam(): Team {
  const dir = makeTempDir('lore-team-');
  const emptyGitConfig = path.join(dir, 'gitconfig');
  fs.writeFileSync(emptyGitConfig, '');
  const env = teamEnv(emptyGitConfig);
  const remote = path.join(dir, 'remote.git');
  fs.mkdirSync(remote);
  gitAt(remote, env, 'init', '-q', '--bare', '-b', 'main');

  const clones: Clone[] = [];
  const team = new Team(dir, remote, env, clones);
  const [founder, ...others] = PEOPLE;
  const alice = new Clone(founder, path.join(dir, founder), env);
  fs.mkdirSync(alice.ws);
  alice.gitOk('init', '-q', '-b', 'main');
  identify(alice);
  for (const [file, text] of Object.entries(SOURCE_FILES)) {
    fs.mkdirSync(path.dirname(path.join(alice.ws, file)), { recursive: true });
    fs.writeFileSync(path.join(alice.ws, file), text);
  }
  alice.commitAll('the project starts');
  team.expectOk(alice, 'lore init (founder)', alice.lore(LORE.init()));
  alice.commitAll('a Lore store for the team');
  alice.gitOk('remote', 'add', 'origin', remote);
  alice.gitOk('push', '-q', '-u', 'origin', 'main');
  clones.push(alice);

  for (const person of others) clones.push(joinTeam(team, person));
  return team;
}

/** A teammate clones the repository and runs `lore init` once; a fresh clone's init leaves `git status` as it was. */
function joinTeam(team: Team, person: Person): Clone {
  const clone = new Clone(person, path.join(team.dir, person), team.env);
  gitAt(team.dir, team.env, 'clone', '-q', team.remote, clone.ws);
  identify(clone);
  team.expectOk(clone, 'lore init in a fresh clone', clone.lore(LORE.init()));
  const status = clone.status();
  if (status) team.problem(clone, `lore init in a fresh clone changed what git sees:\n${status}`);
  return clone;
}

/** A clone of someone who never installed Lore: no `lore init`, so no merge driver in its git config. */
export function cloneWithoutLore(team: Team): Clone {
  const clone = new Clone('dave', path.join(team.dir, 'dave'), team.env);
  gitAt(team.dir, team.env, 'clone', '-q', team.remote, clone.ws);
  identify(clone);
  return clone;
}

function identify(clone: Clone): void {
  clone.gitOk('config', 'user.name', clone.person[0].toUpperCase() + clone.person.slice(1));
  clone.gitOk('config', 'user.email', `${clone.person}@team.example`);
}

/** Lines git leaves in a file it could not merge. */
const CONFLICT_MARKER = /^(?:<{7}|>{7}|\|{7})(?: |$)/m;

/** Tracked files of the clone that hold conflict markers. */
export function filesWithConflictMarkers(clone: Clone): string[] {
  const r = clone.git('grep', '-l', '-I', '-E', '^(<{7}|>{7}|[|]{7})( |$)');
  return r.stdout.split('\n').filter(Boolean);
}

/**
 * Commits the clone's work and merges the remote into it. A merge that changed HEAD is followed by
 * the reconcile of derived files and a commit of what it changed.
 */
export function pull(team: Team, clone: Clone): void {
  clone.commitAll(`${clone.person}: work in progress`);
  const before = clone.head();
  const r = clone.git('pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
  if (r.code !== 0) {
    const unmerged = clone.git('diff', '--name-only', '--diff-filter=U').stdout.split('\n').filter(Boolean);
    if (unmerged.length === 0) {
      team.problem(clone, `git pull failed: ${r.stderr.trim()}`);
      return;
    }
    team.problem(clone, `merge conflict in ${unmerged.join(', ')}`);
    keepBothSides(clone, unmerged);
    clone.gitOk('add', '-A');
    clone.gitOk('commit', '-q', '--no-edit');
  } else {
    const marked = filesWithConflictMarkers(clone);
    if (marked.length) team.problem(clone, `a merge git reported clean left conflict markers in ${marked.join(', ')}`);
  }
  if (clone.head() === before) return;
  team.expectOk(clone, 'reconcile after merge', reconcileAfterMerge(clone));
  clone.commitAll(`${clone.person}: derived files after the merge`);
}

/** Resolves conflicts by dropping the markers (both sides' lines stay), as `git checkout --union` would. */
function keepBothSides(clone: Clone, files: string[]): void {
  for (const file of files) {
    const full = path.join(clone.ws, file);
    if (!fs.existsSync(full)) continue;
    const text = fs.readFileSync(full, 'utf8');
    if (!CONFLICT_MARKER.test(text)) continue;
    const kept = text
      .split('\n')
      .filter((line) => !/^(?:<{7}|>{7}|\|{7})(?: |$)/.test(line) && line !== '=======')
      .join('\n');
    fs.writeFileSync(full, kept);
  }
}

/** Pushes the clone's commits; when the remote moved on, pulls and tries again. */
export function push(team: Team, clone: Clone): void {
  for (let attempt = 0; attempt < 5; attempt++) {
    const r = clone.git('push', '-q', 'origin', 'HEAD:main');
    if (r.code === 0) return;
    if (!/rejected|fetch first|non-fast-forward/.test(r.stderr)) {
      team.problem(clone, `git push failed: ${r.stderr.trim()}`);
      return;
    }
    pull(team, clone);
  }
  team.problem(clone, 'git push was still rejected after 5 pulls');
}

/** Every clone commits, pulls and pushes until all are at the remote's commit with nothing left to commit. */
export function converge(team: Team): void {
  for (let round = 0; round < 6; round++) {
    for (const clone of team.clones) {
      pull(team, clone);
      push(team, clone);
    }
    const remote = team.remoteHead();
    if (team.clones.every((c) => c.head() === remote && c.status() === '')) return;
  }
  team.problem(
    undefined,
    `the clones did not reach one commit in 6 rounds of pull and push: ${team.clones.map((c) => `${c.person} ${c.head().slice(0, 8)}`).join(', ')}`,
  );
}
