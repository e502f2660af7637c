/**
 * What the context hooks inject over a 20-prompt agent session (cache-friendly-context): the
 * tokens an agent is handed at SessionStart and with each UserPromptSubmit, against the baseline
 * of the same hooks giving the digest again with every prompt (what Lore did before: each copy
 * lands after the agent's cached prefix). Both in the same run, on a synthetic store shaped like a
 * project's (decisions, facts and playbooks on six subjects, notes on a dozen files, a 4 KB
 * digest, the search index), with prompts a developer types: naming files and subjects, coming
 * back to them, and small talk. Tokens are Lore's estimate (UTF-8 bytes / 4), as the context
 * budget counts them; the figures are a count, not a timing, so they are the same on any machine.
 * The hook's cost in time over a bare Node start is hookBench's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileHookContext } from '../src/core/services/hooks/hookContext';
import { sessionHookContext } from '../src/core/services/hooks/sessionContext';
import { SearchIndex } from '../src/core/services/search/searchIndex';
import { regenerateDigest } from '../src/core/store/digest';
import { addNotesToFile, resolveNoteTarget } from '../src/core/store/fileNotes';
import { ensureStoreLayout } from '../src/core/store/initStore';
import { storePaths } from '../src/core/store/storePaths';
import { estimateTokens } from '../src/core/model/tokens';
import { baselineOf, freshScratchDir, makeResult, type BenchContext, type BenchResult } from './benchSupport';

/** At most this share of the baseline's tokens (the digest alone is most of each baseline prompt). */
const RATIO_TARGET = 0.5;

/** Six subjects of a web service, each with decisions, facts, a playbook and the files it lives in. */
const SUBJECTS = [
  { word: 'release', files: ['src/release/publish.ts', 'scripts/tag.sh'] },
  { word: 'database', files: ['src/db/pool.ts', 'src/db/migrate.ts'] },
  { word: 'login', files: ['src/auth/session.ts', 'src/auth/oauth.ts'] },
  { word: 'invoice', files: ['src/billing/invoice.ts', 'src/billing/tax.ts'] },
  { word: 'search', files: ['src/search/query.ts', 'src/search/rank.ts'] },
  { word: 'cache', files: ['src/cache/redis.ts', 'src/cache/keys.ts'] },
];

const DETAILS = [
  'runs in CI before anything reaches production',
  'keeps a retry with exponential backoff capped at 30 seconds',
  'logs one structured line per request with the trace id',
  'was moved behind a feature flag during the 2.3 rollout',
  'must stay backwards compatible with the mobile client 4.x',
  'has its thresholds in config/limits.json, not in code',
  'is owned by the platform team, who review every change',
  'reads its secrets from the vault at start-up, never from env files',
];

function storeLines(): { decisions: string[]; facts: string[]; playbooks: string[] } {
  const decisions: string[] = [];
  const facts: string[] = [];
  const playbooks: string[] = [];
  SUBJECTS.forEach((s, i) => {
    DETAILS.forEach((d, j) => {
      const line = `- The ${s.word} code ${d} [from: c${i}${j}, 2026-11-${10 + ((i + j) % 18)}]`;
      (j % 2 ? facts : decisions).push(line);
    });
    playbooks.push(`- **${s.word}**: change ${s.files[0]}, run its tests, then ask the owners to review [from: p${i}, 2026-11-20]`);
  });
  return { decisions, facts, playbooks };
}

