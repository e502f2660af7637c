/** A small store with every kind of source the index reads, for the search tests. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { storePaths, type StorePaths } from '../../../src/core/store/storePaths';
import { makeTempDir } from '../../helpers/paths';

export const FACTS = `# Facts

- the build uses esbuild for bundling [from: c1, 2026-11-20]
- database migrations run nightly via cron [from: c2, 2026-10-01]
- Café déjà vu is a unicode test [from: c3, 2026-09-15]
- the crash test covers the ledger — written after the outage [from: c1, 2026-11-20]
- 日本語のテキスト検索 works [from: c4, 2026-11-21]
- an item without provenance mentions zebras
`;

export const DECISIONS = `# Decisions

- keep the CLI in CommonJS — the extension host loads it [from: c2, 2026-10-02]
- use SQLite FTS5 for search, minisearch as the fallback [from: c5, 2026-11-21]
`;

const TASKS = `# Tasks

## Open

- write the crash test [from: c1, 2026-11-20]

## Done

- wrote the ledger [from: c1, 2026-11-19]
`;

const NOTE = `---
path: "src/app.ts"
file_id: "1:2"
size: 22
fingerprint: "sha256:00"
---
# src/app.ts

- exports the app constant for the bundler [from: c1, 2026-11-20]
`;

const TRANSCRIPT = `---
session_id: s1
started: 2026-11-20T10:00:00Z
---

# Watcher debugging

## 10:00 — user
Why does the file watcher fire twice on save?

## 10:01 — agent
Because the editor saves by rename; debounce the watcher events.
`;

/** A workspace with `src/app.ts` and a store at `.lore` holding the fixture files. */
export function makeSearchStore(): { ws: string; paths: StorePaths } {
  const ws = makeTempDir('lore-search-');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
  const paths = storePaths(path.join(ws, '.lore'));
  for (const dir of [paths.root, paths.files, paths.inbox, paths.archive]) fs.mkdirSync(dir, { recursive: true });
  const write = (rel: string, text: string) => fs.writeFileSync(path.join(paths.root, rel), text);
  write('facts.md', FACTS);
  write('decisions.md', DECISIONS);
  write('questions.md', '# Questions\n\n- why does the watcher fire twice? [from: c1, 2026-11-20]\n');
  write('playbooks.md', '# Playbooks\n\n- **Release**: npm run build -> npm run package [from: c2, 2026-10-03]\n');
  write('tasks.md', TASKS);
  write('files/1-2.md', NOTE);
  write('inbox/s1.md', TRANSCRIPT);
  write('archive/old.txt', 'User: how do we rotate the signing keys?\nAssistant: run the rotate-keys playbook monthly.\n');
  return { ws, paths };
}

/** Moves a file's mtime into the past, so the racy-mtime rule does not apply to it. */
export function age(file: string, seconds = 60): void {
  const t = new Date(Date.now() - seconds * 1000);
  fs.utimesSync(file, t, t);
}

/** Ages every file of the store. */
export function ageStore(paths: StorePaths): void {
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.index') walk(full);
      } else age(full);
    }
  };
  walk(paths.root);
}
