/** Human-readable sizes, token counts and item counts, shared by the CLI and the extension. */
import { ITEM_CATEGORIES, type ItemCounts } from '../knowledge/categories';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}K`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** `facts:3, decisions:1, …` in schema order. */
export function itemCountsText(items: ItemCounts): string {
  return ITEM_CATEGORIES.map((k) => `${k}:${items[k] ?? 0}`).join(', ');
}
