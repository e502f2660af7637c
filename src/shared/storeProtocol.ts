/**
 * The store's writes a person makes in VS Code, as requests to the language server (part of the
 * shared protocol, re-exported by protocol.ts): the server is the window's one writer, so the
 * extension host never takes the store lock nor writes a store file. Each message is declared once
 * (src/shared/declareMessage.ts): its params' type is its schema's.
 *
 * A document open with unsaved changes is not written under: the extension puts such an edit into
 * the editor itself (a WorkspaceEdit), and only a file not open dirty is written here.
 */
import type { ReviewEditResult } from '../core/store/items/reviewEdit';
import type { ReviewDecisionResult, ReviewItem } from '../core/store/items/reviewQueue';
import type { SupersedeByHandResult } from '../core/store/items/supersedeByHand';
import type { MoveItemResult } from '../core/store/items/moveItem';
import type { AppliedDiff } from '../core/store/lifecycle/storeDiff';
import type { SyncResult } from '../core/store/instructionSync';
import type { Arrivals } from '../core/store/items/teammateArrivals';
import { notification, request, returns } from './declareMessage';

// Bounds: a path is at most PATH_MAX-ish; an item or note is a line a person typed.
const PATH_MAX = 4096;
const TEXT_MAX = 100_000;
const ID_MAX = 200;

/** Client → server: creates the store (Initialize Store, or before the first note); `created` is empty when it existed. */
export const InitStoreRequest = request({
  method: 'lore/initStore',
  direction: 'toServer',
  params: (z) => z.object({}).strict(),
  result: (z) => z.object({ root: z.string(), created: z.array(z.string()) }),
});
/**
 * Client → server: Add Note to This File. The note gets `[from: manual, today]`, is redacted,
 * written under the store lock and journaled (core's addManualNote). Refused (an error naming the
 * reason) when the file cannot carry notes.
 */
export const AddNoteRequest = request({
  method: 'lore/addNote',
  direction: 'toServer',
  params: (z) => z.object({ path: z.string().min(1).max(PATH_MAX), text: z.string().trim().min(1).max(TEXT_MAX) }).strict(),
  // `document`: the note file is open with unsaved changes and the note went into the editor.
  result: (z) => z.object({ noteFile: z.string(), where: z.enum(['file', 'document']) }),
});
/**
 * Client → server: Delete (an item) or Mark Task Done in a category file, the item found by its
 * line identity (`- text [from: …]` as a view shows it). `changed: false`: the item is not there.
 */
export const EditItemRequest = request({
  method: 'lore/editItem',
  direction: 'toServer',
  params: (z) =>
    z
      .object({ action: z.enum(['delete', 'done']), file: z.string().min(1).max(PATH_MAX), itemLine: z.string().min(1).max(TEXT_MAX) })
      .strict(),
  // Where the edit landed: the open document (unsaved), the file on disk, or nowhere (the item was not there).
  result: (z) => z.object({ where: z.enum(['document', 'file', 'unchanged']) }),
});
/**
 * Client → server: Supersede… (core's supersedeByHand: the marker, the digest, the history). When
 * the old item's file (store-relative `file`) is open with unsaved changes, the marker goes into
 * the editor on the line reading `itemLine` (`where: 'document'`; nothing else is written).
 */
export const SupersedeItemRequest = request({
  method: 'lore/supersedeItem',
  direction: 'toServer',
  params: (z) =>
    z
      .object({
        oldId: z.string().min(1).max(ID_MAX),
        newId: z.string().min(1).max(ID_MAX),
        file: z.string().min(1).max(PATH_MAX).optional(),
        itemLine: z.string().min(1).max(TEXT_MAX).optional(),
      })
      .strict(),
  result: returns<{ where: 'file'; result: SupersedeByHandResult } | { where: 'document'; applied: boolean }>(),
});
/** Client → server: Accept or Reject held items (core's decideReview under the store lock). */
export const ReviewDecideRequest = request({
  method: 'lore/reviewDecide',
  direction: 'toServer',
  params: (z) =>
    z
      .object({
        decision: z.enum(['accept', 'reject']),
        ids: z.array(z.string().min(1).max(ID_MAX)).min(1).max(10_000),
        // Keep Personal: accepted into the person's own layer (.lore/personal/, never committed).
        to: z.enum(['shared', 'personal']).optional(),
        // The ids come from one command deciding many (Accept All Suggestions): none that reads as an instruction is accepted.
        blanket: z.boolean().optional(),
      })
      .strict(),
  result: returns<ReviewDecisionResult>(),
});
/**
 * Client → server: Move to Personal / Move to Shared: an item (by id) moves between the store's
 * shared files and the person's own layer, keeping its id and provenance (core's moveItem).
 */
export const MoveItemRequest = request({
  method: 'lore/moveItem',
  direction: 'toServer',
  params: (z) =>
    z
      .object({ id: z.string().min(1).max(ID_MAX), to: z.enum(['shared', 'personal']), file: z.string().min(1).max(PATH_MAX).optional() })
      .strict(),
  result: returns<MoveItemResult>(),
});
/** Client → server: Edit of an agent's queued write before accepting it (core's editReviewItem). */
export const ReviewEditRequest = request({
  method: 'lore/reviewEdit',
  direction: 'toServer',
  params: (z) => z.object({ id: z.string().min(1).max(ID_MAX), text: z.string().trim().min(1).max(TEXT_MAX) }).strict(),
  result: returns<ReviewEditResult>(),
});
/**
 * Client → server: regenerates digest.md from the category files (core's regenerateDigest);
 * `automatic` after a category file changed (a deleted digest then stays deleted), `enabled` is
 * the lore.digest.enabled setting.
 */
