/**
 * The fallback engine: the same documents in an in-memory minisearch index, answering the same
 * queries (BM25, AND then OR, prefix on the last word, phrases, filters). Used when
 * better-sqlite3 cannot load or the database is locked, or when forced. It lives as long as the
 * process, so it is rebuilt from the files once per process and then updated incrementally.
 */
import MiniSearch, { type Query } from 'minisearch';
import { passesFilter, type DocRef, type LexicalBackend, type LexicalResult, type LexicalStep, type SourceState } from './lexicalBackend';
import type { ParsedQuery } from './queryParser';
import type { LexicalHit, SearchDoc, SearchFilter, StoredDoc } from './searchTypes';
import { containsPhrase, normalizeTerm, textTerms, wordsWithOffsets } from './textTerms';

interface IndexedFields {
  id: number;
  text: string;
  context: string;
}

/** The minisearch engine. */
export class MiniSearchBackend implements LexicalBackend {
  readonly name = 'minisearch' as const;
  readonly location = 'memory';
  private readonly docs = new Map<number, StoredDoc>();
  private readonly bySource = new Map<string, number[]>();
  private readonly states = new Map<string, SourceState>();
  private nextId = 1;
  private readonly mini = new MiniSearch<IndexedFields>({
    fields: ['text', 'context'],
    idField: 'id',
    tokenize: (text) => wordsWithOffsets(text).map((w) => w.word),
    processTerm: (term) => normalizeTerm(term) || null,
    searchOptions: { boost: { text: 1, context: 0.3 } },
  });

  sourceStates(): ReadonlyMap<string, SourceState> {
    return this.states;
  }

  transaction<T>(fn: () => T): T {
    return fn();
  }

  replaceSource(state: SourceState, docs: SearchDoc[]): void {
    this.dropDocs(state.rel);
    this.appendDocs(state, docs);
  }

  appendDocs(state: SourceState, docs: SearchDoc[]): void {
    const ids = this.bySource.get(state.rel) ?? [];
    const fields: IndexedFields[] = [];
    for (const doc of docs) {
      const id = this.nextId++;
      this.docs.set(id, { ...doc, id });
      ids.push(id);
      fields.push({ id, text: doc.text, context: doc.context });
    }
    this.mini.addAll(fields);
    this.bySource.set(state.rel, ids);
    this.states.set(state.rel, { ...state, docs: ids.length });
  }

  setSourceState(state: SourceState): void {
    this.states.set(state.rel, { ...state, docs: state.docs ?? this.states.get(state.rel)?.docs });
  }

  removeSource(rel: string): void {
    this.dropDocs(rel);
    this.states.delete(rel);
  }

  private dropDocs(rel: string): void {
    const ids = this.bySource.get(rel);
    if (!ids) return;
    this.mini.discardAll(ids);
    for (const id of ids) this.docs.delete(id);
    this.bySource.delete(rel);
  }

  query(query: ParsedQuery, { mode }: LexicalStep, filter: SearchFilter, limit: number): LexicalResult {
    if (query.items.length === 0 || limit <= 0) return { hits: [], capped: false };
    const queries: Query[] = query.items.map((item, i) =>
      item.length > 1
        ? { combineWith: 'AND', queries: item }
        : { queries: [item[0]], prefix: query.prefixLast && i === query.items.length - 1 },
    );
    // A word that stems to nothing the index knows would make an AND query match nothing at
    // all, which is also what SQLite does; no special case needed.
    const results = this.mini.search(
      { combineWith: mode === 'and' ? 'AND' : 'OR', queries },
      { filter: (result) => passesFilter(this.docs.get(result.id as number) ?? { category: 'facts' }, filter) },
    );
    const phrases = mode === 'and' ? query.items.filter((item) => item.length > 1) : [];
    const hits: LexicalHit[] = [];
    for (const result of results) {
      const doc = this.docs.get(result.id as number);
      if (!doc) continue;
      if (phrases.length > 0) {
        const terms = textTerms(`${doc.text} ${doc.context}`);
        if (!phrases.every((p) => containsPhrase(terms, p))) continue;
      }
      hits.push({ id: doc.id, doc, score: result.score });
      if (hits.length >= limit) break;
    }
    return { hits, capped: false };
  }

  docRefs(): DocRef[] {
    return [...this.docs.values()].map((d) => ({ id: d.id, hash: d.hash, category: d.category, date: d.date }));
  }

  getDocs(ids: number[]): StoredDoc[] {
    return ids.flatMap((id) => {
      const doc = this.docs.get(id);
      return doc ? [doc] : [];
    });
  }

  count(): number {
    return this.docs.size;
  }

  close(): void {
    // Nothing to release: the index is garbage once the backend is dropped.
  }
}
