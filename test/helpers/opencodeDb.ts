import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSqlite } from '../../src/core/base/sqliteDriver';

/**
 * Builds `opencode.db` from a storage folder the way OpenCode's json-migration.ts does: ids from
 * the file and folder names, `id` / `sessionID` / `messageID` taken out of the JSON bodies.
 */
export function buildOpenCodeDb(storage: string, file: string): void {
  const { driver, error } = loadSqlite();
  if (!driver) throw new Error(`SQLite is unavailable: ${error}`);
  const db = driver.open(file);
  try {
    db.exec(`
      CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT, directory TEXT, title TEXT, version TEXT,
        time_created INTEGER, time_updated INTEGER, time_archived INTEGER);
      CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL);
      CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL);`);
    const read = (f: string) =>
      JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown> & { time?: { created?: number; updated?: number } };
    const sessionOf = new Map<string, string>();
    for (const project of fs.readdirSync(path.join(storage, 'session'))) {
      for (const name of fs.readdirSync(path.join(storage, 'session', project))) {
        const data = read(path.join(storage, 'session', project, name));
        db.prepare('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)').run(
          path.basename(name, '.json'),
          project,
          (data.parentID as string | undefined) ?? null,
          '',
          data.directory,
          data.title,
          data.version,
          data.time?.created,
          data.time?.updated,
        );
      }
    }
    for (const session of fs.readdirSync(path.join(storage, 'message'))) {
      for (const name of fs.readdirSync(path.join(storage, 'message', session))) {
        const { id: _id, sessionID: _session, ...data } = read(path.join(storage, 'message', session, name));
        const id = path.basename(name, '.json');
        sessionOf.set(id, session);
        db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(
          id,
          session,
          data.time?.created,
          data.time?.created,
          JSON.stringify(data),
        );
      }
    }
    for (const message of fs.readdirSync(path.join(storage, 'part'))) {
      for (const name of fs.readdirSync(path.join(storage, 'part', message))) {
        const { id: _id, sessionID: _session, messageID: _message, ...data } = read(path.join(storage, 'part', message, name));
        db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(
          path.basename(name, '.json'),
          message,
          sessionOf.get(message),
          0,
          0,
          JSON.stringify(data),
        );
      }
    }
  } finally {
    db.close();
  }
}
