/**
 * The primary engine over `<store>/.index/lore.sqlite` (schema in sqliteSchema.ts). FTS rows are
 * written by the statements that write `docs`, not by triggers: a trigger program per row
 * doubled the build time. Source states are cached in memory and re-read only when another
 * connection committed (`PRAGMA data_version`), so an update that finds nothing changed costs
 * a stat per file and no query.
 */
import type { DocRef, LexicalBackend, LexicalResult, LexicalStep, SourceState } from './lexicalBackend';
import { toFtsExpression, type ParsedQuery } from './queryParser';
import type { SearchCategory, SearchDoc, SearchFilter, StoredDoc } from './searchTypes';
import type { SqliteDatabase, SqliteStatement } from '../../base/sqliteDriver';
import { DOC_COLUMNS, toDoc, type DocRow } from './sqliteSchema';

/**
 * Matches ranked per query at most (never fewer than the hits asked for). FTS5 computes bm25 for
 * every match before it can sort, so a query matching half the store (a common word, a
 * two-letter prefix) took 50–100 ms; beyond this many matches the most recently indexed ones are
 * ranked, and the response says so. Each ranked match costs ~2 µs (its length is looked up):
 * at 250 that was half the time of a typical one-word query on a 100,000-item store.
 */
export const RANK_CAP = 100;

/**
 * After a transaction that indexed this many documents (a build), FTS5's segments are merged
 * into one: ~0.4 s on a 100,000-item store, against a 0.4–0.7 s stall that FTS5's automerge
 * otherwise takes later, in the middle of some small update, and slower queries until then.
 */
const OPTIMIZE_AFTER_DOCS = 5000;

/** Pages merged per maintenance step: tens of ms on a 100,000-item store, ~60 steps after its build. */
const MERGE_STEP_PAGES = 64;

/** Ids per document fetch: statements are cached by their number of parameters. */
const DOC_BATCH = 50;

/** Rows per INSERT while full-text entries are deferred: one statement per row was a third of a build. */
const INSERT_BATCH = 50;

/** The `docs` columns a document is inserted with, in order. */
const INSERT_COLUMNS = 'file, line, category, text, context, source, date, noted_path, section, hash, flagged, item';

/** One document's row, and INSERT_BATCH of them (made once: a build runs them thousands of times). */
const ROW = `(${INSERT_COLUMNS.split(',')
  .map(() => '?')
  .join(', ')})`;
const INSERT_ONE = `INSERT INTO docs(${INSERT_COLUMNS}) VALUES ${ROW}`;
const INSERT_BATCH_SQL = `INSERT INTO docs(${INSERT_COLUMNS}) VALUES ${Array.from({ length: INSERT_BATCH }, () => ROW).join(', ')}`;

/** The meta key marking `docs` rows written without their full-text entries (see deferFullText). */
export const DEFERRED_FULL_TEXT_KEY = 'full-text-deferred';

/** The SQLite engine over an open database (initSchema already run), in a file or in memory. */
export class SqliteBackend implements LexicalBackend {
  private readonly statements = new Map<string, SqliteStatement>();
  private states: Map<string, SourceState> | undefined;
  private dataVersion = -1;
  /**
   * Inside a write transaction, after the states were checked against data_version once: no
   * other connection can commit until it ends, so a build writing thousands of files asks once
   * per transaction instead of once per file.
   */
  private statesHeld = false;
  private transactionDepth = 0;
  /** Documents inserted since the segments were last merged. */
  private inserted = 0;
  /** See holdMaintenance. */
  private held = false;
  /** A hold left segments unmerged: maintain until merged, however few documents came in. */
  private mergeDue = false;
  /** This connection writes documents without full-text entries (deferFullText). */
  private deferring = false;

  constructor(
    readonly db: SqliteDatabase,
    readonly location: string,
    readonly name: 'sqlite' | 'memory' = 'sqlite',
  ) {}

