/**
 * The hover on the first line of a file with notes, each note with who added it when the store is
 * in git (one blame per note file per HEAD, core/store/history/lineAuthors.ts). Note text comes from conversations, so it
 * is untrusted: every piece of it is escaped so that links (`[x](command:…)`), images, HTML,
 * code spans, autolinks and emphasis render as plain text. The only links in the hover are the
 * ones built here, to Lore's own commands, and the client trusts only those
 * (`HOVER_ENABLED_COMMANDS`).
 */
import * as path from 'node:path';
import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import { escapeMarkdown } from '../core/base/markdownEscape';
import { addedByText, type LineAuthor } from '../core/store/history/lineAuthors';
import {
  LoreCommands,
  commandUri,
  type DeleteNoteArgs,
  type EditNotesArgs,
  type NoteStaleness,
  type OpenProvenanceArgs,
} from '../shared/protocol';
import type { FoundFileNotes, NotesService } from './notesService';
import { STALE_DISTANCE } from './staleness';

/** Notes shown in one hover; the rest are one click away in the note file. */
const MAX_HOVER_NOTES = 30;

function link(label: string, command: string, args: unknown): string {
  return `[${label}](${commandUri(command, args)})`;
}

function stalenessLine(staleness: NoteStaleness, filePath: string): string | undefined {
  if (staleness.state !== 'changed') return undefined;
  const amount = staleness.distance === undefined ? '' : ` (${Math.round(staleness.distance * 100)}% of its distinct lines differ)`;
  const what = staleness.distance !== undefined && staleness.distance >= STALE_DISTANCE ? 'changed a lot' : 'changed';
  return `*The file ${what} since these notes were recorded${amount}.* ${link('Still valid', LoreCommands.markNotesValid, { path: filePath })}`;
}

/** The author of each note's line (by note file and 0-based line), when the store is in git. */
export type NoteAuthors = (noteFile: string) => Promise<ReadonlyArray<LineAuthor | undefined> | undefined>;

/** The hover markdown for a file's notes. */
function notesHoverMarkdown(
  found: FoundFileNotes,
  staleness: NoteStaleness,
  authors: Map<string, ReadonlyArray<LineAuthor | undefined>>,
): string {
  const { resolved, notes } = found;
  const noteFile = resolved.entry.file;
  const shownPath = resolved.relative.startsWith('..') ? path.basename(resolved.absolute) : resolved.relative;
  const edit: EditNotesArgs = { noteFile, path: resolved.absolute };
  const header = `**Lore** · ${notes.length} note${notes.length === 1 ? '' : 's'} on ${escapeMarkdown(shownPath)} — ${link('Open', LoreCommands.openNoteFile, { noteFile, line: notes[0].line })} · ${link('Edit', LoreCommands.editNotes, edit)}`;
  const parts = [header];
  const stale = stalenessLine(staleness, resolved.absolute);
  if (stale) parts.push(stale);
  const items = notes.slice(0, MAX_HOVER_NOTES).map((note) => {
    const remove: DeleteNoteArgs = { noteFile: note.noteFile, line: note.line, raw: note.raw };
    const actions = [link('Delete', LoreCommands.deleteNote, remove)];
    // Every conversation that taught the note (merged duplicates carry several), each one link away.
    const sources = note.sources ?? (note.provenance ? [note.provenance] : []);
    const origin = sources.length
      ? ` — *from ${sources.map((p) => `${escapeMarkdown(p.source)}, ${escapeMarkdown(p.date)}`).join('; ')}*`
      : '';
    const conversations = sources.map((p) => {
      const open: OpenProvenanceArgs = { source: p.source, date: p.date, noteFile: note.noteFile, line: note.line };
      return link(sources.length === 1 ? 'Conversation' : `Conversation ${escapeMarkdown(p.source)}`, LoreCommands.openProvenance, open);
    });
    // Who added it, from git's blame of the note file: nothing while the line is not committed.
    const author = authors.get(note.noteFile)?.[note.line];
    const by = author ? ` — ${addedByText(author, escapeMarkdown)}` : '';
    return `- ${escapeMarkdown(note.text)}${origin}${by} · ${[...conversations, ...actions].join(' · ')}`;
  });
  if (notes.length > MAX_HOVER_NOTES) items.push(`- …and ${notes.length - MAX_HOVER_NOTES} more in the note file`);
  parts.push(items.join('\n'));
  return parts.join('\n\n');
}

/** Hover for a position: only the first line of a file with notes has one. */
export async function provideNotesHover(
  notes: NotesService,
  absolute: string,
  line: number,
  authorsOf?: NoteAuthors,
): Promise<Hover | null> {
  if (line !== 0) return null;
  const found = notes.find(absolute);
  if (!found) return null;
  const staleness = notes.assessStaleness(found);
  const authors = new Map<string, ReadonlyArray<LineAuthor | undefined>>();
  if (authorsOf) {
    for (const noteFile of new Set(found.notes.slice(0, MAX_HOVER_NOTES).map((n) => n.noteFile))) {
      const blamed = await authorsOf(noteFile);
      if (blamed) authors.set(noteFile, blamed);
    }
  }
  // The authors are part of the answer: a commit of the note file changes the hover, not the notes.
  const signature = found.notes.map((n) => authors.get(n.noteFile)?.[n.line]?.commit ?? '').join(',');
  const value = notes.memo(found, `hover.${staleness.state}.${staleness.distance}.${signature}`, () =>
    notesHoverMarkdown(found, staleness, authors),
  );
  return { contents: { kind: MarkupKind.Markdown, value } };
}
