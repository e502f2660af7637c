/**
 * Per-file notes between the VS Code client and the language server (part of the shared
 * protocol, re-exported by protocol.ts): the arguments of the note commands lenses and hovers
 * run, the notes of a file, and the requests and notifications about note files.
 */
import type { z } from 'zod';
import { filePath } from './boundedText';
import { notification, request, returns } from './declareMessage';

/** A provenance marker `[from: source, date]` and where it was found. */
export interface OpenProvenanceArgs {
  /** Conversation id (file stem or session id), or `manual`. */
  source: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Absolute path of the note or category file that holds the marker. */
  noteFile: string;
  /** 0-based line of the marker in `noteFile`. */
  line: number;
}

export interface OpenNoteFileArgs {
  /** Absolute path of the note file. */
  noteFile: string;
  /** 0-based line to reveal. */
  line?: number;
}

export interface EditNotesArgs {
  noteFile: string;
  /** Absolute path of the file the notes are about. */
  path: string;
}

export interface DeleteNoteArgs {
  noteFile: string;
  /** 0-based line of the note in the note file. */
  line: number;
  /** The note's raw line: the delete is refused when the line no longer reads so. */
  raw: string;
}

export interface MarkNotesValidArgs {
  /** Absolute path of the file whose notes are still valid. */
  path: string;
}

/** One note as the server reports it. */
export interface NoteInfo {
  /** The note text without list marker and provenance. */
  text: string;
  /** The raw first line in the note file. */
  raw: string;
  provenance?: { source: string; date: string };
  /** Every source of a line several conversations taught (`[from: a, d1; b, d2]`), the first (`provenance`) first. */
  sources?: Array<{ source: string; date: string }>;
  /** 0-based line in the note file. */
  line: number;
  /** Absolute path of the note file. */
  noteFile: string;
}

/** How far a file has moved on since its notes were recorded. */
export interface NoteStaleness {
  /** `unknown`: no fingerprint recorded (a hand-made note file). */
  state: 'unchanged' | 'changed' | 'unknown';
  /**
   * Fraction (0–1) of distinct lines added or removed since the notes were recorded; only when the
   * server saw the file's content at the recorded fingerprint (it keeps line hashes in `.index/`).
   */
  distance?: number;
  /**
   * True when the notes deserve a second look: the file changed a lot (distance ≥ 0.5), or it
   * changed and the amount is unknown. Lenses then offer "Still valid" (lore.markNotesValid).
   */
  stale: boolean;
}

export interface FileNotes {
  /** Absolute path of the file. */
  path: string;
  noteFile: string;
  /** The path the note file records (workspace-relative). */
  recordedPath: string;
  /** How the note file was found: by device:inode, or re-found by path or content (then healed). */
  via: 'inode' | 'path' | 'fingerprint';
  notes: NoteInfo[];
  staleness: NoteStaleness;
}

/**
 * Server → client after note files or category files changed on disk (debounced). The client
 * refreshes file decorations (and anything else it shows) for these URIs; `all` means every
 * decoration may have changed (the store appeared, vanished or was rescanned).
 */
export const NotesChangedNotification = notification({
  method: 'lore/notesChanged',
  direction: 'toClient',
  params: (z) => z.object({ uris: z.array(z.string()), all: z.boolean().optional() }),
});
/** Client → server: forward `vscode.workspace.onDidRenameFiles` (files and folders) so note keys follow at once. */
export const DidRenameFilesRequest = request({
  method: 'lore/didRenameFiles',
  direction: 'toServer',
  // Absolute file-system paths; `updated`: note files that now record the new path (their names stay).
  params: (z) => z.object({ files: z.array(z.object({ oldPath: filePath(z), newPath: filePath(z) })).max(100_000) }),
  result: (z) => z.object({ updated: z.number() }),
});
/**
 * Client → server: forward `vscode.workspace.onDidDeleteFiles` (files and folders). The server
 * moves the notes of those paths to facts.md as `path: note` (or leaves them when the path holds
 * a file again), under the store lock, touching only those note files.
 */
export const DidDeleteFilesRequest = request({
  method: 'lore/didDeleteFiles',
  direction: 'toServer',
  // Absolute file-system paths. `healed`: always 0 (kept for older clients);
  // `orphaned`: note files whose notes moved to facts.md (the client regenerates the digest).
  params: (z) => z.object({ files: z.array(filePath(z)).max(100_000) }),
  result: (z) => z.object({ healed: z.number(), orphaned: z.number() }),
});
/**
 * Client → server: every note file the server's index knows, and how many stored transcripts the
 * store keeps, for the Knowledge view (no note file is parsed, no transcript read for it).
 */
export interface NoteFilesResult {
  files: Array<{
    /** Absolute path of the note file. */
    file: string;
    /** The workspace-relative path it is about ('' for a hand-made note file without meta). */
    path: string;
    /** How many notes it holds. */
    count: number;
  }>;
  /** The store's transcripts/: how many files and their total size in bytes (absent from an older server). */
  transcripts?: { count: number; bytes: number };
}

export const NoteFilesRequest = request({
  method: 'lore/noteFiles',
  direction: 'toServer',
  params: (z) => z.object({}).strict(),
  result: returns<NoteFilesResult>(),
});
/** Client → server: the notes of one file, or null (a lookup writes nothing to the store). */
export const NotesForFileRequest = request({
  method: 'lore/notesForFile',
  direction: 'toServer',
  params: (z) => z.object({ path: filePath(z) }),
  result: returns<FileNotes | null>(),
});
/** Client → server: note counts for explorer badges. Paths without notes are absent from `counts`. */
export const FileDecorationsRequest = request({
  method: 'lore/fileDecorations',
  direction: 'toServer',
  params: (z) => z.object({ paths: z.array(filePath(z)).max(100_000) }),
  result: returns<{ counts: Record<string, number> }>(),
});
/** Client → server: record the file's current size and fingerprint in its note file (under the store lock). */
export const MarkNotesValidRequest = request({
  method: 'lore/markNotesValid',
  direction: 'toServer',
  params: (z) => z.object({ path: filePath(z) }) satisfies z.ZodType<MarkNotesValidArgs>,
  result: returns<{ updated: boolean; noteFile?: string }>(),
});
/**
 * Client → server: the note files an older Lore named by device-inode (each clone renamed them)
 * and the portable names they get; with `apply`, the server renames them under the store lock.
 */
export const MigrateNotesRequest = request({
  method: 'lore/migrateNotes',
  direction: 'toServer',
  params: (z) => z.object({ apply: z.boolean() }).strict(),
  // `path`: the workspace-relative file the notes are about, which is what a person reads.
  result: (z) => z.object({ renames: z.array(z.object({ from: z.string(), to: z.string(), path: z.string() })) }),
});
/** Client → server: delete one note line (under the store lock; refused when the line changed). */
export const DeleteNoteRequest = request({
  method: 'lore/deleteNote',
  direction: 'toServer',
  params: (z) =>
    z.object({ noteFile: filePath(z), line: z.number().int().min(0), raw: z.string().max(100_000) }) satisfies z.ZodType<DeleteNoteArgs>,
  result: (z) => z.object({ deleted: z.boolean() }),
});
