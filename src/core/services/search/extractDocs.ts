/**
 * Turns one source file into search documents: one per category item, one per per-file note,
 * and for a conversation one per group of turns (~1.5 KB) of its rendered §2.1 transcript, so a
 * hit points at the part of a long session that matched rather than at the whole file.
 *
 * This is the index's redaction boundary: every field of a document (text, context, source,
 * noted path, section) is redacted here, a conversation before it is cut into chunks, so no
 * secret reaches `.index/`, an embedding request or a search result. (File paths are redacted
 * where they are listed, in sourceFiles.ts.)
 */
import type { Conversation } from '../../model/conversation';
import { renderTranscript } from '../conversations/renderTranscript';
import { parseTurnHeading } from '../../model/transcriptSyntax';
import { listItems, type KnowledgeItem } from '../../model/categoryFile';
import { recordLine } from '../../model/itemLines';
import { itemId } from '../../model/itemId';
import { stripProvenance } from '../../model/provenance';
import { flagInstruction } from '../../model/safety/instructionFlags';
import { redactSecrets } from '../../model/safety/redact';
import { parseNoteFile, type NoteFile } from '../../model/noteFile';
import type { SearchCategory, SearchDoc } from './searchTypes';
import type { SourceFileInfo } from './sourceFiles';
import { sha256Digest } from '../../base/lazyCrypto';
import { lazy } from '../../base/lazy';
import { readStoreFile } from '../../base/readText';

const detectModule = lazy(() => require('../conversations/detect') as typeof import('../conversations/detect'));

/** Target size of a transcript chunk; a single turn larger than the hard cap is cut. */
const CHUNK_TARGET_CHARS = 1500;
const CHUNK_MAX_CHARS = 2400;

/** Content hash used for source files and for the vectors of a text. */
export function contentHash(data: string | Buffer): string {
  return sha256Digest(data, 'base64url');
}

/** The text a document is embedded as: a note carries the path it is about. */
export function embedTextOf(doc: Pick<SearchDoc, 'text' | 'notedPath'>): string {
  return doc.notedPath ? `${doc.notedPath}: ${doc.text}` : doc.text;
}

/**
 * Short fields already redacted (noted paths, sections, sources): they repeat over the items of a
 * file and of a harvest, and a redaction costs about as much for a short text as for an item's
 * (every rule's hints are looked up), so a build spent half its redaction on them. Redaction is
 * a pure function of the text; the memo is capped, and emptied when full.
 */
const redactedFields = new Map<string, string>();
const MAX_REDACTED_FIELDS = 4096;

function redactField(text: string): string {
  let clean = redactedFields.get(text);
  if (clean === undefined) {
    clean = redactSecrets(text);
    if (redactedFields.size >= MAX_REDACTED_FIELDS) redactedFields.clear();
    redactedFields.set(text, clean);
  }
  return clean;
}

function finish(doc: Omit<SearchDoc, 'hash'>): SearchDoc {
  return { ...doc, hash: contentHash(embedTextOf(doc)) };
}

/**
 * A source file read and turned into documents, by this thread or ahead of time by an extraction
 * thread (extractThreads.ts): the documents and the hash always come from the same bytes.
 */
export interface PreparedFile {
  rel: string;
  /** Why the file could not be read (then nothing else is set). */
  readError?: string;
  hash?: string;
  /** Bytes read. */
  length?: number;
  /** The content hash was `unchangedHash`: no documents made. */
  unchanged?: boolean;
  /** A conversation over the size limit: no documents made. */
  tooLarge?: boolean;
  /** Why no documents could be made (a parser bug: the file keeps its previous documents). */
  extractError?: string;
  docs?: SearchDoc[];
}

/** Reads a source file and makes its documents, unless its content hash is `unchangedHash` or it is a conversation over `maxBytes`. */
export function prepareFile(source: SourceFileInfo, maxBytes: number, unchangedHash?: string): PreparedFile {
  const { prepared, text } = readSource(source, maxBytes, unchangedHash);
  if (text === undefined) return prepared;
  try {
    return { ...prepared, docs: extractDocs(source, text) };
  } catch (error) {
    return { ...prepared, extractError: (error as Error).message };
  }
}

/** prepareFile for a large file, its documents made with a `pause` about every `sliceMs` (extractDocsInSlices). */
export async function prepareFileInSlices(
  source: SourceFileInfo,
  maxBytes: number,
  pause: () => Promise<void>,
  sliceMs: number,
): Promise<PreparedFile> {
  const { prepared, text } = readSource(source, maxBytes);
  if (text === undefined) return prepared;
  try {
    return { ...prepared, docs: await extractDocsInSlices(source, text, pause, sliceMs) };
  } catch (error) {
    return { ...prepared, extractError: (error as Error).message };
  }
}

