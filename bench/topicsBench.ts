/**
 * Topics and the context compiler:
 *  1. tiers 1 and 2 for one message against 200 topics (patterns on the linear-time engine,
 *     keyword lists, globs, TF-IDF similarity and routing), against a bare baseline: one plain
 *     precompiled `RegExp.test` per topic on the same message. Target: under 1 ms per message.
 *  2. compiling an 8K-token context from a 10,000-item store: the matching items found in the
 *     store's SQLite index (as the hook and `lore context` do), a 4 KB digest, the notes of 5
 *     files, 3 active topics with subscriptions and 40 turns of history, filled by slot into the
 *     budget; against a bare baseline: buildContext of the same parts with no budget. Target:
 *     under 5 ms.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildContext } from '../src/core/services/context/buildContext';
import { compileContext, type CompileInput } from '../src/core/services/context/compileContext';
import { knowledgeHits } from '../src/core/services/hooks/hookContext';
import { SearchIndex } from '../src/core/services/search/searchIndex';
import { storePaths } from '../src/core/store/storePaths';
import { loadTopics, topicsDir } from '../src/core/services/topics/loadTopics';
import { matchTopics, prepareTopics } from '../src/core/services/topics/topicTiers';
import { generateLargeStore } from '../test/server/largeStore';
import {
  SeededRandom,
  baselineOf,
  formatNumber,
  freshScratchDir,
  makeResult,
  repeat,
  scratchDir,
  type BenchContext,
  type BenchResult,
} from './benchSupport';

const TOPICS = 200;
/** Messages per timed sample: one takes microseconds. */
const MESSAGES_PER_SAMPLE = 200;
const SAMPLES = 15;
const STORE_FILES = 1000;
const NOTES_PER_FILE = 10;
const COMPILES_PER_SAMPLE = 20;
const SPEC = `${STORE_FILES} files × ${NOTES_PER_FILE} notes, old mtimes, index`;

const VOCABULARY = [
  'deploy',
  'rollback',
  'cache',
  'schema',
  'migration',
  'index',
  'search',
  'token',
  'budget',
  'prompt',
  'hook',
  'session',
  'digest',
  'ledger',
  'harvest',
  'review',
  'python',
  'typescript',
  'sqlite',
  'release',
  'staging',
  'pipeline',
  'test',
  'lint',
  'format',
  'docker',
  'kubernetes',
  'terraform',
  'secret',
  'redact',
  'provider',
  'gate',
];

function words(rand: SeededRandom, n: number): string {
  return Array.from({ length: n }, () => rand.pick(VOCABULARY)).join(' ');
}

function topicFile(rand: SeededRandom, i: number): string {
  const kind = i % 3;
  const trigger =
    kind === 0
      ? `  - pattern: "\\\\b${rand.pick(VOCABULARY)}(s|ing)?\\\\b"`
      : kind === 1
        ? `  - keywords: [${words(rand, 4).split(' ').join(', ')}]`
        : `  - glob: "src/${rand.pick(VOCABULARY)}/**/*.ts"`;
  return `---\ntriggers:\n${trigger}\n  - pattern: "${rand.pick(VOCABULARY)} ${rand.pick(VOCABULARY)}"\n    scope: output\nactivation: ${rand.pick(['auto', 'gated'])}\npriority: ${rand.pick(['low', 'medium', 'high', 'critical'])}\n---\n# Topic ${i}\n\n${words(rand, 40)}.\n`;
}

async function tiersBench(ctx: BenchContext): Promise<BenchResult[]> {
  const ws = freshScratchDir(ctx, 'topics-tiers');
  const paths = storePaths(path.join(ws, '.lore'));
  fs.mkdirSync(topicsDir(paths), { recursive: true });
  const rand = new SeededRandom(16);
  for (let i = 0; i < TOPICS; i++)
    fs.writeFileSync(path.join(topicsDir(paths), `topic-${String(i).padStart(3, '0')}.md`), topicFile(rand, i));
  const { topics, problems } = loadTopics(paths);
  if (topics.length !== TOPICS) throw new Error(`${problems.length} topics did not load: ${problems[0]?.message}`);
  const prepared = prepareTopics(topics);
  // Prompts as people write them: a couple of domain words among ordinary ones.
  const messages = Array.from(
    { length: MESSAGES_PER_SAMPLE },
    () =>
      `Could you look at the ${words(rand, 2)} problem in src/${rand.pick(VOCABULARY)}/app.ts? It broke yesterday after the meeting, and the colleague who wrote it is away this week, so I would like to understand what changed and why.`,
  );
  const files = messages.map((m) => [m.match(/src\/\S+/)![0]]);
  const plain = topics.map((_, i) => new RegExp(`\\b${VOCABULARY[i % VOCABULARY.length]}\\b`, 'i'));
  let sink = 0;
  const tiers = () => {
    for (let i = 0; i < messages.length; i++) sink += matchTopics(prepared, { text: messages[i], files: files[i], scope: 'input' }).length;
  };
  const bare = () => {
    for (const m of messages) for (const re of plain) if (re.test(m)) sink++;
  };
  tiers();
  bare();
  const per = (ms: number) => ms / MESSAGES_PER_SAMPLE;
  const baseline = baselineOf(`${TOPICS} plain RegExp.test on the message`, 'ms', (await repeat(SAMPLES, bare)).map(per));
  const samples = (await repeat(SAMPLES, tiers)).map(per);
  const candidates = matchTopics(prepared, { text: messages[0], files: files[0], scope: 'input' }).length;
  return [
    makeResult({
      name: `tiers 1+2, one message against ${TOPICS} topics`,
      unit: 'ms',
      samples,
      baseline,
      target: { on: 'value', op: '<', threshold: 1 },
      notes: [
        `${candidates} candidates for the first message; loading and preparing the ${TOPICS} files is separate (once per process); checksum ${sink % 97}`,
      ],
    }),
  ];
}

