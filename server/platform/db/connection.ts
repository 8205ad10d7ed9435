import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Dialect,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import { isPostgresUrl } from '../config';
import type { Engine } from './dialect';
import { attachListCache } from './list-cache';
import type { Database, Db } from './schema';
import { trackTransactions, WriteTrackingPlugin, WriteVersions } from './write-versions';

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
    const versions = new WriteVersions();
    const db = new Kysely<Database>({
      dialect: trackTransactions(new PostgresDialect({ pool }), versions),
      plugins: [new WriteTrackingPlugin(versions)],
    });
    attachListCache(db, versions);
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(path.join(options.dataDir, 'app.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  keepStat1Only(sqlite);
  const versions = new WriteVersions();
  const db = new Kysely<Database>({
    dialect: trackTransactions(immediateTransactions(withStatementCache(sqlite)), versions),
    plugins: [new WriteTrackingPlugin(versions)],
  });
  // Changes when another connection (another process) commits: list totals need no time limit.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  attachListCache(db, versions, () => dataVersion.get());
  // Compiled every time: SQLite applies this pragma when it compiles it, not when it runs.
  synchronousOfDb.set(db, (level) => void sqlite.exec(`pragma synchronous = ${level}`));
  const wal = walSync(`${sqlite.name}-wal`);
  walSyncOfDb.set(db, wal.sync);
  return {
    db,
    engine: 'sqlite',
    close: async () => {
      await db.destroy();
      await wal.close();
    },
  };
}

/**
 * SQLite's dialect with transactions that take the write lock when they begin (`begin
 * immediate`, where Kysely's driver says `begin`). A deferred transaction that read first and then
 * writes fails at once with SQLITE_BUSY when another process wrote meanwhile (its snapshot is
 * stale: waiting cannot help, so the busy handler is not asked); `npm start`'s worker is another
 * process on the same file (docs/architecture.md §Durability of commits).
 */
function immediateTransactions(database: SqliteDatabase): Dialect {
  const dialect = new SqliteDialect({ database });
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new ImmediateSqliteDriver({ database }),
  };
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

type SetSynchronous = (level: 'normal' | 'full') => void;
const synchronousOfDb = new WeakMap<Db, SetSynchronous>();
const walSyncOfDb = new WeakMap<Db, () => Promise<void>>();

/**
 * Flushes the SQLite database's write-ahead log (`app.db-wal`) to disk with `fsync` in libuv's
 * thread pool (server/platform/db/transaction.ts, writeSynced); undefined for PostgreSQL.
 */
export function walSyncOf(db: Db): (() => Promise<void>) | undefined {
  return walSyncOfDb.get(db);
}

/**
 * The log opened once, when first synced (SQLite keeps the file while a connection is open: the
 * one opening it here), and closed with the handle.
 */
function walSync(file: string) {
  let opened: Promise<fs.promises.FileHandle> | undefined;
  return {
    sync: async () => {
      if (!opened) {
        opened = fs.promises.open(file, 'r+');
        opened.catch(() => (opened = undefined)); // the next sync opens it again
      }
      await (await opened).sync();
    },
    close: async () => {
      const handle = await opened?.catch(() => undefined);
      await handle?.close();
    },
  };
}

/**
 * Sets `synchronous` on the SQLite connection under a handle's `db`, straight (two statements
 * through Kysely cost 0.1 ms a write), for a caller that holds the connection meanwhile
 * (`db.connection()`: server/platform/db/transaction.ts). Undefined for PostgreSQL.
 */
export function synchronousOf(db: Db): SetSynchronous | undefined {
  return synchronousOfDb.get(db);
}

/**
 * SQLite's planner statistics are kept to sqlite_stat1 (rows per index prefix): sqlite_stat4
 * samples, which an ANALYZE writes (better-sqlite3 builds SQLite with STAT4), are deleted at open.
 * With samples, SQLite compiles a statement again on every run when a bound parameter meets an
 * indexed column (the session check, every list): a customer page's statement cost 0.41 ms a run
 * instead of 0.14 ms (docs/performance.md "Fourth round"). The lists' plans do not rest on
 * per-value estimates (the speed bench, which runs ANALYZE first, reads them with stat1 alone).
 */
function keepStat1Only(sqlite: BetterSqlite3.Database): void {
  const stat4 = sqlite
    .prepare("select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'")
    .get();
  if (!stat4) return;
  sqlite.exec('delete from sqlite_stat4');
  sqlite.exec('analyze sqlite_schema'); // the planner reads the statistics again
}

/** Prepared statements kept per SQL text (least recently used dropped past this many). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite connection as Kysely sees it, with two savings measured on the large lists
 * (docs/performance.md): prepared statements are reused (Kysely prepares every query it
 * runs, and compiling a list's SQL again costs 0.1–0.3 ms), and rows are read as arrays and made
 * into objects here (better-sqlite3's own row objects cost ≈ 0.3 µs a column: a 20-row page of
 * 35 columns spent 0.15 ms more). One connection runs one statement at a time (Kysely's mutex),
 * so a cached statement is never in use twice.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let cached = cache.get(sql);
      if (cached) {
        cache.delete(sql); // re-inserted below: the Map's order is the recency
      } else {
        cached = statement(sqlite.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, cached);
      return cached;
    },
  };
}

function statement(stmt: BetterSqlite3.Statement): SqliteStatement {
  let columns: string[] | undefined;
  const toObject = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns!.length; i += 1) row[columns![i]] = values[i];
    return row;
  };
  return {
    reader: stmt.reader,
    all(parameters) {
      if (!stmt.reader) return stmt.all(...parameters);
      columns ??= stmt.columns().map((c) => c.name);
      return (stmt.raw(true).all(...parameters) as unknown[][]).map(toObject);
    },
    run: (parameters) => stmt.run(...parameters),
    iterate: (parameters) => stmt.raw(false).iterate(...parameters),
  };
}
