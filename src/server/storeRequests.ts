/**
 * The store's writes a person makes in VS Code (src/shared/storeProtocol.ts), done here so the
 * window has one writer: the extension host sends a request and shows the answer. Each write goes
 * through the same core function `lore` uses (store lock, guarded writes, redaction, journal, git
 * history), then tells the rest of the server as a watcher's events would, so the note index,
 * lenses, search index and the client's views follow at once.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'vscode-languageserver/node';
import { syncInstructionFiles } from '../core/store/instructionSync';
import { writeChatTranscript } from '../core/services/conversations/chatTranscript';
import { recordTaskCall } from '../core/services/spending/meteredTask';
import { readAgentDigest } from '../core/store/heldItems';
import { defaultPromptsDir } from '../core/services/harvest/prompts';
import { markTasksDone, removeItems } from '../core/model/categoryFile';
import { lineIdentity } from '../core/model/itemLines';
import { markItemSuperseded } from '../core/model/itemEdits';
import { addManualNote, manualNoteLine } from '../core/store/items/manualNote';
import { toIsoDate } from '../core/model/provenance';
import { editReviewItem } from '../core/store/items/reviewEdit';
import { decideReview, listReview } from '../core/store/items/reviewQueue';
import { supersedeByHand } from '../core/store/items/supersedeByHand';
import { moveItem } from '../core/store/items/moveItem';
import { applyStoreDiff } from '../core/store/lifecycle/storeDiff';
import { recordStoreChange, setGitCommitOverride } from '../core/store/history/storeHistory';
import { regenerateDigest } from '../core/store/digest';
import { metaFor, readNotesOf, resolveNoteTarget } from '../core/store/fileNotes';
import { addNotes } from '../core/model/noteFile';
import { initStore } from '../core/store/initStore';
import { acquireStoreLock } from '../core/base/storeLock';
import { isInside, resolveInStore, storePaths } from '../core/store/storePaths';
import { editStoreFile } from '../core/base/storeText';
import {
  AddNoteRequest,
  ApplyStoreDiffRequest,
  ChatSpendingRequest,
  ChatTranscriptRequest,
  EditItemRequest,
  GitCommitSettingRequest,
  InitStoreRequest,
  MoveItemRequest,
  RegenerateDigestRequest,
  ReviewDecideRequest,
  ReviewEditRequest,
  ReviewListRequest,
  SupersedeItemRequest,
  SyncInstructionsRequest,
} from '../shared/storeProtocol';
import { handleRequest } from './handleMessage';
import type { LoreServer } from './loreServer';
import type { OpenDocuments } from './openDocuments';

/** A file the client named must be in the store: the server writes nothing else on its say. */
function inStore(s: LoreServer, file: string): string {
  const absolute = path.resolve(file);
  if (!isInside(s.paths.root, absolute)) throw new Error(`${file} is not in the store (${s.paths.root})`);
  return absolute;
}

