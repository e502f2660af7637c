/**
 * A small team on real git: a bare origin whose first commit holds a store, and one clone per
 * person with their own identity (what a teammate gets with git clone).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { storePaths, type StorePaths } from '../../src/core/store/storePaths';
import { gitIn } from './gitRepo';
import { makeTempDir } from './paths';

/** One person's clone of the team's repository, with the store in `.lore`. */
export interface Clone {
  dir: string;
  paths: StorePaths;
  /** Appends lines to a store file (creating it with a heading). */
  add(file: string, lines: string[]): void;
  commit(message: string): string;
}

function clone(origin: string, parent: string, name: string, email: string): Clone {
  const dir = path.join(parent, name.toLowerCase());
  gitIn(parent, 'clone', '-q', origin, dir);
  gitIn(dir, 'config', 'user.name', name);
  gitIn(dir, 'config', 'user.email', email);
  gitIn(dir, 'config', 'pull.rebase', 'false');
  const paths = storePaths(path.join(dir, '.lore'), dir);
  return {
    dir,
    paths,
    add(file, lines) {
      const absolute = path.join(paths.root, file);
      fs.mkdirSync(path.dirname(absolute), { recursive: true });
      if (!fs.existsSync(absolute)) fs.writeFileSync(absolute, `# ${path.basename(file, '.md')}\n\n`);
      fs.appendFileSync(absolute, lines.map((l) => `${l}\n`).join(''));
    },
    commit(message) {
      gitIn(dir, 'add', '-A');
      gitIn(dir, 'commit', '-q', '-m', message);
      return gitIn(dir, 'rev-parse', 'HEAD').trim();
    },
  };
}

/** A bare origin with a first commit holding an empty store, and a clone per person. */
export function team(...people: Array<[string, string]>): Clone[] {
  const parent = fs.realpathSync(makeTempDir('lore-team-'));
  const origin = path.join(parent, 'origin.git');
  gitIn(parent, 'init', '-q', '--bare', '-b', 'main', origin);
  const seed = path.join(parent, 'seed');
  gitIn(parent, 'clone', '-q', origin, seed);
  fs.mkdirSync(path.join(seed, '.lore', 'files'), { recursive: true });
  fs.writeFileSync(path.join(seed, '.lore', '.gitignore'), '.index/\n.cache/\n');
  fs.writeFileSync(path.join(seed, '.lore', 'facts.md'), '# Facts\n\n- the repo uses npm [from: ses-0, 2026-11-01]\n');
  gitIn(seed, '-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'add', '-A');
  gitIn(seed, '-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '-m', 'start');
  gitIn(seed, 'push', '-q', 'origin', 'main');
  return people.map(([name, email]) => clone(origin, parent, name, email));
}
