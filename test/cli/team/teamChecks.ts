/**
 * The end state a team must reach, checked in every clone: one commit and one store everywhere,
 * no conflict markers, nothing lost, nothing twice, every source kept, forgotten conversations
 * gone for good, derived files up to date, the merge driver registered, and `git status` clean
 * after commands that only read. Each check returns the problems it found.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LORE, type Clone } from './teamClone';
import { CONVERSATIONS, SOURCE_FILES, normalizeStatement, teachersOf, type Statement } from './teamFixtures';
import type { Expected } from './teamOps';
import { categoryItems, noteFiles } from './teamStoreView';
import { filesWithConflictMarkers } from './teamSync';

type Problems = string[];

/** Every clone at the same commit, nothing to commit, the same store tree and digest. */
export function checkSameEverywhere(clones: Clone[]): Problems {
  const problems: Problems = [];
  const first = clones[0];
  for (const clone of clones) {
    const status = clone.status();
    if (status) problems.push(`${clone.person}: git status is not clean at the end:\n${status}`);
    if (clone.head() !== first.head()) problems.push(`${clone.person}: at ${clone.head()}, ${first.person} at ${first.head()}`);
    const tree = clone.gitOk('rev-parse', 'HEAD:.lore').trim();
    if (tree !== first.gitOk('rev-parse', 'HEAD:.lore').trim())
      problems.push(`${clone.person}: its .lore tree differs from ${first.person}'s`);
    if (clone.read('digest.md') !== first.read('digest.md')) problems.push(`${clone.person}: its digest.md differs from ${first.person}'s`);
  }
  return problems;
}

/** `lore init` registered the driver in the clone's own git configuration, and the store names it (with a union fallback). */
export function checkDriverRegistered(clone: Clone): Problems {
  const problems: Problems = [];
  const driver = clone.git('config', '--get', 'merge.lore.driver').stdout.trim();
  if (!driver) problems.push(`${clone.person}: no merge.lore.driver in the clone's git config after lore init`);
  // The path git gives is relative to the clone's folder.
  const infoAttributes = path.resolve(clone.ws, clone.gitOk('rev-parse', '--git-path', 'info/attributes').trim());
  const local = fs.existsSync(infoAttributes) ? fs.readFileSync(infoAttributes, 'utf8') : '';
  if (!/merge=lore/.test(local)) problems.push(`${clone.person}: $GIT_DIR/info/attributes does not name merge=lore`);
  const shared = clone.read('.gitattributes');
  if (!/merge=union/.test(shared))
    problems.push(`${clone.person}: .lore/.gitattributes has no merge=union fallback for people without Lore`);
  return problems;
}

export function checkNoConflictMarkers(clone: Clone): Problems {
  const marked = filesWithConflictMarkers(clone);
  return marked.length ? [`${clone.person}: conflict markers in ${marked.join(', ')}`] : [];
}

/** How a statement must end up, from what the steps did. */
type Fate = 'live' | 'superseded' | 'in review' | 'gone';

function fateOf(statement: Statement, expected: Expected): Fate {
  const key = normalizeStatement(statement.text);
  const taughtBy = teachersOf(statement.text).filter((c) => expected.harvested.has(c.id));
  if (taughtBy.length === 0 || taughtBy.every((c) => expected.forgotten.has(c.id))) return 'gone';
  if (statement.flagged) {
    const decision = expected.decided.get(key);
    return decision === 'accept' ? 'live' : decision === 'reject' ? 'gone' : 'in review';
  }
  return expected.superseded.has(key) ? 'superseded' : 'live';
}

