/**
 * Code lenses on the first line of a file with notes, in two phases as VS Code wants them:
 * `provide` is cheap (one stat, index lookups, cached notes) and returns lenses with only a
 * range and data; `resolve` adds title and command for the lenses actually shown.
 *
 *   Lore: 3 notes (file changed a lot since) | from 3f2a…, 2026-11-21 | from manual, 2026-11-22 | Still valid
 *
 * One provenance lens per distinct conversation and date (several notes from one conversation
 * are one lens; a note merged from several conversations counts for each), at most
 * MAX_PROVENANCE_LENSES of them. Staleness needs a hash of the file, so
 * provide only uses what is already known; the first time it is unknown, it is computed right
 * after and a lens refresh is requested if the file turned out stale.
 */
import { CodeLens, Range, type Command } from 'vscode-languageserver/node';
import { LoreCommands, type NoteInfo, type NoteStaleness, type OpenNoteFileArgs, type OpenProvenanceArgs } from '../shared/protocol';
import type { FoundFileNotes, NotesService } from './notesService';
import { STALE_DISTANCE } from './staleness';

const MAX_PROVENANCE_LENSES = 5;

/** What a lens carries from provide to resolve. */
export interface NoteLensData {
  uri: string;
  path: string;
  kind: 'summary' | 'provenance' | 'more' | 'valid';
  source?: string;
  date?: string;
  more?: number;
}

/** Distinct provenances in note order, with how many notes each has and its first line. */
function provenanceGroups(notes: NoteInfo[]): Array<{ source: string; date: string; count: number; line: number; noteFile: string }> {
  const groups = new Map<string, { source: string; date: string; count: number; line: number; noteFile: string }>();
  for (const note of notes) {
    // A note several conversations taught (`[from: a, d1; b, d2]`) counts for each of them.
    for (const p of note.sources ?? (note.provenance ? [note.provenance] : [])) {
      const key = `${p.source}\0${p.date}`;
      const group = groups.get(key);
      if (group) group.count++;
      else groups.set(key, { source: p.source, date: p.date, count: 1, line: note.line, noteFile: note.noteFile });
    }
  }
  return [...groups.values()];
}

/** Lens titles render `$(name)` as icons; text from the store must not. */
function plain(text: string): string {
  return text.replace(/\$\(/g, '\\$(').replace(/[\r\n]+/g, ' ');
}

/** The summary lens text, e.g. `Lore: 3 notes (file changed a lot since)`. */
function summaryTitle(count: number, staleness: NoteStaleness | undefined): string {
  const base = `Lore: ${count} note${count === 1 ? '' : 's'}`;
  if (staleness?.state !== 'changed') return base;
  // "A lot" only when measured: without a baseline the amount is unknown.
  return staleness.distance !== undefined && staleness.distance >= STALE_DISTANCE
    ? `${base} (file changed a lot since)`
    : `${base} (file changed since)`;
}

export class NoteLenses {
  constructor(
    private readonly notes: NotesService,
    /** Asks the client to re-request lenses (debounced by the caller). */
    private readonly requestRefresh: () => void,
  ) {}

  provide(uri: string, absolute: string): CodeLens[] {
    const found = this.notes.find(absolute);
    if (!found) return [];
    const range = Range.create(0, 0, 0, 0);
    const lens = (data: Omit<NoteLensData, 'uri' | 'path'>) =>
      CodeLens.create(range, { uri, path: absolute, ...data } satisfies NoteLensData);
    const lenses = [lens({ kind: 'summary' })];
    const groups = this.groupsOf(found);
    for (const group of groups.slice(0, MAX_PROVENANCE_LENSES))
      lenses.push(lens({ kind: 'provenance', source: group.source, date: group.date }));
    if (groups.length > MAX_PROVENANCE_LENSES) lenses.push(lens({ kind: 'more', more: groups.length - MAX_PROVENANCE_LENSES }));
    const staleness = this.notes.quickStaleness(found);
    if (staleness?.stale) lenses.push(lens({ kind: 'valid' }));
    else if (!staleness) this.assessSoon(found);
    return lenses;
  }

  resolve(lens: CodeLens): CodeLens {
    const data = lens.data as NoteLensData | undefined;
    const found = data ? this.notes.recent(data.path) : undefined;
    if (!data || !found) {
      // The notes went away between provide and resolve; a refresh is already on its way.
      lens.command = { title: 'Lore: notes changed', command: '' };
      return lens;
    }
    // The summary's title waits for the staleness assessment; the rest only depend on the notes.
    const key =
      data.kind === 'summary'
        ? `lens.summary.${JSON.stringify(this.notes.assessStaleness(found))}`
        : `lens.${data.kind}.${data.source}\0${data.date}`;
    lens.command = this.notes.memo(found, key, () => this.commandFor(data, found));
    return lens;
  }

  private commandFor(data: NoteLensData, found: FoundFileNotes): Command {
    let command: Command;
    const first = found.notes[0];
    const openNotes: OpenNoteFileArgs = { noteFile: first.noteFile, line: first.line };
    switch (data.kind) {
      case 'summary':
        command = {
          title: summaryTitle(found.notes.length, this.notes.assessStaleness(found)),
          command: LoreCommands.openNoteFile,
          arguments: [openNotes],
        };
        break;
      case 'provenance': {
        const group = this.groupsOf(found).find((g) => g.source === data.source && g.date === data.date);
        if (!group) {
          command = { title: 'Lore: notes changed', command: '' };
          break;
        }
        const args: OpenProvenanceArgs = { source: group.source, date: group.date, noteFile: group.noteFile, line: group.line };
        const title = plain(`from ${group.source}, ${group.date}${group.count > 1 ? ` (${group.count} notes)` : ''}`);
        command = {
          title,
          command: LoreCommands.openProvenance,
          arguments: [args],
          tooltip: plain(`Open the conversation ${group.source}`),
        };
        break;
      }
      case 'more':
        command = { title: `…${data.more} more conversations`, command: LoreCommands.openNoteFile, arguments: [openNotes] };
        break;
      case 'valid':
        command = {
          title: 'Still valid',
          command: LoreCommands.markNotesValid,
          arguments: [{ path: data.path }],
          tooltip: 'Record the current content as what these notes describe',
        };
        break;
    }
    return command;
  }

  private groupsOf(found: FoundFileNotes): ReturnType<typeof provenanceGroups> {
    return this.notes.memo(found, 'lens.groups', () => provenanceGroups(found.notes));
  }

  /** Computes staleness after answering; if stale, lenses are re-requested to show it. */
  private assessSoon(found: FoundFileNotes): void {
    setImmediate(() => {
      if (this.notes.assessStaleness(found).stale) this.requestRefresh();
    });
  }
}