/** Twenty prompts of one session: files and subjects named, some asked about again, some small talk. */
const PROMPTS = [
  'The release failed last night. What does src/release/publish.ts do before tagging?',
  'How is the release tagged? Look at scripts/tag.sh too.',
  'ok, thanks',
  'Now the database: why does src/db/pool.ts retry connections?',
  'Add a column in src/db/migrate.ts for the invoice due date.',
  'How are invoice totals computed in src/billing/invoice.ts?',
  'And the tax rules in src/billing/tax.ts?',
  'run the tests',
  'The login page hangs; check src/auth/session.ts',
  'Does the oauth flow in src/auth/oauth.ts log the trace id?',
  'looks good, commit it',
  'Why is search slow? src/search/query.ts',
  'How does src/search/rank.ts order results, and is it behind a flag?',
  'What keys does src/cache/redis.ts use? See src/cache/keys.ts',
  'Is the cache backwards compatible with the mobile client?',
  'back to the release: who reviews changes to src/release/publish.ts?',
  'and the database retry backoff again?',
  'thanks',
  'Where are the login thresholds configured?',
  'Summarize what we changed today.',
];

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const ws = freshScratchDir(ctx, 'hook-session');
  const paths = storePaths(path.join(ws, '.lore'), ws);
  ensureStoreLayout(paths);
  const { decisions, facts, playbooks } = storeLines();
  fs.writeFileSync(path.join(paths.root, 'decisions.md'), `# Decisions\n\n${decisions.join('\n')}\n`);
  fs.writeFileSync(path.join(paths.root, 'facts.md'), `# Facts\n\n${facts.join('\n')}\n`);
  fs.writeFileSync(path.join(paths.root, 'playbooks.md'), `# Playbooks\n\n${playbooks.join('\n')}\n`);
  SUBJECTS.forEach((s, i) => {
    for (const file of s.files) {
      const absolute = path.join(ws, file);
      fs.mkdirSync(path.dirname(absolute), { recursive: true });
      fs.writeFileSync(absolute, `export const x = ${i};\n`);
      const target = resolveNoteTarget(paths, absolute);
      if (target.kind !== 'file') throw new Error(`${file}: ${target.kind}`);
      addNotesToFile(paths, target, [
        `- ${path.basename(file)} is where the ${s.word} code ${DETAILS[i % DETAILS.length]} [from: n${i}, 2026-11-21]`,
        `- ${path.basename(file)}: keep the public functions small; the ${s.word} tests cover them [from: n${i}, 2026-11-22]`,
      ]);
    }
  });
  regenerateDigest(paths);
  const index = SearchIndex.open(paths, { embedder: null });
  await index.update();
  index.close();

  const tokens = (text: string) => (text ? estimateTokens(text) : 0);
  const request = (prompt: string) => ({ event: 'UserPromptSubmit', prompt, cwd: ws });
  // Before: the start's digest, then the digest again (and everything matching) with every prompt.
  const start = compileHookContext(paths, { event: 'SessionStart', cwd: ws }).text;
  const before = [tokens(start), ...PROMPTS.map((p) => tokens(compileHookContext(paths, request(p)).text))];
  // After: the digest once, then what is new to the session.
  const session = 'bench-session';
  const after = [
    tokens(sessionHookContext(paths, { event: 'SessionStart', cwd: ws, sessionId: session, source: 'startup' }).text),
    ...PROMPTS.map((p) => tokens(sessionHookContext(paths, { ...request(p), sessionId: session }).text)),
  ];
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const baseline = baselineOf('digest with every prompt (before)', 'tokens', [sum(before)]);
  const empty = after.slice(1).filter((t) => t === 0).length;
  return [
    makeResult({
      name: `${PROMPTS.length}-prompt session, tokens injected: digest with every prompt (before)`,
      unit: 'tokens',
      samples: [sum(before)],
      notes: [`SessionStart ${before[0]} tokens; per prompt ${before.slice(1).join(', ')}`],
    }),
    makeResult({
      name: `${PROMPTS.length}-prompt session, tokens injected: digest once, then only what is new (after)`,
      unit: 'tokens',
      samples: [sum(after)],
      baseline,
      target: { on: 'ratio', op: '<=', threshold: RATIO_TARGET },
      notes: [
        `SessionStart ${after[0]} tokens (the same bytes as before: the cached prefix); per prompt ${after.slice(1).join(', ')}`,
        `${empty} of ${PROMPTS.length} prompts got nothing (nothing new); tokens are UTF-8 bytes / 4, as Lore's context budget counts them`,
        `store: ${decisions.length} decisions, ${facts.length} facts, ${playbooks.length} playbooks, notes on ${SUBJECTS.length * 2} files, digest ${fs.statSync(paths.digest).size} bytes, search index`,
      ],
    }),
  ];
}
