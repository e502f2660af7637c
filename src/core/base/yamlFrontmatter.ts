/**
 * The one door to gray-matter (YAML frontmatter): loaded on first use, because with js-yaml it
 * is a fifth of the extension's bundle and activation never parses frontmatter. Passing options
 * on every parse keeps gray-matter from caching each text it saw for the life of the process;
 * clearFrontmatterMemo empties what a caller without options may have left.
 */
import { lazy } from './lazy';

const grayMatter = lazy(() => require('gray-matter') as typeof import('gray-matter'));

/** The frontmatter data and the content after it (a text without frontmatter: no data, all content). */
export function parseFrontmatter(text: string): { data: Record<string, unknown>; content: string } {
  const parsed = grayMatter()(text, { excerpt: false });
  return { data: parsed.data as Record<string, unknown>, content: parsed.content };
}

/** Empties gray-matter's process-wide cache of parsed texts (a no-op before it was ever loaded). */
export function clearFrontmatterMemo(): void {
  if (grayMatter.loaded) (grayMatter() as unknown as { clearCache?: () => void }).clearCache?.();
}
