import * as fs from 'node:fs';
import * as path from 'node:path';
import { walkTree } from '../../src/core/base/walkTree';
import { REPO_ROOT } from './paths';

/** Texts of the files under `dir` (markdown, JSON, TypeScript, text, YAML; under 2 MB), at most `max`, in name order. */
export function textFiles(dir: string, max: number): string[] {
  const out: string[] = [];
  walkTree(dir, {
    sorted: true,
    enter: () => out.length < max,
    file: (entry, full) => {
      if (out.length >= max || !entry.isFile() || !/\.(?:md|jsonl?|ts|txt|ya?ml)$/.test(entry.name)) return;
      if (fs.statSync(full).size < 2_000_000) out.push(fs.readFileSync(full, 'utf8'));
    },
  });
  return out;
}

/**
 * Real text no rule was written for: the repository's docs, test fixtures and the model's sources.
 * The safety screens' tests check that a screen never changes what the full rules find in it.
 */
export function repositoryTexts(): string[] {
  return [
    ...textFiles(path.join(REPO_ROOT, 'docs'), 200),
    ...textFiles(path.join(REPO_ROOT, 'test', 'fixtures'), 2000),
    ...textFiles(path.join(REPO_ROOT, 'src', 'core', 'model'), 400),
  ];
}