/** A 10,000-item store with its index, kept in .bench/ between runs. */
async function largeStore(ctx: BenchContext): Promise<string> {
  const ws = path.join(scratchDir(ctx, 'compile-store'), 'ws');
  const marker = path.join(ws, '.spec');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === SPEC) return ws;
  fs.rmSync(ws, { recursive: true, force: true });
  ctx.log(`topics: generating a store of ${STORE_FILES * NOTES_PER_FILE} items and its index`);
  generateLargeStore(ws, STORE_FILES, NOTES_PER_FILE);
  // Sources are mostly old in a real store (as in the search bench): files written in the second
  // before indexing count as "racy", and every hit in one is checked against the file.
  const old = new Date(Date.now() - 3600_000);
  const lore = path.join(ws, '.lore');
  for (const dir of [lore, path.join(lore, 'files')]) {
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.md')) fs.utimesSync(path.join(dir, f), old, old);
  }
  const index = SearchIndex.open(storePaths(path.join(ws, '.lore'), ws), { embedder: null });
  await index.update();
  index.close();
  fs.writeFileSync(marker, SPEC);
  return ws;
}

async function compileBench(ctx: BenchContext): Promise<BenchResult[]> {
  const ws = await largeStore(ctx);
  const paths = storePaths(path.join(ws, '.lore'), ws);
  const rand = new SeededRandom(17);
  const digest = `# Knowledge digest\n\n## Decisions\n${Array.from({ length: 30 }, (_, i) => `- decision ${i}: ${words(rand, 14)} [from: c${i}, 2026-11-20]`).join('\n')}\n`;
  const fileNotes = Array.from({ length: 5 }, (_, i) => ({
    path: `src/file${i}.ts`,
    notes: Array.from({ length: 6 }, () => `${words(rand, 12)} [from: c1, 2026-11-20]`),
  }));
  const topics = Array.from({ length: 3 }, (_, i) => ({
    name: `topic-${i}`,
    instructions: words(rand, 80),
    maxBytes: 4096,
    subscriptions: [{ path: `docs/t${i}.md`, text: `${words(rand, 300)}\n` }],
  }));
  const earlierTurns = Array.from({ length: 40 }, (_, i) => ({
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    text: words(rand, 120),
  }));
  // Prompts about what the store's items say (module N, the cache layer, the harvest plan), so the index finds items.
  const prompts = Array.from(
    { length: COMPILES_PER_SAMPLE },
    () => `why does module ${rand.int(0, STORE_FILES - 1)} keep the ${rand.pick(['cache layer', 'harvest plan'])} in sync?`,
  );
  const input = (message: string, searchHits: string[]): CompileInput => ({
    role: 'You are a coding assistant.',
    digest,
    fileNotes,
    topics,
    earlierTurns,
    searchHits,
    message,
  });
  const hitsFor = prompts.map((p) => knowledgeHits(paths, p, digest, fileNotes));
  if (!hitsFor.every((h) => h.length)) throw new Error('the index found nothing: the bench would not measure the search');
  let sink = 0;
  const compileOnly = () => {
    for (let i = 0; i < prompts.length; i++) sink += compileContext(input(prompts[i], hitsFor[i])).tokens;
  };
  const searchAndCompile = () => {
    for (const p of prompts) sink += compileContext(input(p, knowledgeHits(paths, p, digest, fileNotes))).tokens;
  };
  const searchOnly = () => {
    for (const p of prompts) sink += knowledgeHits(paths, p, digest, fileNotes).length;
  };
  const bare = () => {
    for (let i = 0; i < prompts.length; i++) sink += buildContext({ ...input(prompts[i], hitsFor[i]), topics }).text.length;
  };
  compileOnly();
  searchAndCompile();
  bare();
  const per = (ms: number) => ms / COMPILES_PER_SAMPLE;
  const baseline = baselineOf('buildContext of the same parts, no budget', 'ms', (await repeat(SAMPLES, bare)).map(per));
  const compiled = compileContext(input(prompts[0], hitsFor[0]));
  const notes = [
    `context ${compiled.tokens} of ${compiled.budgetTokens} tokens; ${compiled.slots.map((s) => `${s.slot} ${formatNumber(s.bytes / 1024)} KB/${s.cut.length} cut`).join(', ')}; ${hitsFor[0].length} hits; checksum ${sink % 97}`,
  ];
  return [
    makeResult({
      name: 'compile an 8K-token context (hits given)',
      unit: 'ms',
      samples: (await repeat(SAMPLES, compileOnly)).map(per),
      baseline,
      target: { on: 'value', op: '<', threshold: 5 },
    }),
    makeResult({
      name: `search a ${STORE_FILES * NOTES_PER_FILE}-item store + compile 8K`,
      unit: 'ms',
      samples: (await repeat(SAMPLES, searchAndCompile)).map(per),
      baseline,
      target: { on: 'value', op: '<', threshold: 5 },
      notes,
    }),
    // What the search part costs alone (the index as it is on disk, opened per query as in a hook).
    makeResult({ name: `of which the search (knowledgeHits)`, unit: 'ms', samples: (await repeat(SAMPLES, searchOnly)).map(per) }),
  ];
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  return [...(await tiersBench(ctx)), ...(await compileBench(ctx))];
}
