import * as fs from 'node:fs';
import * as path from 'node:path';
import { topicsDir } from '../../src/core/services/topics/loadTopics';
import { storePaths, type StorePaths } from '../../src/core/store/storePaths';
import { makeTempDir } from './paths';

/** A fresh workspace with a `.lore/topics/` folder holding the given files (name → text). */
export function storeWithTopics(files: Record<string, string>): StorePaths {
  const ws = makeTempDir('lore-topics-');
  const paths = storePaths(path.join(ws, '.lore'));
  fs.mkdirSync(topicsDir(paths), { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(topicsDir(paths), name), text);
  return paths;
}
