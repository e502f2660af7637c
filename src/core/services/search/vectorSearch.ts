/**
 * The vector half of hybrid search: embeds the documents that have no vector yet (by content
 * hash, so nothing unchanged is embedded twice), keeps the normalized matrix in memory, and
 * finds the documents nearest to a query.
 */
import { EMBED_BATCH_SIZE, type Embedder } from './embeddings';
import { embedTextOf } from './extractDocs';
import { passesFilter, type DocRef, type LexicalBackend } from './lexicalBackend';
import type { SearchFilter } from './searchTypes';
import { VectorMatrix, type VectorStore } from './vectorStore';

/** Queries whose vectors are remembered (search-as-you-type repeats them; each costs a request). */
const QUERY_CACHE = 64;

/** Vectors for one embedder over whichever engine currently holds the documents. */
export class VectorSearch {
  private vectors: Map<string, Float32Array> | undefined;
  private matrix: { matrix: VectorMatrix; refs: Map<number, DocRef> } | undefined;
  private readonly queryVectors = new Map<string, Float32Array>();

  constructor(readonly embedder: Embedder) {}

  /** Forgets the matrix (documents changed), or everything loaded (the engine changed). */
  invalidate(engineChanged = false): void {
    this.matrix = undefined;
    if (engineChanged) this.vectors = undefined;
  }

  /**
   * Embeds the documents without a vector, a batch at a time, storing each batch as soon as it
   * is back (`store` wraps the write in the caller's recovery). On failure, what was embedded
   * is kept and the rest is retried on the next update.
   */
  async embedMissing(
    lexical: LexicalBackend,
    vectors: VectorStore,
    store: (write: () => void) => void,
    log?: (message: string) => void,
  ): Promise<number> {
    const model = this.embedder.model;
    const have = (this.vectors ??= vectors.load(model));
    const want = new Map<string, number>();
    for (const ref of lexical.docRefs()) if (!have.has(ref.hash) && !want.has(ref.hash)) want.set(ref.hash, ref.id);
    const ids = [...want.values()];
    let embedded = 0;
    try {
      for (let i = 0; i < ids.length; i += EMBED_BATCH_SIZE) {
        const docs = lexical.getDocs(ids.slice(i, i + EMBED_BATCH_SIZE));
        const batch = await this.embedder.embed(docs.map(embedTextOf));
        const entries = docs.map((d, j) => [d.hash, batch[j]] as [string, Float32Array]);
        store(() => vectors.put(model, entries));
        for (const [hash, vec] of entries) have.set(hash, vec);
        embedded += entries.length;
      }
    } catch (error) {
      log?.(`embedding failed: ${(error as Error).message}`);
    }
    if (embedded > 0) this.matrix = undefined;
    return embedded;
  }

  /** The `k` documents most similar to the query that pass the filter. Rejects when embedding fails. */
  async similar(
    lexical: LexicalBackend,
    vectors: VectorStore,
    query: string,
    k: number,
    filter: SearchFilter,
  ): Promise<Array<{ id: number; similarity: number }>> {
    let vector = this.queryVectors.get(query);
    if (!vector) {
      [vector] = await this.embedder.embed([query]);
      if (this.queryVectors.size >= QUERY_CACHE) this.queryVectors.delete(this.queryVectors.keys().next().value!);
      this.queryVectors.set(query, vector);
    }
    if (!this.matrix) {
      const refs = lexical.docRefs();
      this.vectors ??= vectors.load(this.embedder.model);
      this.matrix = { matrix: VectorMatrix.build(refs, this.vectors), refs: new Map(refs.map((r) => [r.id, r])) };
    }
    const { matrix, refs } = this.matrix;
    return matrix.top(vector, k, (id) => {
      const ref = refs.get(id);
      return ref !== undefined && passesFilter(ref, filter);
    });
  }
}
