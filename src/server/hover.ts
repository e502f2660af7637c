/**
 * The hover on the first line of a file with notes. Note text comes from conversations, so it
 * is untrusted: every piece of it is escaped so that links (`[x](command:…)`), images, HTML,
 * code spans, autolinks and emphasis render as plain text. The only links in the hover are the
 * ones built here, to Lore's own commands, and the client trusts only those
 * (`HOVER_ENABLED_COMMANDS`).
 */
import * as path from 'node:path';
import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import { escapeMarkdown } from '../core/base/markdownEscape';
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

/** The hover markdown for a file's notes. */
function notesHoverMarkdown(found: FoundFileNotes, staleness: NoteStaleness): string {
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
    return `- ${escapeMarkdown(note.text)}${origin} · ${[...conversations, ...actions].join(' · ')}`;
  });
  if (notes.length > MAX_HOVER_NOTES) items.push(`- …and ${notes.length - MAX_HOVER_NOTES} more in the note file`);
  parts.push(items.join('\n'));
  return parts.join('\n\n');
}

/** Hover for a position: only the first line of a file with notes has one. */
export function provideNotesHover(notes: NotesService, absolute: string, line: number): Hover | null {
  if (line !== 0) return null;
  const found = notes.find(absolute);
  if (!found) return null;
  const staleness = notes.assessStaleness(found);
  const value = notes.memo(found, `hover.${staleness.state}.${staleness.distance}`, () => notesHoverMarkdown(found, staleness));
  return { contents: { kind: MarkupKind.Markdown, value } };
}
