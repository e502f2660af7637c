/**
 * The normalized side tables of task memory in the SQLite index (`.index/lore.sqlite`, WAL),
 * beside the knowledge search's tables. Derived from the JSONL logs and rebuilt from them at any
 * time (`lore tasks reindex`); never the source of truth. They exist for exact filters and joins.
 */
import { FTS_RANK } from '../search/sqliteSchema';
import type { TaskDb } from './taskDb';

/** Bumped when the tables or what goes into them change; an older set is dropped and rebuilt (2: task_fts). */
export const TASK_SCHEMA_VERSION = 2;

/** The full-text index of the chunks (filled by triggers on task_chunks) and its term list. */
const SEARCH_TABLES = ['task_fts_terms', 'task_fts'];

const TABLES = [
  'task_sources',
  'task_artifacts',
  'tasks',
  'task_events',
  'runs',
  'evidence',
  'datasets',
  'entities',
  'task_datasets',
  'task_entities',
  'artifact_links',
  'artifact_relations',
  'artifact_contributors',
  'challenges',
  'task_chunks',
];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS task_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE task_sources(task_id TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, malformed TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE task_artifacts(artifact_id TEXT PRIMARY KEY, task_id TEXT NOT NULL, seq INTEGER NOT NULL, artifact_kind TEXT NOT NULL, status TEXT,
  agent_id TEXT NOT NULL, session_id TEXT, tenant_id TEXT, project_id TEXT, artifact_role TEXT, challenge_id TEXT, thread_id TEXT,
  reply_to_artifact_id TEXT, relation_kind TEXT, requested_action TEXT, verification_status TEXT, promotion_state TEXT, digest_key TEXT,
  superseded INTEGER NOT NULL DEFAULT 0, tool_name TEXT, created_ms INTEGER NOT NULL, held INTEGER NOT NULL, json TEXT NOT NULL);
CREATE INDEX task_artifacts_task ON task_artifacts(task_id, seq);
CREATE INDEX task_artifacts_kind ON task_artifacts(artifact_kind);
CREATE TABLE tasks(task_id TEXT PRIMARY KEY, goal TEXT, status TEXT NOT NULL, agent_id TEXT, project_id TEXT, parent_task_id TEXT,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, artifact_count INTEGER NOT NULL, summary TEXT) WITHOUT ROWID;
CREATE TABLE task_events(artifact_id TEXT PRIMARY KEY, task_id TEXT NOT NULL, seq INTEGER NOT NULL, artifact_kind TEXT NOT NULL, at_ms INTEGER NOT NULL, agent_id TEXT NOT NULL, title TEXT NOT NULL);
CREATE INDEX task_events_task ON task_events(task_id, seq);
CREATE TABLE runs(run_id TEXT PRIMARY KEY, task_id TEXT NOT NULL, tool_name TEXT, tool_version TEXT, command TEXT, status TEXT NOT NULL,
  started_ms INTEGER NOT NULL, finished_ms INTEGER, finish_artifact_id TEXT, metrics TEXT) WITHOUT ROWID;
CREATE TABLE evidence(artifact_id TEXT PRIMARY KEY, task_id TEXT NOT NULL, summary TEXT NOT NULL, confidence REAL, verification_status TEXT) WITHOUT ROWID;
CREATE TABLE datasets(name TEXT NOT NULL, version TEXT NOT NULL, PRIMARY KEY(name, version)) WITHOUT ROWID;
CREATE TABLE entities(name TEXT NOT NULL, type TEXT NOT NULL, PRIMARY KEY(name, type)) WITHOUT ROWID;
CREATE TABLE task_datasets(task_id TEXT NOT NULL, artifact_id TEXT NOT NULL, name TEXT NOT NULL, version TEXT NOT NULL);
CREATE INDEX task_datasets_name ON task_datasets(name, version);
CREATE TABLE task_entities(task_id TEXT NOT NULL, artifact_id TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL);
CREATE INDEX task_entities_name ON task_entities(name, type);
CREATE TABLE artifact_links(artifact_id TEXT NOT NULL, task_id TEXT NOT NULL, target_kind TEXT NOT NULL, target TEXT NOT NULL);
CREATE INDEX artifact_links_target ON artifact_links(target_kind, target);
CREATE TABLE artifact_relations(from_artifact_id TEXT NOT NULL, to_artifact_id TEXT NOT NULL, relation_kind TEXT NOT NULL, task_id TEXT NOT NULL);
CREATE INDEX artifact_relations_to ON artifact_relations(to_artifact_id);
CREATE TABLE artifact_contributors(artifact_id TEXT NOT NULL, task_id TEXT NOT NULL, contributor TEXT NOT NULL);
CREATE TABLE challenges(challenge_id TEXT NOT NULL, task_id TEXT NOT NULL, artifact_id TEXT NOT NULL);
CREATE INDEX challenges_id ON challenges(challenge_id);
CREATE TABLE task_chunks(id INTEGER PRIMARY KEY, artifact_id TEXT NOT NULL, task_id TEXT NOT NULL, chunk_kind TEXT NOT NULL, text TEXT NOT NULL, context TEXT NOT NULL);
CREATE INDEX task_chunks_artifact ON task_chunks(artifact_id);
CREATE VIRTUAL TABLE task_fts USING fts5(text, context, content='task_chunks', content_rowid='id', tokenize='porter unicode61');
CREATE VIRTUAL TABLE task_fts_terms USING fts5vocab(task_fts, 'row');
CREATE TRIGGER task_chunks_indexed AFTER INSERT ON task_chunks BEGIN
  INSERT INTO task_fts(rowid, text, context) VALUES (new.id, new.text, new.context);
END;
CREATE TRIGGER task_chunks_unindexed AFTER DELETE ON task_chunks BEGIN
  INSERT INTO task_fts(task_fts, rowid, text, context) VALUES ('delete', old.id, old.text, old.context);
END;
`;

/** The tables that hold one task's rows (each has a task_id column), cleared when the task is re-read. */
export const PER_TASK_TABLES = TABLES.filter((t) => t !== 'datasets' && t !== 'entities');

/** Creates the task tables, dropping a set built by another version. */
export function initTaskSchema(db: TaskDb): void {
  db.exec('CREATE TABLE IF NOT EXISTS task_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;');
  const row = db.prepare("SELECT value FROM task_meta WHERE key = 'version'").get() as { value: string } | undefined;
  if (row?.value === String(TASK_SCHEMA_VERSION)) return;
  db.transaction(() => {
    for (const table of [...SEARCH_TABLES, ...TABLES]) db.exec(`DROP TABLE IF EXISTS ${table}`);
    db.exec(SCHEMA);
    db.prepare("INSERT INTO task_fts(task_fts, rank) VALUES ('rank', ?)").run(FTS_RANK);
    db.prepare("INSERT OR REPLACE INTO task_meta(key, value) VALUES ('version', ?)").run(String(TASK_SCHEMA_VERSION));
  });
}
