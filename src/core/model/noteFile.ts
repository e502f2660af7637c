/**
 * The per-file note file `files/<dev>-<ino>.md`: a small frontmatter that records which file it
 * is about (workspace-relative path, device:inode, size, content fingerprint) and the notes as
 * list items with provenance.
 *
 *     ---
 *     path: "src/app.ts"
 *     file_id: "2049:1234"
 *     size: 5120
 *     fingerprint: "sha256:…"
 *     ---
 *     # src/app.ts
 *
 *     - Uses ephemeral cache blocks. [from: abc123, 2026-11-21]
 */
import { appendItems, listItems, type KnowledgeItem } from './categoryFile';
import { parseFrontmatter } from '../base/yamlFrontmatter';

/** Whether a name in files/ is a note file (markdown, not a hidden temp or aside file of a write). */
export function isNoteFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.');
}

export interface NoteFileMeta {
  /** Workspace-relative path with forward slashes (absolute when outside any workspace). */
  path: string;
  fileId: string;
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
    `file_id: ${JSON.stringify(meta.fileId)}`,
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
 * parser. The result is the same either way, as a test that parses both ways checks.
 */
const CORE_FRONTMATTER =
  /^---\npath: ("(?:[^"\\\n]|\\.)*")\nfile_id: ("(?:[^"\\\n]|\\.)*")\nsize: (-?(?:0|[1-9]\d*))\nfingerprint: ("(?:[^"\\\n]|\\.)*")\n---\n/;

/** Meta and body of a note file in Lore's own frontmatter layout, read without YAML; undefined for any other text. */
export function readCoreFrontmatter(text: string): { meta: NoteFileMeta; body: string } | undefined {
  const match = CORE_FRONTMATTER.exec(text);
  if (!match) return undefined;
  try {
    const meta: NoteFileMeta = {
      path: JSON.parse(match[1]) as string,
      fileId: JSON.parse(match[2]) as string,
      size: Number(match[3]),
      fingerprint: JSON.parse(match[4]) as string,
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
    fileId: typeof data.file_id === 'string' ? data.file_id : '',
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