export const RegenerateDigestRequest = request({
  method: 'lore/regenerateDigest',
  direction: 'toServer',
  params: (z) => z.object({ enabled: z.boolean(), automatic: z.boolean().optional() }).strict(),
  result: (z) => z.object({ changed: z.boolean(), bytes: z.number() }),
});
/**
 * Client → server: records an @lore discussion in the inbox as a transcript (redacted), one file
 * per discussion rewritten as it grows; `file` is where.
 */
export const ChatTranscriptRequest = request({
  method: 'lore/chatTranscript',
  direction: 'toServer',
  params: (z) =>
    z
      .object({
        // Part of the inbox file's name: no separator may take it out of the inbox.
        discussionId: z.string().regex(/^[^/\\\0]{1,200}$/),
        startedAt: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}T/)
          .max(100),
        model: z.string().max(500).optional(),
        turns: z
          .array(
            z.object({
              role: z.enum(['user', 'assistant', 'system']),
              text: z.string().max(1_000_000),
              at: z.string().max(100).optional(),
              tools: z.array(z.string().max(10_000)).max(1000).optional(),
            }),
          )
          .max(10_000),
      })
      .strict(),
  result: (z) => z.object({ file: z.string() }),
});
/**
 * Client → server: one @lore chat model call, as the editor counted it (the usage a direct
 * provider reported; a VS Code language model reports none, so its tokens are counted from the
 * text, `estimated`). The server prices it and appends it to the spending log with the task
 * `chat` (core's recordTaskCall), so `lore cost` and the daily and monthly caps count it.
 */
export const ChatSpendingRequest = request({
  method: 'lore/chatSpending',
  direction: 'toServer',
  params: (z) => {
    const tokens = z.number().int().min(0).max(100_000_000);
    return z
      .object({
        // The discussion: every call of one @lore discussion is one run in the log.
        discussionId: z.string().min(1).max(ID_MAX),
        provider: z.string().min(1).max(100),
        model: z.string().max(500),
        inputTokens: tokens,
        outputTokens: tokens,
        cacheReadTokens: tokens.optional(),
        cacheWriteTokens: tokens.optional(),
        estimated: z.boolean().optional(),
      })
      .strict();
  },
  // `usd`: at list prices; absent when the model's price is unknown.
  result: (z) => z.object({ usd: z.number().optional() }),
});
/** Client → server: takes a reconstructed store's difference into the live store (core's applyStoreDiff; `lore diff DIR --apply`). */
export const ApplyStoreDiffRequest = request({
  method: 'lore/applyStoreDiff',
  direction: 'toServer',
  params: (z) => z.object({ other: z.string().min(1).max(PATH_MAX) }).strict(),
  result: returns<AppliedDiff>(),
});
/**
 * Client → server: the lore.git.commit setting changed (it decides over config.json for the
 * server's writes); the server also commits what interval mode holds back once it is due.
 */
export const GitCommitSettingRequest = request({
  method: 'lore/gitCommitSetting',
  direction: 'toServer',
  params: (z) => z.object({ gitCommit: z.enum(['off', 'apply', 'interval']).optional() }).strict(),
  result: (z) => z.object({}),
});
/**
 * Client → server: writes the digest block (without items held for review) into the opted-in
 * agent instruction files (workspace-relative `files`), only where it changed.
 */
export const SyncInstructionsRequest = request({
  method: 'lore/syncInstructions',
  direction: 'toServer',
  params: (z) => z.object({ files: z.array(z.string().min(1).max(PATH_MAX)).max(100) }).strict(),
  result: returns<SyncResult[]>(),
});
/**
 * Client → server: the items held for review and agents' writes waiting for a person (core's
 * listReview), for the Review view and the Accept/Reject/Edit picks. Writes nothing.
 */
export const ReviewListRequest = request({
  method: 'lore/reviewList',
  direction: 'toServer',
  params: (z) => z.object({}).strict(),
  result: returns<ReviewItem[]>(),
});
/**
 * Server → client: items arrived from teammates (git moved HEAD: a pull, a merge, a checkout;
 * core's teammateArrivals). The Knowledge view shows them under "New from teammates" and a short
 * notification names who they came from. Replaces the previous arrivals.
 */
export const TeammateArrivalsNotification = notification({
  method: 'lore/teammateArrivals',
  direction: 'toClient',
  params: (z) => z.object({ arrivals: z.custom<Arrivals>() }),
});
/**
 * Client → server: the arrivals not seen yet (after a reload, for the view's first answer);
 * `null` when there are none.
 */
export const TeammateArrivalsRequest = request({
  method: 'lore/teammateArrivals/list',
  direction: 'toServer',
  params: (z) => z.object({}).strict(),
  result: returns<Arrivals | null>(),
});
/** Client → server: the person has seen the arrivals; the view's group goes away. */
export const TeammateArrivalsSeenRequest = request({
  method: 'lore/teammateArrivals/seen',
  direction: 'toServer',
  params: (z) => z.object({}).strict(),
  result: (z) => z.object({}),
});
