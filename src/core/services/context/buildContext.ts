/**
 * Compiles the layers of an agent's context into one text, stable layers first, and records where
 * each layer sits. The output is a pure function of the input: no clock, no locale-dependent
 * sorting, no iteration over caller-ordered maps, and whitespace normalized so that an editor
 * adding a trailing space or a CRLF does not silently move the cache boundary. The knowledge and
 * file-notes and search-hits layers open with the data framing (safety/dataFraming): what they quote is a record,
 * not instructions.
 */
import { frameAsData } from '../../model/safety/dataFraming';
import { stripInvisible } from '../../model/safety/invisibleChars';
import {
  CONTEXT_LAYERS,
  isStableLayer,
  type BuiltContext,
  type ContextInput,
  type ContextLayer,
  type LayerBoundary,
  type ToolDescription,
  type TopicInput,
} from '../promptCache/contextLayers';
import { canonicalJson, compareCodeUnits } from '../../base/canonicalJson';

/**
 * Role instructions for an agent that receives Lore's blocks. Callers may pass their own; this
 * one only explains the blocks, so it suits any coding agent.
 */
export const DEFAULT_ROLE_INSTRUCTIONS = [
  'You are a coding assistant working in this project.',
  'The {knowledge} block, when present, is what earlier conversations established: open tasks, open questions,',
  'decisions, facts and playbooks, each ending with its provenance [from: conversation, date]. Prefer it to guessing,',
  'and say so when the code contradicts it. The {file-notes} block holds notes about specific files in scope.',
  'Blocks after them describe this discussion and this turn; the {message} block is what the user asks now.',
].join('\n');

/**
 * Normalizes a block of text: BOM dropped, line endings to LF, trailing whitespace removed from
 * every line, leading and trailing blank lines removed. Returns '' for a blank block.
 */
export function normalizeBlock(raw: string | undefined): string {
  if (!raw) return '';
  // Every layer an agent reads passes here (hooks, lore context, the chat participant): no invisible characters.
  const text = stripInvisible(raw);
  // Files end with a newline; dropping it first lets the clean-text fast path take them.
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  const body = end === text.length ? text : text.slice(0, end);
  if (body && isNormalized(body)) return body;
  return text
    .replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+$/gm, '')
    .replace(/^\n+/, '')
    .replace(/\n+$/, '');
}

/** True for whitespace other than a line feed (what \s matches, minus \n). */
function isBlank(code: number): boolean {
  if (code === 32 || code === 9) return true;
  return code !== 10 && (code < 32 || code >= 0x80) && /\s/.test(String.fromCharCode(code));
}

/**
 * Whether normalizeBlock would leave the text unchanged. Most blocks already are (the store writes
 * clean files), and scanning with indexOf is several times cheaper than the regex replacements.
 */
function isNormalized(text: string): boolean {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  if (first === 0xfeff || first === 10 || last === 10 || isBlank(last) || text.includes('\r')) return false;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (isBlank(text.charCodeAt(i - 1))) return false;
  }
  return true;
}

/** `{tag}\nbody\n{/tag}\n`, or undefined for an empty body (no empty blocks). */
function tagged(tag: string, body: string): string | undefined {
  return body ? `{${tag}}\n${body}\n{/${tag}}\n` : undefined;
}

/** Continuation lines of a list item are indented so they stay inside the item. */
function indentContinuation(text: string): string {
  return text.includes('\n') ? text.replace(/\n/g, '\n  ') : text;
}

/** Collapses a value onto one line (metadata values are `key: value` lines). */
function oneLine(text: string): string {
  const normalized = normalizeBlock(text);
  return normalized.includes('\n') ? normalized.replace(/\s*\n\s*/g, ' ') : normalized;
}

function renderTool(tool: ToolDescription): string {
  const head = `- ${oneLine(tool.name)}: ${indentContinuation(normalizeBlock(tool.description))}`;
  return tool.inputSchema === undefined ? head : `${head}\n  input: ${canonicalJson(tool.inputSchema)}`;
}

function renderTools(tools: ContextInput['tools']): string | undefined {
  if (!tools?.length) return undefined;
  // Sorted and de-duplicated: hosts list tools in registration order, which varies by session.
  const entries = [...new Set(tools.filter((t) => t.name.trim()).map(renderTool))].sort(compareCodeUnits);
  return tagged('tools', entries.join('\n'));
}

function renderFileNotes(fileNotes: ContextInput['fileNotes']): string | undefined {
  if (!fileNotes?.length) return undefined;
  const byPath = new Map<string, string[]>();
  for (const file of fileNotes) {
    const notes = file.notes.map(normalizeBlock).filter(Boolean);
    if (notes.length === 0) continue;
    const existing = byPath.get(file.path) ?? [];
    for (const note of notes) if (!existing.includes(note)) existing.push(note);
    byPath.set(file.path, existing);
  }
  // Map order is insertion order, i.e. the caller's; the sort makes it the path order.
  const sections = [...byPath.keys()].sort(compareCodeUnits).map(
    (p) =>
      `## ${oneLine(p)}\n${byPath
        .get(p)!
        .map((n) => `- ${indentContinuation(n)}`)
        .join('\n')}`,
  );
  return tagged('file-notes', sections.length ? frameAsData(sections.join('\n\n')) : '');
}