/** A source file read, hashed and measured; its text only when documents are to be made of it. */
function readSource(source: SourceFileInfo, maxBytes: number, unchangedHash?: string): { prepared: PreparedFile; text?: string } {
  let data: Buffer;
  try {
    data = readStoreFile(source.abs);
  } catch (error) {
    return { prepared: { rel: source.rel, readError: (error as Error).message } };
  }
  const prepared: PreparedFile = { rel: source.rel, hash: contentHash(data), length: data.length };
  if (prepared.hash === unchangedHash) return { prepared: { ...prepared, unchanged: true } };
  if (source.kind === 'transcript' && data.length > maxBytes) return { prepared: { ...prepared, tooLarge: true } };
  return { prepared, text: data.toString('utf8') };
}

/** How documents are made. */
export interface ExtractOptions {
  /**
   * Whether to run the instruction-flag rules on each item (default true). Off only for callers
   * that compare documents with indexed ones and never store or hand them out (the hook's check
   * of a hit against its changed file): `flagged` is then left undefined, which counts as unknown.
   */
  flags?: boolean;
}

/** Reads a source file's text into documents. Never throws on odd content. */
export function extractDocs(source: SourceFileInfo, text: string, options: ExtractOptions = {}): SearchDoc[] {
  switch (source.kind) {
    case 'category':
      return categoryDocs(source, text, options);
    case 'notes':
      return noteDocs(source, text, options);
    case 'transcript':
      return transcriptDocs(source, text);
  }
}

/**
 * The document of one knowledge line (a category item or a note), none when only provenance is
 * left: its text without the provenance, found also by `label` and by the source it came from.
 */
function itemDoc(
  file: string,
  item: KnowledgeItem,
  fields: { line: number; category: SearchCategory; label?: string; section?: string; notedPath?: string },
  options: ExtractOptions = {},
): SearchDoc[] {
  const body = redactSecrets(stripProvenance(item.text).trim());
  if (!body) return [];
  const prov = item.provenance;
  const source = prov?.source === undefined ? undefined : redactField(prov.source);
  const { label, section, notedPath, ...rest } = fields;
  const date = prov?.validDate ? prov.date : undefined;
  // The line as the item's id and the instruction check read it (the same fields a hit shows).
  const line = recordLine({ text: body, source, date });
  return [
    finish({
      file,
      text: body,
      context: redactSecrets([label, prov?.source].filter(Boolean).join(' ')),
      source,
      date,
      section: section === undefined ? undefined : redactField(section),
      notedPath: notedPath === undefined ? undefined : redactField(notedPath),
      flagged: options.flags === false ? undefined : flagInstruction(line).length > 0,
      item: itemId(line),
      ...rest,
    }),
  ];
}

function categoryDocs(source: SourceFileInfo, text: string, options: ExtractOptions): SearchDoc[] {
  return categoryEntries(source, text, options).flatMap((make) => make());
}

/** The items of a category file, each with its document made on demand. */
function categoryEntries(source: SourceFileInfo, text: string, options: ExtractOptions = {}): Array<() => SearchDoc[]> {
  const category = source.category ?? 'facts';
  return listItems(text).map(
    (item) => () => itemDoc(source.rel, item, { line: item.line + 1, category, label: item.section, section: item.section }, options),
  );
}

/**
 * The same documents as extractDocs, made with a pause (`pause`, a yield to the event loop)
 * every `sliceMs`: a category or note file of 20,000 items takes a second to redact, flag and
 * hash, which a server must not spend in one stretch. Conversations are made at once.
 */
export async function extractDocsInSlices(
  source: SourceFileInfo,
  text: string,
  pause: () => Promise<void>,
  sliceMs: number,
): Promise<SearchDoc[]> {
  if (source.kind === 'transcript') return extractDocs(source, text);
  const makers = source.kind === 'notes' ? noteEntries(source, text).map((entry) => entry.doc) : categoryEntries(source, text);
  const docs: SearchDoc[] = [];
  let deadline = performance.now() + sliceMs;
  for (const make of makers) {
    docs.push(...make());
    if (performance.now() < deadline) continue;
    await pause();
    deadline = performance.now() + sliceMs;
  }
  return docs;
}

function noteDocs(source: SourceFileInfo, text: string, options: ExtractOptions): SearchDoc[] {
  return noteEntries(source, text, undefined, options).flatMap((entry) => entry.doc());
}

/** One note of a note file: where it is, and its document made on demand (none when only provenance is left). */
export interface NoteEntry {
  item: KnowledgeItem;
  /** 1-based line in the note file. */
  line: number;
  notedPath?: string;
  doc(): SearchDoc[];
}

/**
 * The notes of a note file with their documents made on demand: recall makes only those that
 * fit its budget (a file can hold tens of thousands of notes), the index all of them. `note` is
 * the text parsed, when the caller has it already.
 */
