import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { isPostgresUrl } from '../config';
import type { Engine } from './dialect';
import type { Database, Db } from './schema';

export interface DbHandle {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

export interface OpenOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL only: run every connection with this `search_path` (tests use one schema each). */
  pgSchema?: string;
}

const INT8_OID = 20;

/** int8 (bigint, count(*)) as a JS number: ids, times in ms and cents all fit in 2^53. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/** SQLite file `DATA_DIR/app.db` (WAL, synchronous=FULL, foreign keys), or PostgreSQL by URL. */
export function openDatabase(options: OpenOptions): DbHandle {
  if (isPostgresUrl(options.databaseUrl)) {
    if (options.pgSchema && !/^[a-z_][a-z0-9_]*$/.test(options.pgSchema)) {
      throw new Error(`invalid schema name ${options.pgSchema}`);
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      types: pgTypes,
      max: 10,
      // JIT off: the lists' correlated subqueries are estimated costly enough to trigger ~200 ms
      // of JIT compilation on every query, for queries that run in a few ms without it.
      options: `-c jit=off${options.pgSchema ? ` -c search_path=${options.pgSchema}` : ''}`,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(path.join(options.dataDir, 'app.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}