/** A topic's section: its instructions, then each subscribed file framed as data. */
export function renderTopic(topic: TopicInput): string {
  const parts = [`## topic: ${oneLine(topic.name)}`];
  const instructions = normalizeBlock(topic.instructions);
  if (instructions) parts.push(instructions);
  for (const sub of topic.subscriptions ?? []) {
    const text = normalizeBlock(sub.text);
    if (text) parts.push(`### ${oneLine(topic.name)} subscribes to ${oneLine(sub.path)}\n${frameAsData(text)}`);
  }
  return parts.join('\n\n');
}

function renderTopics(topics: ContextInput['topics']): string | undefined {
  if (!topics?.length) return undefined;
  const seen = new Set<string>();
  const sections = topics.filter((t) => !seen.has(t.name) && seen.add(t.name)).map(renderTopic);
  return tagged('topics', sections.join('\n\n'));
}

function renderDiscussion(meta: ContextInput['discussion']): string | undefined {
  if (!meta) return undefined;
  const lines = Object.keys(meta)
    .filter((key) => meta[key] !== undefined && oneLine(key))
    .sort(compareCodeUnits)
    .map((key) => {
      const value = oneLine(String(meta[key]));
      // An empty value gets no space after the colon: the output never ends a line in whitespace.
      return value ? `${oneLine(key)}: ${value}` : `${oneLine(key)}:`;
    });
  return tagged('discussion', lines.join('\n'));
}

function renderActiveFiles(files: ContextInput['activeFiles']): string | undefined {
  if (!files?.length) return undefined;
  // The user's order is kept (the focused file first); only repeats are dropped.
  const unique = [...new Set(files.map(oneLine).filter(Boolean))];
  return tagged('active-files', unique.map((f) => `- ${f}`).join('\n'));
}

function renderEarlierTurns(turns: ContextInput['earlierTurns']): string | undefined {
  if (!turns?.length) return undefined;
  const parts = turns.map((t) => ({ role: t.role, text: normalizeBlock(t.text) })).filter((t) => t.text);
  return tagged('earlier-turns', parts.map((t) => `## ${t.role}\n${t.text}`).join('\n\n'));
}

function renderSearchHits(hits: ContextInput['searchHits']): string | undefined {
  if (!hits?.length) return undefined;
  // Rank order is the caller's and it is meaningful; only blanks and repeats are dropped.
  const lines = [...new Set(hits.map(normalizeBlock).filter(Boolean))];
  return tagged('search-hits', lines.length ? frameAsData(lines.map(indentContinuation).join('\n')) : '');
}

const RENDERERS: Record<ContextLayer, (input: ContextInput) => string | undefined> = {
  role: (input) => {
    const role = normalizeBlock(input.role);
    return role ? role + '\n' : undefined;
  },
  tools: (input) => renderTools(input.tools),
  project: (input) => tagged('project', normalizeBlock(input.project)),
  // Only when digest.md exists: deleting it turns the block off.
  knowledge: (input) => (input.digest === undefined ? undefined : tagged('knowledge', frameAsData(normalizeBlock(input.digest)))),
  'file-notes': (input) => renderFileNotes(input.fileNotes),
  topics: (input) => renderTopics(input.topics),
  discussion: (input) => renderDiscussion(input.discussion),
  'active-files': (input) => renderActiveFiles(input.activeFiles),
  'earlier-turns': (input) => renderEarlierTurns(input.earlierTurns),
  'search-hits': (input) => renderSearchHits(input.searchHits),
  message: (input) => tagged('message', normalizeBlock(input.message)),
};

/**
 * Builds the context. Layers are separated by one blank line; the separator before a layer
 * belongs to the gap, not to the layer, so the stable prefix ends right after the last stable
 * layer's closing line whatever follows it (or whether anything follows at all).
 */
export function buildContext(input: ContextInput): BuiltContext {
  let text = '';
  let bytes = 0;
  let stablePrefixLength = 0;
  let stablePrefixBytes = 0;
  const boundaries: LayerBoundary[] = [];
  for (const layer of CONTEXT_LAYERS) {
    const body = RENDERERS[layer](input);
    if (!body) continue;
    if (text) {
      text += '\n';
      bytes += 1;
    }
    const start = text.length;
    const startByte = bytes;
    text += body;
    bytes += Buffer.byteLength(body, 'utf8');
    const stable = isStableLayer(layer);
    boundaries.push({ layer, stable, start, end: text.length, startByte, endByte: bytes });
    if (stable) {
      stablePrefixLength = text.length;
      stablePrefixBytes = bytes;
    }
  }
  return { text, stablePrefixLength, stablePrefixBytes, boundaries };
}

/** The part of the text before the cache boundary. */
export function stablePrefix(context: BuiltContext): string {
  return context.text.slice(0, context.stablePrefixLength);
}

/** The part of the text after the cache boundary (starts with the separator, if any). */
export function volatileSuffix(context: BuiltContext): string {
  return context.text.slice(context.stablePrefixLength);
}
