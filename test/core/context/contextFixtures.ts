/** Shared inputs for the context tests. */
import type { ContextInput } from '../../../src/core/services/promptCache/contextLayers';

/** An active topic with a subscription (the topics layer; not in fullInput, whose layers other tests count). */
export const TOPIC_INPUT = {
  name: 'caching',
  instructions: 'Keep the stable prefix byte-identical.',
  subscriptions: [{ path: 'docs/cache.md', text: 'Breakpoints go after the last stable layer.' }],
};

/** Every layer filled but topics, with non-ASCII text so UTF-16 and UTF-8 offsets differ. */
export function fullInput(overrides: Partial<ContextInput> = {}): ContextInput {
  return {
    role: 'You are a careful coding assistant.',
    tools: [
      {
        name: 'search',
        description: 'Full-text search over the store.',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      },
      { name: 'read_note', description: 'Reads the notes of a file.' },
    ],
    project: 'Lore — TypeScript, strict, CommonJS.',
    digest: '# Knowledge digest\n\n## Decisions\n- Use SQLite FTS5 — über fast 🚀 [from: c1, 2026-11-20]\n',
    fileNotes: [
      { path: 'src/b.ts', notes: ['B is the parser. [from: c2, 2026-11-21]'] },
      { path: 'src/a.ts', notes: ['A uses ephemeral cache blocks. [from: c1, 2026-11-20]'] },
    ],
    discussion: { name: 'refactor auth', turns: 3 },
    activeFiles: ['src/b.ts', 'src/a.ts'],
    earlierTurns: [
      { role: 'user', text: 'How does the cache work?' },
      { role: 'assistant', text: 'It keys on the prefix.' },
    ],
    searchHits: ['- [decisions] Cache the prefix, not the turn [from: c3, 2026-11-22] (decisions.md:4)'],
    message: 'Now make it faster — ça va?',
    ...overrides,
  };
}