export function registerStoreRequests(connection: Connection, ready: () => Promise<LoreServer>, open: OpenDocuments): void {
  const changed = (s: LoreServer, storeRelativeFiles: readonly string[]) => {
    for (const file of storeRelativeFiles) s.fileChanged(path.join(s.paths.root, file));
  };

  handleRequest(connection, InitStoreRequest, async () => {
    const s = await ready();
    const created = initStore(s.paths, defaultPromptsDir());
    for (const file of created) s.fileChanged(file);
    return { root: s.paths.root, created };
  });

  handleRequest(connection, AddNoteRequest, async ({ path: file, text }) => {
    const s = await ready();
    const target = resolveNoteTarget(s.paths, path.resolve(file));
    if (target.kind === 'orphan')
      throw new Error(`cannot attach a note to ${path.relative(s.paths.workspace, file) || file}: ${target.reason}`);
    // The note file open with unsaved changes: the note goes into the editor, on top of what the
    // person typed, not under it.
    const existing = readNotesOf(s.paths, target.absolute)?.file;
    const document = existing === undefined ? undefined : open.dirty(existing);
    if (existing && document) {
      const line = manualNoteLine(text);
      if (!(await open.edit(document, (current) => addNotes(current, metaFor(existing, target.relative, target.identity), [line]))))
        throw new Error('the editor refused the note (the note file is open with unsaved changes)');
      return { noteFile: existing, where: 'document' as const };
    }
    const { noteFile } = await addManualNote(s.paths, target, text);
    s.fileChanged(noteFile);
    return { noteFile, where: 'file' as const };
  });

  handleRequest(connection, EditItemRequest, async ({ action, file, itemLine }) => {
    const s = await ready();
    const absolute = inStore(s, file);
    const ids = new Set([lineIdentity(itemLine)]);
    const edit = (text: string) => (action === 'delete' ? removeItems(text, ids) : markTasksDone(text, ids));
    const document = open.dirty(absolute);
    if (document) return { where: (await open.edit(document, edit)) ? ('document' as const) : ('unchanged' as const) };
    const lock = await acquireStoreLock(s.paths.root);
    try {
      const edited = editStoreFile(absolute, (text) => (text === undefined ? undefined : edit(text)));
      if (!edited) return { where: 'unchanged' as const };
      await recordStoreChange(s.paths, {
        type: 'memory',
        subject: `${action === 'delete' ? 'deleted an item' : 'marked a task done'} in ${path.basename(absolute)}`,
      });
    } finally {
      lock.release();
    }
    s.fileChanged(absolute);
    return { where: 'file' as const };
  });

  handleRequest(connection, SupersedeItemRequest, async ({ oldId, newId, file, itemLine }) => {
    const s = await ready();
    const document = file === undefined || itemLine === undefined ? undefined : open.dirty(inStore(s, resolveInStore(s.paths, file)));
    if (document && itemLine !== undefined) {
      const applied = await open.edit(document, (text) => markItemSuperseded(text, lineIdentity(itemLine), newId, toIsoDate(new Date())));
      return { where: 'document' as const, applied };
    }
    const result = await supersedeByHand(s.paths, oldId, newId, file === undefined ? {} : { file });
    if (result.status === 'recorded')
      changed(
        s,
        [result.old?.file, 'digest.md'].filter((f): f is string => f !== undefined),
      );
    return { where: 'file' as const, result };
  });

  handleRequest(connection, ReviewListRequest, async () => {
    const s = await ready();
    return fs.existsSync(s.paths.root) ? listReview(s.paths) : [];
  });

  handleRequest(connection, ReviewDecideRequest, async ({ decision, ids, to, blanket }) => {
    const s = await ready();
    const result = await decideReview(s.paths, decision, blanket ? { blanket: ids } : ids, { to });
    changed(s, result.written);
    return result;
  });

  handleRequest(connection, MoveItemRequest, async ({ id, to, file }) => {
    const s = await ready();
    const result = await moveItem(s.paths, id, to, { file });
    if (result.moved) changed(s, [result.from, result.to, 'digest.md']);
    return result;
  });

  handleRequest(connection, ReviewEditRequest, async ({ id, text }) => {
    const s = await ready();
    const result = await editReviewItem(s.paths, id, text);
    if (result.edited) changed(s, ['review.md']);
    return result;
  });

  handleRequest(connection, RegenerateDigestRequest, async ({ enabled, automatic }) => {
    const s = await ready();
    const { changed: written, bytes } = regenerateDigest(s.paths, { enabled, automatic });
    return { changed: written, bytes };
  });

  handleRequest(connection, ChatTranscriptRequest, async (record) => {
    const s = await ready();
    const file = writeChatTranscript(s.paths, record);
    s.fileChanged(file);
    return { file };
  });

  // The extension host writes nothing: @lore's calls reach the spending log through here.
  handleRequest(connection, ChatSpendingRequest, async ({ discussionId, ...call }) => {
    const s = await ready();
    // The log is the store's: without a store there is nowhere to keep it (and none is made for it).
    if (!fs.existsSync(s.paths.root)) throw new Error('there is no store to record the spending in');
    const line = recordTaskCall(s.paths, 'chat', call, { run: discussionId, via: 'vscode' });
    return line.usd !== undefined ? { usd: line.usd } : {};
  });

  handleRequest(connection, ApplyStoreDiffRequest, async ({ other }) => {
    const s = await ready();
    return applyStoreDiff(s.paths, storePaths(path.resolve(other), s.paths.workspace));
  });

  // The instruction files are the workspace's, outside the store: syncInstructionFiles refuses any other.
  handleRequest(connection, SyncInstructionsRequest, async ({ files }) => {
    const s = await ready();
    if (files.length === 0 || !fs.existsSync(s.paths.root)) return [];
    return syncInstructionFiles(s.paths.workspace, files, readAgentDigest(s.paths));
  });

  handleRequest(connection, GitCommitSettingRequest, ({ gitCommit }) => {
    setGitCommitOverride(gitCommit);
    return {};
  });
}
