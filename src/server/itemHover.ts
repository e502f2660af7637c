/**
 * The hover on a knowledge item in the store's own markdown (category and note files): its id,
 * and when the store is in a git repository, who added it (the git author of the commit that added
 * its line), when it was learned (the commit, the conversation) and how often it changed since (core/history/itemHistory.ts), remembered per item, HEAD and
 * file version (core/history/itemHistoryCache.ts, shared with MCP search by ids). Without git the
 * hover names the id and says nothing about history.
 *
 * It also lists every conversation the item came from (a merged line `[from: a, d1; b, d2]` has
 * several), each linking to its transcript as the marker's own links do. Commit subjects can be a
 * person's own messages and item text and ids come from conversations, so everything is escaped;
 * the only links are to Lore's openProvenance command, built here.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import { listItems, type KnowledgeItem } from '../core/model/categoryFile';
import { listItemId } from '../core/model/itemId';
import { continuesItem } from '../core/model/itemLines';
import { learnedSummary, type ItemHistory } from '../core/store/items/itemHistory';
import { ItemHistoryMemo } from '../core/store/items/itemHistoryCache';
import { addedByText } from '../core/store/history/lineAuthors';
import { isInside, type StorePaths } from '../core/store/storePaths';
import { escapeMarkdown } from '../core/base/markdownEscape';
import { humanTime } from '../core/model/format';
import { ledgerTitle } from '../core/model/ledgerFormat';
import { readLedger } from '../core/store/ledger';
import { LoreCommands, commandUri, type OpenProvenanceArgs } from '../shared/protocol';

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
  for (let i = found.line + 1; i <= line; i++) if (!continuesItem(lines[i] ?? '')) return undefined;
  return { id: listItemId(found), item: found };
}

/**
 * `From` and a link per source of the item's provenance, or nothing when it has none (a
 * hand-written line). A conversation is named by the title the ledger keeps for it (`titleOf`),
 * else by its id; its date as people say it.
 */
function sourcesMarkdown(item: KnowledgeItem, absolute: string, titleOf: (id: string) => string | undefined): string[] {
  const sources = item.provenance?.validDate ? item.provenance.sources : [];
  if (sources.length === 0) return [];
  const links = sources.map((p) => {
    const args: OpenProvenanceArgs = { source: p.source, date: p.date, noteFile: absolute, line: item.line };
    const name = titleOf(p.source) ?? p.source;
    return `[${escapeMarkdown(name)}, ${escapeMarkdown(humanTime(p.date))}](${commandUri(LoreCommands.openProvenance, args)})`;
  });
  return [`From ${sources.length === 1 ? 'conversation' : `${sources.length} conversations`}: ${links.join(' · ')}`];
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function historyMarkdown(history: ItemHistory): string[] {
  const learned = learnedSummary(history);
  if (!learned) return [];
  if (!learned.added) return ['*Not committed yet.*'];
  const { added, lastChange } = learned;
  const from = learned.conversation ? ` from conversation ${escapeMarkdown(learned.conversation)}` : '';
  // Who added it, from git (never from the line): "Added by Ana, 2026-12-01".
  const by = added.author ? [capitalized(addedByText(added, escapeMarkdown))] : [];
  const parts = [...by, `Learned ${added.date.slice(0, 10)}${from} — ${escapeMarkdown(added.subject)} (${added.commit.slice(0, 7)})`];
  if (lastChange) {
    parts.push(
      `Changed ${learned.changes} time${learned.changes === 1 ? '' : 's'} since, last ${lastChange.date.slice(0, 10)} — ${escapeMarkdown(lastChange.subject)} (${lastChange.commit.slice(0, 7)})`,
    );
  }
  if (learned.uncommitted) parts.push('*Changed since, not committed yet.*');
  return parts;
}

export class ItemHistoryHovers {
  private readonly histories = new ItemHistoryMemo();

  constructor(readonly paths: StorePaths) {}

  /** A conversation's title from the ledger, read when a hover names a source (it changes with every harvest). */
  private titleOf(id: string): string | undefined {
    try {
      return ledgerTitle(readLedger(this.paths.ledger), id);
    } catch {
      return undefined; // An unreadable ledger: the id names it.
    }
  }

  /** The hover for `line` of a store file whose current text is `text`, or null off an item. */
  async provide(absolute: string, text: string, line: number): Promise<Hover | null> {
    const item = itemAt(text, line);
    if (!item) return null;
    // From the text being hovered (it may be unsaved): cheap, so not remembered with the history.
    const sources = sourcesMarkdown(item.item, absolute, (id) => this.titleOf(id));
    // The personal layer is never committed: it has no history to tell, and the hover says whose it is.
    const personal = isInside(this.paths.personal, absolute);
    const history = personal ? undefined : await this.histories.get(this.paths, item.id, absolute);
    const layer = personal ? ['*Personal: yours only, in .lore/personal/ (git-ignored); your agents get it, the team does not.*'] : [];
    const value = [`**Lore** · item \`${item.id}\``, ...layer, ...(history ? historyMarkdown(history) : [])].join('\n\n');
    return { contents: { kind: MarkupKind.Markdown, value: sources.length ? `${value}\n\n${sources.join('\n\n')}` : value } };
  }
}