/** Nothing lost, nothing twice, every source kept, and what was superseded, held or forgotten where it belongs. */
export function checkKnowledge(clone: Clone, expected: Expected): Problems {
  const problems: Problems = [];
  const items = categoryItems(clone);
  const review = normalizeStatement(clone.read('review.md'));
  const seen = new Map<string, number>();
  for (const item of items) {
    const key = `${item.file}\0${item.statement}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const [key, count] of seen)
    if (count > 1) problems.push(`${clone.person}: duplicated, ${count} lines in ${key.replace('\0', ': "')}"`);

  const statements = new Map<string, Statement>();
  for (const c of CONVERSATIONS) for (const s of c.statements) statements.set(normalizeStatement(s.text), s);
  for (const [key, statement] of statements) {
    const fate = fateOf(statement, expected);
    const lines = items.filter((i) => i.statement === key);
    const live = lines.filter((i) => !i.superseded);
    const says = (what: string) => problems.push(`${clone.person}: "${statement.text}" ${what}`);
    if (fate === 'live') {
      if (live.length === 0) says(lines.length ? 'is marked superseded, but nobody superseded it' : 'is lost (harvested, never forgotten)');
      const wanted = teachersOf(statement.text)
        .filter((c) => expected.harvested.has(c.id) && !expected.forgotten.has(c.id))
        .map((c) => c.id);
      const sources = new Set(live.flatMap((i) => i.sources));
      const missing = wanted.filter((id) => !sources.has(id));
      if (live.length > 0 && missing.length) says(`lost the source(s) ${missing.join(', ')} (has ${[...sources].join(', ')})`);
    } else if (fate === 'superseded') {
      if (lines.length === 0) says('is lost (superseded lines stay, marked)');
      else if (live.length > 0) says('was superseded, but a line of it is live');
    } else if (fate === 'in review') {
      if (live.length > 0) says('is held for review, but a line of it is live in a category file');
      if (!review.includes(key)) says('is held for review, but review.md does not list it');
    } else if (lines.length > 0 || (statement.flagged && review.includes(key))) {
      says(
        `should be gone (${expected.decided.get(key) === 'reject' ? 'rejected in review' : 'its conversations were forgotten'}), but is still there`,
      );
    }
  }
  return problems;
}

/** A forgotten conversation leaves no statement and no provenance in any file the store shares. */
export function checkForgotten(clone: Clone, expected: Expected): Problems {
  const problems: Problems = [];
  const files = clone.trackedStoreFiles().filter((f) => f !== 'ledger.json');
  const texts = new Map(files.map((f) => [f, normalizeStatement(clone.read(f))]));
  for (const id of expected.forgotten) {
    const conversation = CONVERSATIONS.find((c) => c.id === id)!;
    for (const s of conversation.statements) {
      const key = normalizeStatement(s.text);
      const holders = files.filter((f) => texts.get(f)!.includes(key));
      if (holders.length) problems.push(`${clone.person}: forgotten "${s.text}" (${id}) is still in ${holders.join(', ')}`);
    }
    const naming = files.filter((f) => texts.get(f)!.includes(`[from: ${id},`) || texts.get(f)!.includes(`; ${id},`));
    if (naming.length) problems.push(`${clone.person}: forgotten conversation ${id} is still named in ${naming.join(', ')}`);
  }
  return problems;
}

/** Every note is there, once, and each source file has one note file. */
export function checkNotes(clone: Clone, expected: Expected): Problems {
  const problems: Problems = [];
  const files = noteFiles(clone);
  for (const source of Object.keys(SOURCE_FILES)) {
    const holders = files.filter((f) => f.path === source);
    if (holders.length > 1)
      problems.push(`${clone.person}: ${holders.length} note files for ${source}: ${holders.map((f) => f.name).join(', ')}`);
    const notes = holders.flatMap((f) => f.notes);
    for (const { text } of expected.notes.filter((n) => n.file === source)) {
      const count = notes.filter((n) => n === normalizeStatement(text)).length;
      if (count === 0) problems.push(`${clone.person}: the note "${text}" on ${source} is lost`);
      if (count > 1) problems.push(`${clone.person}: the note "${text}" on ${source} is there ${count} times`);
    }
  }
  return problems;
}

/** digest.md is what the category files give, and the ledger is one Lore accepts. */
export function checkDerivedAndLedger(clone: Clone): Problems {
  const problems: Problems = [];
  const digest = clone.lore(LORE.digest());
  if (digest.code !== 0) problems.push(`${clone.person}: lore digest exited ${digest.code}: ${digest.stderr.trim()}`);
  else if (JSON.parse(digest.stdout).changed)
    problems.push(`${clone.person}: digest.md was stale after the merges (lore digest rewrote it)`);
  const dryRun = clone.lore(LORE.harvestDryRun());
  if (dryRun.code !== 0)
    problems.push(`${clone.person}: a harvest dry run (which checks ledger.json) exited ${dryRun.code}: ${dryRun.stderr.trim()}`);
  return problems;
}

/** Commands that only read leave `git status` as it was (no note renamed, no derived file rewritten). */
export function checkReadOnlyCommands(clone: Clone): Problems {
  const problems: Problems = [];
  const anItem = categoryItems(clone).find((i) => !i.superseded);
  const [aFile] = Object.keys(SOURCE_FILES);
  const commands: string[][] = [
    LORE.search('redis'),
    LORE.context(aFile, 'how are cart totals computed?'),
    ...Object.keys(SOURCE_FILES).map((f) => LORE.notes(f)),
    LORE.review(),
    LORE.journal(),
    LORE.harvestDryRun(),
    LORE.digest(),
    ...(anItem ? [LORE.history(anItem.id), LORE.item(anItem.id)] : []),
  ];
  for (const args of commands) {
    const before = clone.status();
    const r = clone.lore(args);
    if (r.code !== 0) problems.push(`${clone.person}: lore ${args.join(' ')} exited ${r.code}: ${r.stderr.trim().split('\n').pop()}`);
    const after = clone.status();
    if (after !== before) problems.push(`${clone.person}: lore ${args.join(' ')} changed git status:\n${after}`);
  }
  return problems;
}
