/**
 * The random part of the team test: a seeded sequence of what teammates do (harvest their own
 * conversations, add notes, tidy, forget a teammate's conversation, supersede, review, commit,
 * pull, push), and the record of what the end state must therefore hold (Expected), which does not
 * depend on the order the steps ran in.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LORE, type Clone } from './teamClone';
import {
  CONVERSATIONS,
  SOURCE_FILES,
  SUPERSEDE_PAIRS,
  conversationsOf,
  normalizeStatement,
  renderConversation,
  type Conversation,
  type Person,
} from './teamFixtures';
import { categoryItems, liveItem } from './teamStoreView';
import { pull, push, type Team } from './teamSync';

/** What the steps did, whatever order they did it in. */
export interface Expected {
  /** Conversations someone harvested. */
  harvested: Set<string>;
  /** `person:conversation` for each harvest a person ran (a pair session is harvested by each of its two). */
  harvestedBy: Set<string>;
  forgotten: Set<string>;
  /** Flagged statements (normalized) their owner accepted or rejected in review. */
  decided: Map<string, 'accept' | 'reject'>;
  /** Old statements (normalized) someone superseded. */
  superseded: Set<string>;
  notes: Array<{ file: string; text: string }>;
}

export function emptyExpected(): Expected {
  return { harvested: new Set(), harvestedBy: new Set(), forgotten: new Set(), decided: new Map(), superseded: new Set(), notes: [] };
}