export function noteEntries(
  source: SourceFileInfo,
  text: string,
  note: NoteFile = parseNoteFile(text),
  options: ExtractOptions = {},
): NoteEntry[] {
  // Note lines are numbered in the body; the frontmatter above it shifts them.
  const bodyStart = text.endsWith(note.body) ? text.length - note.body.length : 0;
  const offset = countLines(text, 0, bodyStart);
  const notedPath = note.meta.path || undefined;
  return note.notes.map((item) => {
    const line = offset + item.line + 1;
    return {
      item,
      line,
      notedPath,
      doc: () => itemDoc(source.rel, item, { line, category: 'notes', label: notedPath, notedPath }, options),
    };
  });
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

interface Block {
  text: string;
  at?: string;
}

/** The rendered transcript cut at its turn headings (the renderer escapes look-alikes in text). */
function turnBlocks(conv: Conversation): Block[] {
  const lines = renderTranscript(conv).split('\n');
  const rendered = conv.turns.filter((t) => t.text.trim() !== '' || (t.tools ?? []).some((x) => x.trim() !== ''));
  const blocks: Block[] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    if (parseTurnHeading(line)) {
      if (current) blocks.push({ text: current.join('\n').trim() });
      current = [line];
    } else current?.push(line);
  }
  if (current) blocks.push({ text: current.join('\n').trim() });
  // Dates per turn only when the blocks line up with the turns the renderer kept.
  if (blocks.length === rendered.length) blocks.forEach((b, i) => (b.at = rendered[i].at));
  return blocks.flatMap((b) => splitLong(b));
}

function splitLong(block: Block): Block[] {
  if (block.text.length <= CHUNK_MAX_CHARS) return [block];
  const parts: Block[] = [];
  let rest = block.text;
  while (rest.length > CHUNK_MAX_CHARS) {
    // Cut at a line break (else a space) in the second half of the window, so words stay whole.
    const window = rest.slice(0, CHUNK_MAX_CHARS);
    let cut = window.lastIndexOf('\n');
    if (cut < CHUNK_MAX_CHARS / 2) cut = window.lastIndexOf(' ');
    if (cut < CHUNK_MAX_CHARS / 2) cut = CHUNK_MAX_CHARS;
    parts.push({ text: rest.slice(0, cut).trim(), at: block.at });
    rest = rest.slice(cut);
  }
  if (rest.trim()) parts.push({ text: rest.trim(), at: block.at });
  return parts;
}

/** The conversation with its texts redacted, before it is rendered and cut into chunks (its id already is: sanitizeConversationId). */
function redactConversation(conv: Conversation): Conversation {
  return {
    ...conv,
    title: conv.title === undefined ? undefined : redactSecrets(conv.title),
    turns: conv.turns.map((t) => ({ ...t, text: redactSecrets(t.text), tools: t.tools?.map(redactSecrets) })),
  };
}

function transcriptDocs(source: SourceFileInfo, text: string): SearchDoc[] {
  // The importers (every agent's format) load with the first conversation: `lore hook` checks
  // knowledge files against the index with this module and never reads a conversation.
  const { importConversation } = detectModule();
  const conv = redactConversation(importConversation(source.abs, text));
  const startDate = dateOf(conv.startedAt) ?? dateOf(new Date(source.mtimeMs).toISOString());
  const context = [conv.title, conv.id].filter(Boolean).join(' ');
  const docs: SearchDoc[] = [];
  let group: Block[] = [];
  let size = 0;
  const cursor = { offset: 0, line: 1 };
  const flush = () => {
    if (group.length === 0) return;
    const body = group.map((b) => b.text).join('\n\n');
    docs.push(
      finish({
        file: source.rel,
        line: locate(text, group[0].text, cursor),
        category: 'transcripts',
        text: body,
        context,
        source: conv.id,
        date: dateOf(group.find((b) => b.at)?.at) ?? startDate,
      }),
    );
    group = [];
    size = 0;
  };
  for (const block of turnBlocks(conv)) {
    if (size > 0 && size + block.text.length > CHUNK_TARGET_CHARS) flush();
    group.push(block);
    size += block.text.length;
  }
  flush();
  return docs;
}

/**
 * Finds the line where a chunk starts in the source file: the first text line of its first turn,
 * searched forward from the previous chunk (so counting lines stays linear). JSONL sources escape
 * their text, so a chunk may not be found; it then has no line.
 */
function locate(source: string, block: string, cursor: { offset: number; line: number }): number | undefined {
  const first = block
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .find((l) => l.length >= 8 && !l.startsWith('> ['));
  if (!first) return undefined;
  const at = source.indexOf(first.slice(0, 60), cursor.offset);
  if (at < 0) return undefined;
  cursor.line += countLines(source, cursor.offset, at);
  cursor.offset = at;
  return cursor.line;
}

/** `YYYY-MM-DD` of an ISO timestamp, or undefined. */
function dateOf(iso: string | undefined): string | undefined {
  return iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : undefined;
}
