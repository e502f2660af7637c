/**
 * The notes of indexed note files as the server's features show them (text, provenance, line in
 * the note file), parsed on demand for the few files that are open and memoized per index entry
 * version in a bounded least-recently-used map.
 */
import { plainSources, stripProvenance } from '../core/model/provenance';
import { parseNoteFile } from '../core/model/noteFile';
import type { IndexEntry } from '../core/store/noteIndex';
import { clearFrontmatterMemo } from '../core/base/yamlFrontmatter';
import type { NoteInfo } from '../shared/protocol';
import { readStoreFile } from '../core/base/readText';

const NOTES_MEMO_LIMIT = 256;

/** 0-based line of each note in the whole file: `KnowledgeItem.line` counts from the body. */
function noteLines(text: string, raws: string[]): number[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const out: number[] = [];
  let from = 0;
  for (const raw of raws) {
    let at = lines.indexOf(raw, from);
    if (at < 0) at = lines.indexOf(raw);
    out.push(at);
    if (at >= 0) from = at + 1;
  }
  return out;
}

export class NoteTexts {
  private readonly memo = new Map<string, { version: number; notes: NoteInfo[] }>();

  /** The notes of an entry, parsed from disk on first use and memoized until the entry changes. */
  notesOf(entry: IndexEntry): NoteInfo[] {
    const cached = this.memo.get(entry.name);
    if (cached && cached.version === entry.version) {
      // Re-insert so the Map's order is least-recently-used first.
      this.memo.delete(entry.name);
      this.memo.set(entry.name, cached);
      return cached.notes;
    }
    let text: string;
    try {
      text = readStoreFile(entry.file, 'utf8');
    } catch {
      return [];
    }
    const parsed = parseNoteFile(text);
    clearFrontmatterMemo();
    const lines = noteLines(
      text,
      parsed.notes.map((n) => n.raw),
    );
    const notes = parsed.notes.map((item, i): NoteInfo => ({
      text: stripProvenance(item.text),
      raw: item.raw,
      provenance: item.provenance ? { source: item.provenance.source, date: item.provenance.date } : undefined,
      sources: item.provenance ? plainSources(item.provenance.sources) : undefined,
      line: lines[i] >= 0 ? lines[i] : item.line,
      noteFile: entry.file,
    }));
    this.memo.set(entry.name, { version: entry.version, notes });
    if (this.memo.size > NOTES_MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value!);
    return notes;
  }
}
