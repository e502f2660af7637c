/**
 * The per-file note file `files/<id>.md`: a small frontmatter that records which file it is
 * about (its portable id, workspace-relative path, size, content fingerprint) and the notes as
 * list items with provenance.
 *
 *     ---
 *     path: "src/app.ts"
 *     id: "app-ts-3k9x2m1q"
 *     size: 5120
 *     fingerprint: "sha256:…"
 *     ---
 *     # src/app.ts
 *
 *     - Uses ephemeral cache blocks. [from: abc123, 2026-11-21]
 *
 * The id is the same on every machine: it is chosen from the file's path when its first note is
 * written (noteIdForPath), so two people who note the same file on their own machines write the
 * same note file and git merges one file. It never changes afterwards (a renamed file keeps its
 * note file; only `path` follows). Older stores named note files by device-inode and recorded a
 * `file_id`: such files still parse (their id is their name) until `lore notes migrate` renames them.
 */
import { randomBytes, sha256Digest } from '../base/lazyCrypto';
import { appendItems, listItems, type KnowledgeItem } from './categoryFile';
import { base32Id } from './itemId';
import { parseFrontmatter } from '../base/yamlFrontmatter';

/** Hash characters in a note id: 40 bits, so two paths of one store share one in a trillion. */
const NOTE_HASH_LENGTH = 8;
/** Characters of the file's base name kept in front of the hash, for people reading files/. */
const NOTE_SLUG_LENGTH = 32;
/** A note file named by an older Lore: `<device>-<inode>.md`, the name changing on every machine. */
const LEGACY_NOTE_NAME = /^\d+-\d+\.md$/;

/** Whether a note file name is an older Lore's device-inode name (to migrate). */
export function isLegacyNoteName(name: string): boolean {
  return LEGACY_NOTE_NAME.test(name);
}

/**
 * The readable front of a note id: the file's base name lowercased, every run of characters other
 * than a-z and 0-9 one `-`, so the name is valid on Windows (no reserved name, dot or case clash).
 */
function slugOf(relative: string): string {
  const base = relative.replace(/\\/g, '/').split('/').pop() ?? '';
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, NOTE_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug || 'note';
}

/** The note id a file gets when its first note is written: the same for the same path on every machine. */
export function noteIdForPath(relative: string): string {
  return `${slugOf(relative)}-${base32Id(sha256Digest(relative), NOTE_HASH_LENGTH)}`;
}

/** A fresh id for a file whose path id is taken by another file's notes. */
export function randomNoteId(relative: string): string {
  return `${slugOf(relative)}-${base32Id(randomBytes(8), NOTE_HASH_LENGTH)}`;
}

/** The note file name of an id. */
export function noteFileNameOf(id: string): string {
  return `${id}.md`;
}

/** The id of a note file by its name (what an older note file without `id` is called). */
export function noteIdOfName(name: string): string {
  return name.replace(/\.md$/, '');
}

/** Whether a name in files/ is a note file (markdown, not a hidden temp or aside file of a write). */
export function isNoteFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.');
}

export interface NoteFileMeta {
  /** Workspace-relative path with forward slashes (absolute when outside any workspace). */
  path: string;
  /** The note's portable id, the note file's name without `.md` ('' in an older file: its name is its id). */
  id: string;
  size: number;
  fingerprint: string;
}

export interface NoteFile {
  meta: NoteFileMeta;
  /** The markdown after the frontmatter. */
  body: string;
  notes: KnowledgeItem[];
}

function frontmatter(meta: NoteFileMeta): string {
  // JSON strings are valid YAML scalars, so any path (with `:` or `#`) round-trips.
  return [
    '---',
    `path: ${JSON.stringify(meta.path)}`,
    `id: ${JSON.stringify(meta.id)}`,
    `size: ${meta.size}`,
    `fingerprint: ${JSON.stringify(meta.fingerprint)}`,
    '---',
    '',
  ].join('\n');
}

/**
 * The frontmatter exactly as renderNoteFile writes it (JSON strings are YAML scalars). Reading it
 * with a regex is ~5× faster than gray-matter and does not load it (with js-yaml, most of what
 * a hook's note lookup cost); anything else (hand-edited, CRLF, reordered) goes through the YAML
 * parser. The result is the same either way, as a test that parses both ways checks. An older
 * Lore's `file_id` (a device:inode) in the same place is read and dropped.
 */
const CORE_FRONTMATTER =
  /^---\npath: ("(?:[^"\\\n]|\\.)*")\n(id|file_id): ("(?:[^"\\\n]|\\.)*")\nsize: (-?(?:0|[1-9]\d*))\nfingerprint: ("(?:[^"\\\n]|\\.)*")\n---\n/;

/** Meta and body of a note file in Lore's own frontmatter layout, read without YAML; undefined for any other text. */
export function readCoreFrontmatter(text: string): { meta: NoteFileMeta; body: string } | undefined {
  const match = CORE_FRONTMATTER.exec(text);
  if (!match) return undefined;
  try {
    const second = JSON.parse(match[3]) as string;
    const meta: NoteFileMeta = {
      path: JSON.parse(match[1]) as string,
      id: match[2] === 'id' ? second : '',
      size: Number(match[4]),
      fingerprint: JSON.parse(match[5]) as string,
    };
    return { meta, body: text.slice(match[0].length) };
  } catch {
    return undefined; // Not valid JSON after all: let the YAML parser decide.
  }
}

/** Parses a note file; a missing or broken frontmatter yields empty meta fields, never a throw. */
export function parseNoteFile(text: string): NoteFile {
  const bare = text.replace(/^\ufeff/, '');
  const core = readCoreFrontmatter(bare);
  if (core) return { ...core, notes: listItems(core.body) };
  let data: Record<string, unknown> = {};
  let body = text;
  try {
    // Never cached process-wide (see yamlFrontmatter), which matters in the long-running server.
    const parsed = parseFrontmatter(bare);
    data = parsed.data;
    body = parsed.content;
  } catch {
    // A hand-broken frontmatter: keep the whole text as body so no note is lost.
  }
  const meta: NoteFileMeta = {
    path: typeof data.path === 'string' ? data.path : '',
    id: typeof data.id === 'string' ? data.id : '',
    size: typeof data.size === 'number' ? data.size : -1,
    fingerprint: typeof data.fingerprint === 'string' ? data.fingerprint : '',
  };
  return { meta, body, notes: listItems(body) };
}

/** Renders a note file from its meta and body. */
export function renderNoteFile(meta: NoteFileMeta, body: string): string {
  return frontmatter(meta) + body.replace(/^\n+/, '');
}

/** Adds note lines (skipping ones already there) and refreshes the meta. */
export function addNotes(existing: string | undefined, meta: NoteFileMeta, lines: string[]): string {
  const body = existing === undefined ? '' : parseNoteFile(existing).body;
  return renderNoteFile(meta, appendItems(body, meta.path, lines));
}
