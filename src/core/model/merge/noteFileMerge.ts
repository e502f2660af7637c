/**
 * The three-way merge of a per-file note file (`files/*.md`, noteFile.ts): its frontmatter key
 * by key (a key one side changed takes that side's value; ours when both changed it; a key only
 * one side has is kept, ours's order first), its body as a file of items (itemFileMerge.ts). The
 * keys are read generically, so a note file written by an older or newer Lore (other keys) merges
 * the same way. A frontmatter that is not one `key: value` per line (hand-written YAML) is kept
 * as ours has it.
 */
import { withoutConflictMarkers } from './conflictMarkers';
import { mergeItemFile } from './itemFileMerge';

interface SplitNote {
  /** `key: value` lines by key, in order; undefined when the frontmatter is not that simple. */
  keys?: Map<string, string>;
  /** The frontmatter lines as they are (without the `---` lines), undefined when there is none. */
  frontmatter?: string[];
  body: string;
}

const KEY_LINE = /^([A-Za-z_][\w-]*):(.*)$/;

function splitNote(text: string): SplitNote {
  const bare = withoutConflictMarkers(text).replace(/^\ufeff/, '');
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(bare);
  if (!match) return { body: bare };
  const frontmatter = match[1].split(/\r?\n/);
  const keys = new Map<string, string>();
  for (const line of frontmatter) {
    const key = KEY_LINE.exec(line);
    if (!key || keys.has(key[1])) return { frontmatter, body: bare.slice(match[0].length) };
    keys.set(key[1], line);
  }
  return { keys, frontmatter, body: bare.slice(match[0].length) };
}

function mergeKeys(base: Map<string, string>, ours: Map<string, string>, theirs: Map<string, string>): string[] {
  const out: string[] = [];
  for (const key of new Set([...ours.keys(), ...theirs.keys()])) {
    const [b, o, t] = [base.get(key), ours.get(key), theirs.get(key)];
    if (o === undefined) {
      if (b === undefined || b !== t) out.push(t!);
    } else if (t === undefined) {
      if (b === undefined || b !== o) out.push(o);
    } else out.push(b === o ? t : o);
  }
  return out;
}

/** Three-way merge of a note file (see the module comment). */
export function mergeNoteFile(base: string, ours: string, theirs: string): string {
  const [b, o, t] = [base, ours, theirs].map(splitNote);
  const body = mergeItemFile(b.body, o.body, t.body);
  const frontmatter = o.keys && t.keys ? mergeKeys(b.keys ?? new Map(), o.keys, t.keys) : (o.frontmatter ?? t.frontmatter);
  if (!frontmatter) return body;
  return ['---', ...frontmatter, '---', ''].join('\n') + body;
}
