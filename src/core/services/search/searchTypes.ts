/**
 * The shapes shared by the search index, its lexical engine (SQLite FTS5, on disk or in memory),
 * the optional vector layer and their callers (CLI, MCP, VS Code).
 */
import { recordItemId } from '../../model/itemId';

/** What a search hit is: one of the category files, a per-file note, or a transcript chunk. */
export const SEARCH_CATEGORIES = ['facts', 'decisions', 'questions', 'playbooks', 'tasks', 'notes', 'transcripts'] as const;
export type SearchCategory = (typeof SEARCH_CATEGORIES)[number];

/**
 * Where the index that answered a query lives: the SQLite file, SQLite in memory (the file is
 * locked or unusable, or memory was asked for), or nowhere (no SQLite driver loads).
 */
export type SearchBackendName = 'sqlite' | 'memory' | 'none';

/** One searchable unit, derived from a source file of the store. */
export interface SearchDoc {
  /** Store-relative path (forward slashes) of the file the unit comes from. */
  file: string;
  /** 1-based line in that file, when known. */
  line?: number;
  category: SearchCategory;
  /** The item text without its provenance marker (a transcript chunk: the rendered turns). */
  text: string;
  /** Searchable context with a lower weight: noted path, section, conversation title and id. */
  context: string;
  /** Provenance source (conversation id, `manual`, `mcp`) when the item carries one. */
  source?: string;
  /** `YYYY-MM-DD` from the provenance (a transcript: its first turn or start date). */
  date?: string;
  /** Per-file notes: the workspace-relative path of the file the note is about. */
  notedPath?: string;
  /** The `##` section the item sits in (tasks: `Open` / `Done`). */
  section?: string;
  /** Content hash of the text that gets embedded; vectors are keyed by it. */
  hash: string;
  /**
   * The item reads as an instruction to an agent (safety/instructionFlags), decided once when it
   * is indexed so that queries only look up whether a person accepted it.
   */
  flagged?: boolean;
  /**
   * A knowledge item's id (model/itemId.ts), made when it is indexed: a search on a current index
   * then prints ids without hashing (node:crypto alone was a tenth of a one-shot `lore search`).
   * None for a conversation excerpt, which is not an item.
   */
  item?: string;
}

/** A document as a backend stores it, with the backend's numeric id. */
export interface StoredDoc extends SearchDoc {
  id: number;
}

/** Filters every query accepts. */
export interface SearchFilter {
  /** Only these categories (any of them). */
  categories?: SearchCategory[];
  /** Items dated on or after this `YYYY-MM-DD`; items without a date are left out. */
  since?: string;
  /** Items dated on or before this `YYYY-MM-DD`; items without a date are left out. */
  until?: string;
}

/** Markers put around matched terms in snippets. */
export interface HighlightMarkers {
  open: string;
  close: string;
}

/** Default snippet highlight markers: unambiguous in markdown (unlike `**`, which playbooks use). */
export const DEFAULT_MARKERS: HighlightMarkers = { open: '«', close: '»' };

/** A lexical match as a backend reports it. */
export interface LexicalHit {
  id: number;
  /** Higher is better (SQLite's bm25 is negated). */
  score: number;
  /** Present when the engine holds documents in memory; otherwise fetched for the final hits only. */
  doc?: StoredDoc;
}

/** One ranked result. */
export interface SearchHit {
  category: SearchCategory;
  text: string;
  /** A window of the text around the match, terms wrapped in the highlight markers. */
  snippet: string;
  /** Store-relative path of the file holding the item. */
  file: string;
  /** Absolute path of that file, to open it. */
  absolutePath: string;
  line?: number;
  source?: string;
  date?: string;
  notedPath?: string;
  section?: string;
  /** See SearchDoc.flagged. */
  flagged?: boolean;
  /** The knowledge item's id (SearchDoc.item); see searchHitId. */
  id?: string;
  /** The final ranking score (hybrid or lexical), higher is better. */
  score: number;
  /** Components: normalized BM25 (0–1) and cosine similarity, when they took part. */
  scores: { bm25?: number; vector?: number };
}

/**
 * The id of the knowledge item a hit is (the one `lore item`, `lore supersede` and the agents'
 * tools take); none for a conversation excerpt, which is not an item.
 */
export function searchHitId(hit: Pick<SearchHit, 'category' | 'text' | 'source' | 'date' | 'id'>): string | undefined {
  // A hit from the index carries the id it was indexed with; one made from a file's text is hashed here.
  return hit.id ?? (hit.category === 'transcripts' ? undefined : recordItemId(hit));
}

/** What an index update did. */
export interface UpdateReport {
  /** Source files looked at. */
  scanned: number;
  /** Store-relative paths (re-)indexed because their content changed or is new. */
  indexed: string[];
  /** Store-relative paths dropped because the file is gone. */
  removed: string[];
  /** Files whose mtime or size changed but whose content hash did not. */
  rehashed: number;
  /** Files skipped because their mtime and size were unchanged. */
  unchanged: number;
  /** Files that could not be read or parsed (they keep their previous documents). */
  errors: Array<{ file: string; message: string }>;
  /** Texts sent to the embedding provider. */
  embedded: number;
  /** Documents in the index after the update. */
  docs: number;
  ms: number;
}

/** The answer to a query: hits plus what produced them, so a UI can say so. */
export interface SearchResponse {
  query: string;
  hits: SearchHit[];
  backend: SearchBackendName;
  /** Why this backend answered (e.g. "… through node:sqlite: better-sqlite3 could not load: …", "forced by LORE_SEARCH_BACKEND"). */
  backendReason: string;
  mode: 'lexical' | 'hybrid';
  /** Why the search was lexical only, or which embedding model took part. */
  modeReason: string;
  /**
   * True when no item has every word of the query and the hits are items with some of the words
   * (the last lexical step): callers label them as partial matches.
   */
  partial?: boolean;
  /** Non-fatal problems met while answering (embedding failure, a query the engine refused …). */
  warnings: string[];
  /** The index refresh that ran before the query, when one did. */
  update?: UpdateReport;
  /**
   * Set when the answer came before the index update it waited for was done (a first build of a
   * large store): how many of the files to index were indexed. `warnings` says so in words.
   */
  indexing?: { done: number; total: number };
  tookMs: number;
}
