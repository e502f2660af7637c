/**
 * The hover on a knowledge item in the store's own markdown (category and note files): its id,
 * and when the store is in a git repository, when it was learned (the commit, the conversation)
 * and how often it changed since (core/history/itemHistory.ts). Asking git takes a few
 * processes, so a history is remembered per item, HEAD and file version: hovering again costs one
 * `git rev-parse`. Without git the hover names the id and says nothing about history.
 *
 * It also lists every conversation the item came from (a merged line `[from: a, d1; b, d2]` has
 * several), each linking to its transcript as the marker's own links do. Commit subjects can be a
 * person's own messages and item text and ids come from conversations, so everything is escaped;
 * the only links are to Lore's openProvenance command, built here.
 */
import * as fs from 'node:fs';
import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import { listItems, type KnowledgeItem } from '../core/knowledge/categoryFile';
import { listItemId } from '../core/knowledge/itemId';
import { itemHistory, type ItemHistory } from '../core/history/itemHistory';
import { runGit } from '../core/history/git';
import type { StorePaths } from '../core/store/storePaths';
import { escapeMarkdown } from '../core/util/markdownEscape';
import { LoreCommands, commandUri, type OpenProvenanceArgs } from '../shared/protocol';

/** Histories remembered at most (one per item hovered; cleared past this). */
const MAX_REMEMBERED = 500;

/** The item whose lines include `line` (0-based): its first line, or a continuation line under it. */
function itemAt(text: string, line: number): { id: string; item: KnowledgeItem } | undefined {
  const items = listItems(text);
  let found;
  for (const item of items) {
    if (item.line > line) break;
    found = item;
  }
  if (!found) return undefined;
  const lines = text.split(/\r?\n/);
  // Continuation lines are indented; anything else between the item and `line` ends it.
  for (let i = found.line + 1; i <= line; i++) if (!/^\s{2,}\S/.test(lines[i] ?? '')) return undefined;
  return { id: listItemId(found), item: found };
}

/** `From` and a link per source of the item's provenance, or nothing when it has none (a hand-written line). */
function sourcesMarkdown(item: KnowledgeItem, absolute: string): string[] {
  const sources = item.provenance?.validDate ? item.provenance.sources : [];
  if (sources.length === 0) return [];
  const links = sources.map((p) => {
    const args: OpenProvenanceArgs = { source: p.source, date: p.date, noteFile: absolute, line: item.line };
    return `[${escapeMarkdown(p.source)}, ${escapeMarkdown(p.date)}](${commandUri(LoreCommands.openProvenance, args)})`;
  });
  return [`From ${sources.length === 1 ? 'conversation' : `${sources.length} conversations`}: ${links.join(' · ')}`];
}

function historyMarkdown(history: ItemHistory): string[] {
  if (!history.git) return [];
  if (history.events.length === 0) return ['*Not committed yet.*'];
  const [added, ...changes] = history.events;
  const from = history.conversation ? ` from conversation ${escapeMarkdown(history.conversation.source)}` : '';
  const parts = [`Learned ${added.date.slice(0, 10)}${from} — ${escapeMarkdown(added.subject)} (${added.commit.slice(0, 7)})`];
  if (changes.length) {
    const last = changes[changes.length - 1];
    parts.push(`Changed ${changes.length} time${changes.length === 1 ? '' : 's'} since, last ${last.date.slice(0, 10)} — ${escapeMarkdown(last.subject)} (${last.commit.slice(0, 7)})`);
  }
  if (history.uncommitted) parts.push('*Changed since, not committed yet.*');
  return parts;
}

export class ItemHistoryHovers {
  private readonly remembered = new Map<string, string>();

  constructor(readonly paths: StorePaths) {}

  /** The hover for `line` of a store file whose current text is `text`, or null off an item. */
  async provide(absolute: string, text: string, line: number): Promise<Hover | null> {
    const item = itemAt(text, line);
    if (!item) return null;
    // From the text being hovered (it may be unsaved): cheap, so not remembered with the history.
    const sources = sourcesMarkdown(item.item, absolute);
    const head = await runGit(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: this.paths.root }).catch(() => undefined);
    let version = '';
    try {
      version = String(fs.statSync(absolute).mtimeMs);
    } catch {
      // Not saved yet.
    }
    const key = `${item.id}\0${head?.code === 0 ? head.stdout.trim() : 'none'}\0${version}`;
    let value = this.remembered.get(key);
    if (value === undefined) {
      const history = head && head.code === 0 ? await itemHistory(this.paths, item.id) : undefined;
      value = [`**Lore** · item \`${item.id}\``, ...(history ? historyMarkdown(history) : [])].join('\n\n');
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      this.remembered.set(key, value);
    }
    return { contents: { kind: MarkupKind.Markdown, value: sources.length ? `${value}\n\n${sources.join('\n\n')}` : value } };
  }
}