  private stmt(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  sourceStates(): ReadonlyMap<string, SourceState> {
    if (this.statesHeld && this.states) return this.states;
    const version = this.db.pragma('data_version') as number;
    if (!this.states || version !== this.dataVersion) {
      const rows = this.stmt('SELECT rel, mtime, size, hash, docs FROM sources').all() as Array<{
        rel: string;
        mtime: number;
        size: number;
        hash: string;
        docs: number;
      }>;
      this.states = new Map(rows.map((r) => [r.rel, { rel: r.rel, mtimeMs: r.mtime, size: r.size, hash: r.hash, docs: r.docs }]));
      this.dataVersion = version;
    }
    this.statesHeld = this.transactionDepth > 0;
    return this.states;
  }

  meta(key: string): string | undefined {
    return (this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string | undefined): void {
    if (value === undefined) this.stmt('DELETE FROM meta WHERE key = ?').run(key);
    else this.stmt('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(key, value);
  }

  transaction<T>(fn: () => T): T {
    let result: T;
    const outermost = ++this.transactionDepth === 1;
    try {
      result = this.db.transaction(() => {
        if (outermost) this.catchUpFullText();
        return fn();
      });
    } catch (error) {
      // Rolled back: the cached states may hold changes that never reached the database.
      this.states = undefined;
      this.inserted = 0;
      throw error;
    } finally {
      if (--this.transactionDepth === 0) this.statesHeld = false;
    }
    if (!this.held && this.inserted >= OPTIMIZE_AFTER_DOCS) this.mergeSegments();
    return result;
  }

  /**
   * Holds back only Lore's own merge into one segment (an 'optimize' after a transaction of
   * OPTIMIZE_AFTER_DOCS documents), which a build in many transactions would otherwise run again
   * and again on the growing index. FTS5's own settings stay as they are (sqliteSchema.ts,
   * FTS_MERGE_SETTINGS): a build that turned its automerge off and raised its crisismerge added a
   * segment per transaction until FTS5's limit of 2,000, and then failed with "database or disk is
   * full" at 100,000 files.
   */
  holdMaintenance(hold: boolean): void {
    if (hold === this.held) return;
    this.held = hold;
    if (hold) this.mergeDue = true;
  }

  deferFullText(): boolean {
    if (this.deferring) return true;
    if (this.stmt('SELECT 1 FROM docs LIMIT 1').get() !== undefined) return false;
    this.setMeta(DEFERRED_FULL_TEXT_KEY, '1');
    this.deferring = true;
    return true;
  }

  finishDeferredFullText(): void {
    if (this.deferring) this.rebuildFullText();
  }

  /**
   * At the start of each write transaction: while the mark of a deferred build is there and this
   * connection is not the one deferring (its build was killed, or it is another process), the
   * full-text entries are made now, so nothing is written on top of documents search cannot find.
   * A connection whose mark is gone (another one made the entries) writes them itself from now on.
   */
  private catchUpFullText(): void {
    const marked = this.meta(DEFERRED_FULL_TEXT_KEY) !== undefined;
    if (marked && !this.deferring) this.rebuildFullText();
    else if (!marked) this.deferring = false;
  }

  /** FTS5's rebuild: every document's entries made again from `docs`, in one pass. */
  private rebuildFullText(): void {
    this.stmt("INSERT INTO fts(fts) VALUES ('rebuild')").run();
    this.setMeta(DEFERRED_FULL_TEXT_KEY, undefined);
    this.deferring = false;
    this.inserted = 0;
    this.mergeDue = false;
  }

  purge(): void {
    this.db.pragma('secure_delete = ON');
    this.stmt("INSERT INTO fts(fts) VALUES ('optimize')").run();
    // Free pages still hold what earlier updates removed: VACUUM rewrites the file without them.
    this.db.exec('VACUUM');
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.states = undefined;
  }

  /**
   * One step of the merge a build held back: FTS5's incremental merge (a negative page count
   * merges across levels, as 'optimize' does, a bounded amount at a time). It is done when a
   * step changes (almost) nothing.
   */
  maintain(): boolean {
    if (this.held || (!this.mergeDue && this.inserted < OPTIMIZE_AFTER_DOCS)) return false;
    try {
      const changes = this.stmt('SELECT total_changes() AS n');
      const before = (changes.get() as { n: number }).n;
      this.stmt("INSERT INTO fts(fts, rank) VALUES ('merge', ?)").run(-MERGE_STEP_PAGES);
      if ((changes.get() as { n: number }).n - before >= 2) return true;
    } catch {
      // Maintenance only: the index is as usable as before.
    }
    this.inserted = 0;
    this.mergeDue = false;
    return false;
  }

  /** Merges the FTS segments; maintenance only, so a failure (disk full) leaves a valid index. */
  private mergeSegments(): void {
    this.inserted = 0;
    try {
      this.stmt("INSERT INTO fts(fts) VALUES ('optimize')").run();
    } catch {
      // The index is as usable as before; automerge will get to it.
    }
  }

  replaceSource(state: SourceState, docs: SearchDoc[]): void {
    this.deleteDocs(state.rel);
    this.insertDocs(docs);
    this.setSourceState({ ...state, docs: docs.length });
  }

  appendDocs(state: SourceState, docs: SearchDoc[]): void {
    const before = this.sourceStates().get(state.rel)?.docs ?? 0;
    this.insertDocs(docs);
    this.setSourceState({ ...state, docs: before + docs.length });
  }

  private insertDocs(docs: SearchDoc[]): void {
    if (this.deferring) return this.insertRowsOnly(docs);
    const insert = this.stmt(INSERT_ONE);
    const index = this.stmt('INSERT INTO fts(rowid, text, context) VALUES (?, ?, ?)');
    this.inserted += docs.length;
    for (const d of docs) index.run(insert.run(...rowValues(d)).lastInsertRowid, d.text, d.context);
  }

  /** The `docs` rows alone, INSERT_BATCH per statement (deferred full text). */
  private insertRowsOnly(docs: SearchDoc[]): void {
    const batch = this.stmt(INSERT_BATCH_SQL);
    const single = this.stmt(INSERT_ONE);
    let at = 0;
    for (; at + INSERT_BATCH <= docs.length; at += INSERT_BATCH) {
      const values: unknown[] = [];
      for (let i = at; i < at + INSERT_BATCH; i++) for (const v of rowValues(docs[i])) values.push(v);
      batch.run(...values);
    }
    for (; at < docs.length; at++) single.run(...rowValues(docs[at]));
  }

  /**
   * Removes a file's documents from the FTS index (which needs their old text) and the table.
   * Row by row on purpose: a multi-row INSERT … SELECT into the FTS table opens a statement
   * savepoint, which makes FTS5 flush its pending terms each time (a full build went 5× slower).
   */
  private deleteDocs(rel: string): void {
    if (this.sourceStates().get(rel)?.docs === 0) return;
    const rows = this.stmt('SELECT id, text, context FROM docs WHERE file = ?').all(rel) as Array<{
      id: number;
      text: string;
      context: string;
    }>;
    if (rows.length === 0) return;
    // While deferring, no row of `docs` has entries yet (see deferFullText): none to remove.
    const remove = this.stmt("INSERT INTO fts(fts, rowid, text, context) VALUES ('delete', ?, ?, ?)");
    if (!this.deferring) for (const row of rows) remove.run(row.id, row.text, row.context);
    this.stmt('DELETE FROM docs WHERE file = ?').run(rel);
  }

  setSourceState(state: SourceState): void {
    const docs = state.docs ?? this.sourceStates().get(state.rel)?.docs ?? 0;
    this.stmt('INSERT OR REPLACE INTO sources(rel, mtime, size, hash, docs) VALUES (?, ?, ?, ?, ?)').run(
      state.rel,
      state.mtimeMs,
      state.size,
      state.hash,
      docs,
    );
    this.sourceStates();
    this.states?.set(state.rel, { ...state, docs });
  }

  removeSource(rel: string): void {
    this.deleteDocs(rel);
    this.stmt('DELETE FROM sources WHERE rel = ?').run(rel);
    this.sourceStates();
    this.states?.delete(rel);
  }

  query(query: ParsedQuery, { mode, rankCap, unrankedWhenBroad }: LexicalStep, filter: SearchFilter, limit: number): LexicalResult {
    const expression = toFtsExpression(query, mode);
    if (!expression || limit <= 0) return { hits: [], capped: false };
    const where = ['fts MATCH ?'];
    const params: unknown[] = [expression];
    const categories = filter.categories ?? [];
    if (categories.length > 0) {
      where.push(`d.category IN (${categories.map(() => '?').join(', ')})`);
      params.push(...categories);
    }
    if (filter.since) {
      where.push('d.date >= ?');
      params.push(filter.since);
    }
    if (filter.until) {
      where.push('d.date <= ?');
      params.push(filter.until);
    }
    const join = where.length > 1 ? 'JOIN docs d ON d.id = fts.rowid ' : '';
    const newest = `FROM fts ${join}WHERE ${where.join(' AND ')} ORDER BY fts.rowid DESC LIMIT ?`;
    if (unrankedWhenBroad) {
      // Ids alone first: bm25 would first count every match of the prefix in the whole store.
      const ids = this.stmt(`SELECT fts.rowid ${newest}`)
        .values(...params, rankCap + 1)
        .map((row) => row[0] as number);
      if (ids.length === 0) return { hits: [], capped: false };
      if (ids.length > rankCap) {
        const hits = ids.slice(0, Math.floor(limit)).map((id, i) => ({ id, score: 1 / (1 + i) }));
        return { hits, capped: true, unranked: true };
      }
    }
    // Rank at most `rankCap` matches, newest first, and sort them here; the caller fetches the
    // documents (and cuts snippets) of the few it keeps. Rows as arrays: up to RANK_CAP objects
    // per query were a measurable share of its time.
    const rows = this.stmt(`SELECT fts.rowid, fts.rank ${newest}`).values(...params, rankCap + 1) as Array<[number, number]>;
    const capped = rows.length > rankCap;
    if (capped) rows.pop();
    rows.sort((a, b) => a[1] - b[1] || b[0] - a[0]);
    const hits = rows.slice(0, Math.floor(limit)).map(([id, rank]) => ({ id, score: -rank }));
    return { hits, capped };
  }

  docRefs(): DocRef[] {
    const rows = this.stmt('SELECT id, hash, category, date FROM docs').all() as Array<{
      id: number;
      hash: string;
      category: string;
      date: string | null;
    }>;
    return rows.map((r) => ({ id: r.id, hash: r.hash, category: r.category as SearchCategory, date: r.date ?? undefined }));
  }

  /** Documents by id, in the order asked (missing ones left out); one statement per batch. */
  getDocs(ids: number[]): StoredDoc[] {
    const byId = new Map<number, StoredDoc>();
    for (let at = 0; at < ids.length; at += DOC_BATCH) {
      const batch = ids.slice(at, at + DOC_BATCH);
      const rows = this.stmt(`SELECT ${DOC_COLUMNS} FROM docs d WHERE d.id IN (${batch.map(() => '?').join(', ')})`).all(
        ...batch,
      ) as DocRow[];
      for (const row of rows) byId.set(row.id, toDoc(row));
    }
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  count(): number {
    // A one-shot search that found no source changed never loads the states: summed in SQL.
    if (!this.states) return (this.stmt('SELECT coalesce(sum(docs), 0) AS n FROM sources').get() as { n: number }).n;
    let total = 0;
    for (const state of this.sourceStates().values()) total += state.docs ?? 0;
    return total;
  }

  close(): void {
    this.statements.clear();
    this.states = undefined;
    if (this.db.open) this.db.close();
  }
}

/** A document's values in INSERT_COLUMNS order. */
function rowValues(d: SearchDoc): unknown[] {
  return [
    d.file,
    d.line ?? null,
    d.category,
    d.text,
    d.context,
    d.source ?? null,
    d.date ?? null,
    d.notedPath ?? null,
    d.section ?? null,
    d.hash,
    d.flagged ? 1 : 0,
    d.item ?? null,
  ];
}
