/**
 * How a search hit reads in the quick pick. The label is the item as plain words: a quick pick
 * renders no markdown, so `**name**: steps` would show its asterisks. The snippet goes below
 * only when it adds something (a transcript chunk, or a part of a long item the label cut off);
 * for a short item it is the same text again.
 */
import type { SearchHit } from '../../core/services/search/searchTypes';

const LABEL_MAX = 200;
const DETAIL_MAX = 240;

/** Inline markdown as the words a reader sees: emphasis, code spans and links lose their markup. */
export function plainMarkdown(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](url), ![alt](src)
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2') // **bold**, __bold__
    .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)/g, '$1$2') // *italic* (not a*b*c)
    .replace(/`([^`]+)`/g, '$1') // `code`
    .replace(/\s+/g, ' ')
    .trim();
}

function withoutProvenance(text: string): string {
  return text.replace(/\s*\[from:[^\]]*\]\s*$/, '');
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The quick pick's label, description and detail for a hit. */
export function searchHitItem(hit: SearchHit): { label: string; description: string; detail: string | undefined } {
  const provenance = hit.source ? `from ${hit.source}${hit.date ? `, ${hit.date}` : ''}` : '';
  const text = plainMarkdown(withoutProvenance(hit.text));
  const label = cut(text, LABEL_MAX);
  const snippet = plainMarkdown(withoutProvenance(hit.snippet.replace(/[«»]/g, '')));
  // The snippet is a window of the text: a second line only when the label does not hold it all.
  const repeats = label.replace(/…$/, '').includes(snippet.replace(/^…|…$/g, '').trim());
  return {
    label,
    description: [hit.category, hit.notedPath, provenance].filter(Boolean).join(' · '),
    detail: repeats ? undefined : cut(snippet, DETAIL_MAX),
  };
}