/** mulberry32: a small seeded generator, so a failing seed runs the same steps again. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface StepContext {
  team: Team;
  expected: Expected;
  random: () => number;
}

/** One kind of step: it returns what it did, or undefined when there is nothing for it to do in this clone now. */
interface Op {
  name: string;
  weight: number;
  run(clone: Clone, ctx: StepContext): string | undefined;
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** The person's conversations not yet harvested, in order (the late one is kept for the end). */
function waiting(person: Person, expected: Expected): Conversation[] {
  return conversationsOf(person).filter((c) => !c.late && !expected.harvestedBy.has(`${person}:${c.id}`));
}

/** Puts conversations into the clone's inbox and harvests them. */
export function harvest(clone: Clone, ctx: StepContext, conversations: Conversation[]): void {
  for (const c of conversations) fs.writeFileSync(path.join(clone.store, 'inbox', `${c.id}.md`), renderConversation(c));
  ctx.team.expectOk(clone, `lore harvest of ${conversations.map((c) => c.id).join(', ')}`, clone.lore(LORE.harvest()));
  for (const c of conversations) {
    ctx.expected.harvested.add(c.id);
    ctx.expected.harvestedBy.add(`${clone.person}:${c.id}`);
  }
}

const harvestOp: Op = {
  name: 'harvest',
  weight: 4,
  run(clone, ctx) {
    const next = waiting(clone.person as Person, ctx.expected).slice(0, ctx.random() < 0.3 ? 2 : 1);
    if (next.length === 0) return undefined;
    harvest(clone, ctx, next);
    return `harvest ${next.map((c) => c.id).join(' + ')}`;
  },
};

/** The owner drops a conversation a teammate forgot into the inbox again (a hook's copy, a re-import). */
const reharvestForgottenOp: Op = {
  name: 'harvest a forgotten conversation again',
  weight: 1,
  run(clone, ctx) {
    const mine = conversationsOf(clone.person as Person).filter((c) => ctx.expected.forgotten.has(c.id));
    if (mine.length === 0) return undefined;
    const c = pick(ctx.random, mine);
    fs.writeFileSync(path.join(clone.store, 'inbox', `${c.id}-again.md`), renderConversation(c));
    ctx.team.expectOk(clone, `lore harvest of forgotten ${c.id}`, clone.lore(LORE.harvest()));
    return `harvest forgotten ${c.id} again`;
  },
};

/**
 * What people note, each a different statement: two notes that say the same thing in other words
 * are duplicates `lore tidy` rightly merges, which the end-state check would count as a lost note.
 */
const NOTE_TOPICS = [
  'check the rounding here',
  'callers expect cents',
  'keep this free of io',
  'the index name is shared with ops',
  'retries are capped at three attempts',
  'the currency table is loaded once at start',
  'timeouts come from the config file',
  'log lines must not carry card numbers',
];
/** The first note each person writes on one file before anyone pulls: different statements, one note file. */
const FIRST_NOTES: Record<string, string> = {
  alice: 'the charge result is checked by callers',
  bob: 'refunds go through the same queue as charges',
  carol: 'the payment provider is mocked in tests',
};

const noteOp: Op = {
  name: 'note',
  weight: 2,
  run(clone, ctx) {
    const file = pick(ctx.random, Object.keys(SOURCE_FILES));
    const unused = NOTE_TOPICS.filter((topic) => !ctx.expected.notes.some((n) => n.file === file && n.text.endsWith(topic)));
    if (unused.length === 0) return undefined;
    const text = `${clone.person} note ${ctx.expected.notes.length + 1}: ${pick(ctx.random, unused)}`;
    if (!ctx.team.expectOk(clone, `lore note ${file}`, clone.lore(LORE.note(file, text)))) return `note ${file} (failed)`;
    ctx.expected.notes.push({ file, text });
    return `note ${file}: ${text}`;
  },
};

const tidyOp: Op = {
  name: 'tidy',
  weight: 1,
  run(clone, ctx) {
    ctx.team.expectOk(clone, 'lore tidy --apply', clone.lore(LORE.tidy()));
    return 'tidy';
  },
};

/** Forgets a teammate's forgettable conversation that this clone's store holds items of. */
const forgetOp: Op = {
  name: 'forget',
  weight: 2,
  run(clone, ctx) {
    const present = new Set(categoryItems(clone).flatMap((i) => i.sources));
    const candidates = CONVERSATIONS.filter(
      (c) => c.forgettable && c.person !== clone.person && c.sharedWith !== clone.person && present.has(c.id),
    );
    if (candidates.length === 0) return undefined;
    const c = pick(ctx.random, candidates);
    if (ctx.team.expectOk(clone, `lore forget ${c.id}`, clone.lore(LORE.forgetConversation(c.id)))) ctx.expected.forgotten.add(c.id);
    return `forget ${c.id}`;
  },
};

/** Supersedes an old statement by its replacement, when both are live in this clone. */
const supersedeOp: Op = {
  name: 'supersede',
  weight: 2,
  run(clone, ctx) {
    const ready = SUPERSEDE_PAIRS.flatMap((pair) => {
      const oldItem = liveItem(clone, pair.old);
      const newItem = liveItem(clone, pair.new);
      return oldItem && newItem ? [{ pair, oldItem, newItem }] : [];
    });
    if (ready.length === 0) return undefined;
    const { pair, oldItem, newItem } = pick(ctx.random, ready);
    if (ctx.team.expectOk(clone, `lore supersede ${oldItem.id} ${newItem.id}`, clone.lore(LORE.supersede(oldItem.id, newItem.id))))
      ctx.expected.superseded.add(normalizeStatement(pair.old));
    return `supersede "${pair.old}" by "${pair.new}"`;
  },
};

/** The owner of a flagged statement accepts or rejects it in review. */
const reviewOp: Op = {
  name: 'review',
  weight: 2,
  run(clone, ctx) {
    const mine = conversationsOf(clone.person as Person)
      .filter((c) => ctx.expected.harvested.has(c.id))
      .flatMap((c) => c.statements.filter((s) => s.flagged && !ctx.expected.decided.has(normalizeStatement(s.text))));
    if (mine.length === 0) return undefined;
    const statement = normalizeStatement(pick(ctx.random, mine).text);
    const listed = clone.lore(LORE.review());
    if (!ctx.team.expectOk(clone, 'lore review --json', listed)) return 'review (failed)';
    const entry = (JSON.parse(listed.stdout).items as any[]).find((i) => i.where === 'queue' && normalizeStatement(i.text) === statement);
    if (!entry) {
      ctx.team.problem(clone, `its own flagged item "${statement}" is not in lore review`);
      return 'review (item missing)';
    }
    const decision = ctx.random() < 0.5 ? 'accept' : 'reject';
    if (ctx.team.expectOk(clone, `lore review ${decision} ${entry.n}`, clone.lore(LORE.reviewDecide(decision, entry.n))))
      ctx.expected.decided.set(statement, decision);
    return `review ${decision} "${statement}"`;
  },
};

const commitOp: Op = {
  name: 'commit',
  weight: 2,
  run(clone) {
    return clone.commitAll(`${clone.person}: knowledge from today's sessions`) ? 'commit' : undefined;
  },
};

const pullOp: Op = {
  name: 'pull',
  weight: 2,
  run(clone, ctx) {
    pull(ctx.team, clone);
    return 'pull';
  },
};

const pushOp: Op = {
  name: 'push',
  weight: 2,
  run(clone, ctx) {
    clone.commitAll(`${clone.person}: knowledge from today's sessions`);
    push(ctx.team, clone);
    return 'push';
  },
};

const OPS: readonly Op[] = [harvestOp, reharvestForgottenOp, noteOp, tidyOp, forgetOp, supersedeOp, reviewOp, commitOp, pullOp, pushOp];

/** Before anything is pulled, every clone notes the same source file: the note must end up in one note file. */
export function noteTheSameFile(ctx: StepContext): void {
  const file = Object.keys(SOURCE_FILES)[1];
  for (const clone of ctx.team.clones) {
    ctx.team.step++;
    const text = `${clone.person} noted this first: ${FIRST_NOTES[clone.person] ?? clone.person}`;
    if (ctx.team.expectOk(clone, `lore note ${file}`, clone.lore(LORE.note(file, text)))) ctx.expected.notes.push({ file, text });
    ctx.team.log.push(`${ctx.team.step} ${clone.person}: note ${file}: ${text}`);
  }
}

/** Runs `steps` random steps: a random clone, a random kind of step (by weight) that has something to do. */
export function runRandomSteps(ctx: StepContext, steps: number): void {
  const total = OPS.reduce((n, op) => n + op.weight, 0);
  for (let s = 0; s < steps; s++) {
    ctx.team.step++;
    const clone = pick(ctx.random, ctx.team.clones);
    for (let tries = 0; tries < 10; tries++) {
      let r = ctx.random() * total;
      const op = OPS.find((o) => (r -= o.weight) < 0) ?? OPS[OPS.length - 1];
      const did = op.run(clone, ctx);
      if (did === undefined) continue;
      ctx.team.log.push(`${ctx.team.step} ${clone.person}: ${did}`);
      break;
    }
  }
}

/** Every person harvests what they have not yet (not the late conversations), so the end state covers every conversation. */
export function harvestTheRest(ctx: StepContext): void {
  for (const clone of ctx.team.clones) {
    const rest = waiting(clone.person as Person, ctx.expected);
    if (rest.length === 0) continue;
    ctx.team.step++;
    harvest(clone, ctx, rest);
    ctx.team.log.push(`${ctx.team.step} ${clone.person}: harvest the rest ${rest.map((c) => c.id).join(' + ')}`);
  }
}
