/**
 * Embedding vectors, stored as float32 blobs keyed by (model, content hash): a text is embedded
 * once and never again while it is unchanged, whichever file it moves to. SQLite keeps them in
 * the index database; the fallback keeps them in an append-only file beside it, so a host
 * without better-sqlite3 does not re-embed on every start either.
 */
import { appendNoFollow, mkdirNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import type { SqliteDatabase } from '../../base/sqliteDriver';
import { readStoreFile } from '../../base/readText';

/** Where vectors are kept. */
export interface VectorStore {
  /** Every vector of a model, by content hash. */
  load(model: string): Map<string, Float32Array>;
  put(model: string, entries: Array<[hash: string, vector: Float32Array]>): void;
}

function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function fromBlob(blob: Uint8Array): Float32Array {
  // Copy: a Buffer's offset into its pool need not be 4-byte aligned (node:sqlite gives a Uint8Array).
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}

/** Vectors in the `vectors` table of the index database. */
export class SqliteVectorStore implements VectorStore {
  constructor(private readonly db: SqliteDatabase) {}

  load(model: string): Map<string, Float32Array> {
    const rows = this.db.prepare('SELECT hash, vec FROM vectors WHERE model = ?').all(model) as Array<{ hash: string; vec: Uint8Array }>;
    return new Map(rows.map((r) => [r.hash, fromBlob(r.vec)]));
  }

  put(model: string, entries: Array<[string, Float32Array]>): void {
    const insert = this.db.prepare('INSERT OR REPLACE INTO vectors(model, hash, dim, vec) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const [hash, vec] of entries) insert.run(model, hash, vec.length, toBlob(vec));
    });
  }
}

/**
 * Vectors in an append-only file of records `[u16 model length][model][u16 hash length][hash]
 * [u32 dim][dim × f32]`. A torn last record (crash mid-append) is ignored when reading.
 */
export class FileVectorStore implements VectorStore {
  private cache: Map<string, Map<string, Float32Array>> | undefined;

  /** `prepare` creates the folder before the first write (with its .gitignore). */
  constructor(
    private readonly file: string,
    private readonly prepare: () => void = () => mkdirNoFollow(path.dirname(file)),
  ) {}

  private readAll(): Map<string, Map<string, Float32Array>> {
    if (this.cache) return this.cache;
    const all = new Map<string, Map<string, Float32Array>>();
    let data: Buffer;
    try {
      data = readStoreFile(this.file);
    } catch {
      data = Buffer.alloc(0);
    }
    let at = 0;
    while (at + 2 <= data.length) {
      const modelLen = data.readUInt16LE(at);
      const hashAt = at + 2 + modelLen;
      if (hashAt + 2 > data.length) break;
      const hashLen = data.readUInt16LE(hashAt);
      const dimAt = hashAt + 2 + hashLen;
      if (dimAt + 4 > data.length) break;
      const dim = data.readUInt32LE(dimAt);
      const end = dimAt + 4 + dim * 4;
      if (end > data.length) break;
      const model = data.toString('utf8', at + 2, hashAt);
      const hash = data.toString('utf8', hashAt + 2, dimAt);
      if (!all.has(model)) all.set(model, new Map());
      all.get(model)!.set(hash, fromBlob(data.subarray(dimAt + 4, end)));
      at = end;
    }
    this.cache = all;
    return all;
  }

  load(model: string): Map<string, Float32Array> {
    return new Map(this.readAll().get(model) ?? []);
  }

  put(model: string, entries: Array<[string, Float32Array]>): void {
    const all = this.readAll();
    if (!all.has(model)) all.set(model, new Map());
    const parts: Buffer[] = [];
    for (const [hash, vec] of entries) {
      all.get(model)!.set(hash, vec);
      const m = Buffer.from(model, 'utf8');
      const h = Buffer.from(hash, 'utf8');
      const head = Buffer.alloc(8);
      head.writeUInt16LE(m.length, 0);
      head.writeUInt16LE(h.length, 2);
      head.writeUInt32LE(vec.length, 4);
      parts.push(head.subarray(0, 2), m, head.subarray(2, 4), h, head.subarray(4, 8), toBlob(vec));
    }
    try {
      this.prepare();
      appendNoFollow(this.file, Buffer.concat(parts));
    } catch {
      // A read-only store: the vectors stay in memory for this process.
    }
  }
}

/** Normalized vectors of the indexed documents, searched by brute-force cosine similarity. */
export class VectorMatrix {
  private constructor(
    readonly ids: number[],
    private readonly data: Float32Array,
    readonly dim: number,
  ) {}

  /** Builds the matrix for the documents that have a vector of the right dimension. */
  static build(refs: Array<{ id: number; hash: string }>, vectors: Map<string, Float32Array>): VectorMatrix {
    const first = vectors.values().next().value as Float32Array | undefined;
    const dim = first?.length ?? 0;
    const ids: number[] = [];
    const rows: Float32Array[] = [];
    for (const ref of refs) {
      const v = vectors.get(ref.hash);
      if (!v || v.length !== dim) continue;
      ids.push(ref.id);
      rows.push(v);
    }
    const data = new Float32Array(ids.length * dim);
    rows.forEach((v, i) => data.set(normalize(v), i * dim));
    return new VectorMatrix(ids, data, dim);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The `k` most similar documents that `accept` lets through, best first. */
  top(query: Float32Array, k: number, accept: (id: number) => boolean): Array<{ id: number; similarity: number }> {
    if (query.length !== this.dim || k <= 0) return [];
    const q = normalize(query);
    const best: Array<{ id: number; similarity: number }> = [];
    for (let row = 0; row < this.ids.length; row++) {
      let dot = 0;
      const base = row * this.dim;
      for (let j = 0; j < this.dim; j++) dot += this.data[base + j] * q[j];
      if (best.length === k && dot <= best[k - 1].similarity) continue;
      const id = this.ids[row];
      if (!accept(id)) continue;
      // Insertion into a short sorted list: k is small (a few dozen).
      let at = best.length;
      while (at > 0 && best[at - 1].similarity < dot) at--;
      best.splice(at, 0, { id, similarity: dot });
      if (best.length > k) best.pop();
    }
    return best;
  }
}

function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  norm = Math.sqrt(norm) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / norm;
  return out;
}
