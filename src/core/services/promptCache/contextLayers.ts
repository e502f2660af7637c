/**
 * The layers of an agent's context, ordered stable → volatile. Provider prompt caches reuse a
 * prefix only when it is byte-identical, so everything that stays the same across the turns of a
 * discussion (and across discussions, until the next harvest) comes first, and everything that
 * changes per turn comes after the cache boundary.
 */

/**
 * Layers that stay byte-identical across turns (within a harvest cycle), in order. The active
 * topics come last among them: they change only when the set of active topics changes, and then
 * everything before them is still a cached prefix.
 */
const STABLE_LAYERS = ['role', 'tools', 'project', 'knowledge', 'file-notes', 'topics'] as const;
/**
 * Layers that change per turn, in order; the user message is always last. Search hits depend on
 * the message, so they come right before it (retrieval is the most volatile part but the message).
 */
const VOLATILE_LAYERS = ['discussion', 'active-files', 'earlier-turns', 'search-hits', 'message'] as const;
/** Every layer in the order it appears in the context. */
export const CONTEXT_LAYERS = [...STABLE_LAYERS, ...VOLATILE_LAYERS] as const;

export type StableLayer = (typeof STABLE_LAYERS)[number];
export type VolatileLayer = (typeof VOLATILE_LAYERS)[number];
export type ContextLayer = (typeof CONTEXT_LAYERS)[number];

/** True for the layers before the cache boundary. */
export function isStableLayer(layer: ContextLayer): layer is StableLayer {
  return (STABLE_LAYERS as readonly string[]).includes(layer);
}

/** A tool the agent may call, described to the model as text. */
export interface ToolDescription {
  name: string;
  description: string;
  /** JSON schema of the input; rendered as canonical JSON (sorted keys) so it never reorders. */
  inputSchema?: unknown;
}

/** The notes attached to one file in scope. */
export interface FileNotesInput {
  /** Workspace-relative path with forward slashes. */
  path: string;
  /** Note texts in the note file's order (provenance included). */
  notes: string[];
}

/** An active topic: its instructions and the files it subscribes to. */
export interface TopicInput {
  name: string;
  /** The topic file's body: instructions written by the project, rendered as they are. */
  instructions: string;
  /** Subscribed files (workspace-relative path and text), rendered as quoted data. */
  subscriptions?: ReadonlyArray<{ path: string; text: string }>;
}

/** One earlier turn of the discussion. */
export interface EarlierTurn {
  role: 'user' | 'assistant';
  text: string;
}

/** A value of the discussion metadata (undefined entries are left out). */
export type MetadataValue = string | number | boolean | undefined;

/**
 * Everything a context is built from. Absent or empty parts produce no layer at all, so turning a
 * source off (e.g. deleting digest.md) removes its block rather than leaving an empty one.
 */
export interface ContextInput {
  /** Role instructions: who the agent is and how to use the blocks below. */
  role?: string;
  tools?: readonly ToolDescription[];
  /** Project context (conventions, layout), as the user wrote it. */
  project?: string;
  /** The text of digest.md; undefined when the file does not exist ("delete to turn off"). */
  digest?: string;
  /** Notes of the files in scope; rendered sorted by path, whatever order they come in. */
  fileNotes?: readonly FileNotesInput[];
  /** Active topics in the order given (the compiler's: priority, then name). */
  topics?: readonly TopicInput[];
  /** Discussion metadata (name, id, turn count, …); rendered with sorted keys. */
  discussion?: Readonly<Record<string, MetadataValue>>;
  /** The files the user attached this turn, in the user's order (the focused one first). */
  activeFiles?: readonly string[];
  earlierTurns?: readonly EarlierTurn[];
  /**
   * Knowledge found by searching for this turn's message, one rendered line each (`- [category]
   * text [from: …] (file:line)`), best first; rendered in the order given, framed as data.
   */
  searchHits?: readonly string[];
  /** The user's message for this turn. */
  message?: string;
}

/** Where one layer sits in the built text. Offsets are end-exclusive. */
export interface LayerBoundary {
  layer: ContextLayer;
  stable: boolean;
  /** Offset in UTF-16 code units (JavaScript string indices) of `text`. */
  start: number;
  end: number;
  /** Offset in UTF-8 bytes of `text` (what providers hash and bill). */
  startByte: number;
  endByte: number;
}

/** A compiled context. */
export interface BuiltContext {
  text: string;
  /**
   * Length of the stable prefix in UTF-16 code units: `text.slice(0, stablePrefixLength)` is the
   * part that must stay byte-identical across turns. It ends after the last stable layer.
   */
  stablePrefixLength: number;
  /** The same boundary in UTF-8 bytes: `Buffer.from(text).subarray(0, stablePrefixBytes)`. */
  stablePrefixBytes: number;
  /** The layers present, in order; empty layers are absent. */
  boundaries: LayerBoundary[];
}
