/**
 * One item as an agent reads it, the same line everywhere an agent is handed items (MCP replies,
 * the hook's and the context's search hits, recall for VS Code's language model tools):
 *
 *     - [facts k3m9x2ab; superseded by p2q8r4st] (src/app.ts) the text [from: c1, 2026-11-20] (facts.md:3)
 *
 * The bracket names the category, the id an agent passes to the memory tools (when the caller has
 * one) and the status when the item is not current; `(path)` the workspace file a note is about;
 * the provenance what the item's own line carries; the last part where it is written. Cleaning
 * the text (cutting, redaction, quoting a conversation) is the caller's: it differs per place.
 */
import { formatProvenance } from './provenance';

export interface AgentItem {
  category: string;
  id?: string;
  /** Said when not current: superseded (by the item `supersededBy`) or moved to the archive. */
  status?: 'current' | 'superseded' | 'archived';
  supersededBy?: string;
  /** For a note: the workspace-relative path it is about. */
  path?: string;
  text: string;
  source?: string;
  date?: string;
  /** Store-relative file and 1-based line of the item. */
  file: string;
  line?: number;
}

/** The item as one line (see the module comment). */
export function agentItemLine(item: AgentItem): string {
  const status =
    item.status === 'superseded'
      ? `; superseded${item.supersededBy ? ` by ${item.supersededBy}` : ''}`
      : item.status === 'archived'
        ? '; archived'
        : '';
  const label = `[${item.category}${item.id ? ` ${item.id}` : ''}${status}]`;
  const about = item.path ? ` (${item.path})` : '';
  const prov = item.source || item.date ? ` ${formatProvenance({ source: item.source ?? '?', date: item.date ?? '?' })}` : '';
  return `- ${label}${about} ${item.text}${prov} (${item.file}${item.line ? `:${item.line}` : ''})`;
}
