/**
 * The harvest plan as data: what an apply writes (file changes, ledger, transcripts, held items)
 * and what was decided for each conversation. The harvest service builds it
 * (services/harvest/plan.ts); the store applies it (changes/applyPlan.ts), and so do forget, tidy
 * and the knowledge archive, which express their edits as plans. Types only.
 */
import type { ConversationFormat } from '../model/conversation';
import type { HarvestItems, ItemCounts } from '../model/categories';
import type { PlanEdit } from '../model/planEdits';
import type { Provenance } from '../model/provenance';
import type { HeldItem } from '../model/reviewFile';
import type { Ledger, LedgerEntry } from '../model/ledgerFormat';

export type ConversationClass =
  /**
   * New content, or content an earlier run could not read (ledger `unrecognized`) that an
   * importer now reads turns from: will be distilled.
   */
  | 'harvest'
  /** A previous harvest failed: will be distilled again. */
  | 'retry'
  /** The ledger already holds this content (harvested or reclaimed unharvested). */
  | 'harvested'
  /** The same content as another file of this run. */
  | 'duplicate'
  /** Rendered transcript over 1 MB (or raw file over 64 MB): kept and never sent to a model. */
  | 'too-large'
  /** Binary or not UTF-8: skipped and kept. */
  | 'binary'
  /** Empty or whitespace only: skipped. */
  | 'empty'
  /** Outside the inbox and modified moments ago: probably still being written by its agent. */
  | 'live'
  /** Over the --max-harvest-bytes budget: left for the next run. */
  | 'deferred'
  /** Could not be read (permissions, vanished). */
  | 'unreadable'
  /**
   * Read, but no importer reads a conversation's turns from it: nothing would be sent to a model;
   * a harvest records it so in the ledger (`unrecognized`) and keeps the file.
   */
  | 'unrecognized'
  /** A person forgot this conversation for good (`lore forget`; ledger tombstones): never harvested again. */
  | 'forgotten';

export const CONVERSATION_CLASSES: readonly ConversationClass[] = [
  'harvest',
  'retry',
  'harvested',
  'duplicate',
  'too-large',
  'binary',
  'empty',
  'live',
  'deferred',
  'unreadable',
  'unrecognized',
  'forgotten',
];

export interface ClassifiedConversation extends Partial<RenderedSize> {
  path: string;
  inInbox: boolean;
  /** A session assembled from a tool's store (assembledSources.ts): its sha256 is not the file's at `path`. */
  assembled?: true;
  sha256: string;
  /** Raw size on disk. */
  bytes: number;
  mtimeMs: number;
  class: ConversationClass;
  /** The ledger entry for this content, if any. */
  ledger?: LedgerEntry;
  /** For duplicates: the path of the first file with the same content. */
  sameAs?: string;
  /** Why, for unreadable/unrecognized/binary/too-large. */
  reason?: string;
}

export interface RenderedSize {
  /** The detected format (the importer that read it, or the likeliest one when none did). */
  format: ConversationFormat;
  turns: number;
  /** UTF-8 bytes of the rendered transcript; 0 when the file has no turns (nothing would be sent). */
  renderedBytes: number;
  /** The conversation's start (its first turn's time) when the format records one. */
  started?: string;
  /** Its title as lists show it (conversationTitle.ts): the name its tool recorded, else its first prompt. */
  title?: string;
  /** Why no importer read it, when none did. */
  unrecognized?: string;
}

/** What the harvest decided for one conversation. */
export interface ConversationOutcome extends ClassifiedConversation {
  /** Conversation id used in provenance (known once parsed). */
  id?: string;
  /** The ledger status this run records, or undefined when the ledger is not touched. */
  status?: LedgerEntry['status'];
  items?: ItemCounts;
  error?: string;
  /** Model calls made for it in this run (0 when served from the reply cache). */
  calls?: number;
  summarized?: boolean;
  /** What happens to the file after the ledger is written. */
  reclaim?: 'delete' | 'archive';
  /** For `archive`: where the file goes (inside the store's archive/). */
  archiveTo?: string;
}

/** One harvested conversation's items and provenance. */
export interface DistilledInput {
  outcome: ConversationOutcome;
  items: HarvestItems;
  provenance: Provenance;
  cwd?: string;
}

export interface PlanChange {
  /** Store-relative path, e.g. `facts.md`, `files/2049-1234.md`, `digest.md`. */
  file: string;
  before?: string;
  /** Undefined when the file is removed (an emptied digest). */
  after?: string;
  /** Number of lines added (for reports). */
  added: number;
  /** The edit that turns `before` into `after`, re-applied by apply when the file changed since. */
  edit?: PlanEdit;
}

export interface HarvestPlan {
  changes: PlanChange[];
  ledger: Ledger;
  outcomes: ConversationOutcome[];
  /** Item totals over the harvested conversations. */
  items: ItemCounts;
  /** Notes whose file did not resolve and went to facts.md. */
  orphanNotes: number;
  /** Whether apply keeps digest.md (regenerating it when a file changed since the plan). */
  digestEnabled: boolean;
  /** Items that read as instructions to an agent: queued in review.md instead of their file. */
  held: HeldItem[];
  /**
   * sha256 of ledger.json as the plan read it ('' when absent): `ledger` is that file plus this
   * run, so writing it over a ledger changed since would lose the other run's entries.
   */
  ledgerSha256: string;
  /** Transcripts to keep in transcripts/ before the ledger is written (transcriptPlan.ts). */
  transcripts?: PlannedTranscript[];
  /** What the model's `same_as` and `supersedes` do to existing items (planRelations.ts). */
  relations?: PlannedRelations;
  /** Lines the model gave that a person forgot for good (ledger tombstones): left out. */
  forgotten?: string[];
  /**
   * The same statement more than once (model/sameStatement.ts): `folded` sources of this harvest's
   * lines joined another of its lines, `merged` lines became one more source of a line already in the store.
   */
  duplicates?: { folded: number; merged: number };
}

/** A transcript an apply writes (once) before the ledger. */
export interface PlannedTranscript {
  /** Store-relative path, `transcripts/YYYY/MM/DD/HHMM-<id>-<slug>.md`. */
  file: string;
  /** sha256 of the raw conversation file: the ledger key and the frontmatter's `raw_sha256`. */
  sha256: string;
  text: string;
}

/** The relations a plan carries out, for reports and previews. */
export interface PlannedRelations {
  /** Items written as one more source of an existing line (`id`, in `file`). */
  merged: Array<{
    id: string;
    file: string;
    line: string;
    /** The sources added, `, `-separated. */
    source: string;
    /** Set when the line says the same words as the item (no model asked); else the model's `same_as`. */
    same?: 'statement';
  }>;
  /** Existing items (`id`, in `file`) marked superseded by the new item `by`. */
  superseded: Array<{ id: string; file: string; by: string; line: string }>;
}
