import * as fs from 'node:fs';
import * as path from 'node:path';
import { storePaths, type StorePaths } from '../../src/core/store/storePaths';
import { FIXTURES, makeTempDir } from './paths';

/** The fixture task logs (test/fixtures/tasks/logs). */
export const TASK_FIXTURE_LOGS = path.join(FIXTURES, 'tasks', 'logs');

/** A fresh store whose tasks/ holds copies of the fixture task logs. */
export function fixtureTaskStore(): StorePaths {
  const paths = storePaths(path.join(makeTempDir(), '.lore'));
  fs.mkdirSync(path.join(paths.root, 'tasks'), { recursive: true });
  for (const name of fs.readdirSync(TASK_FIXTURE_LOGS))
    fs.copyFileSync(path.join(TASK_FIXTURE_LOGS, name), path.join(paths.root, 'tasks', name));
  return paths;
}
