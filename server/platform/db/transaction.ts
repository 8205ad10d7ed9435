import { sql, type Transaction } from 'kysely';
import { synchronousOf, walSyncOf } from './connection';
import type { Engine } from './dialect';
import type { Database, Db, Executor } from './schema';

/** What a transaction needs of a call's audit trail (server/platform/http/audit-trail.ts). */
export interface TransactionAudit {
  /** A transaction (attempt) starts. */
  begin(): void;
  /** Writes the call's row inside the transaction, after the work. */
  commit(trx: Executor, result: unknown): Promise<void>;
}

export interface TransactionOptions {
  /** The call's audit trail: its row is written in this transaction, after `work`. */
  audit?: TransactionAudit;
}

/**
 * Runs `work` in one transaction and, with an audit trail, writes the call's audit row in the
 * same transaction after it: the row and the change commit together or not at all
 * (docs/architecture.md §Audit). Money work goes through the ledger's `runMoney` instead, which
 * does the same and retries deadlocks.
 */
export function runInTransaction<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    options.audit?.begin();
    const result = await work(trx);
    await options.audit?.commit(trx, result);
    return result;
  });
}

/**
 * Relaxed commits (docs/architecture.md §Durability of commits): a commit that returns before it
 * reaches the disk — on PostgreSQL `synchronous_commit = off` for its transaction, on SQLite
 * `synchronous = NORMAL` for its commit (the connection held meanwhile, so that no other statement
 * commits that way). Atomic and isolated like any; only a power failure or an OS crash (not a
 * killed process) may undo it, and then it undoes nothing committed before it nor anything a later
 * ordinary commit made durable (the log is written in order). For writes whose loss is the same as
 * a worker dying at that moment, which the caller survives already: the queue's bookkeeping, a
 * run's hold on its unit. Never for a write a reply acknowledges or an outside call relies on.
 */
export function runRelaxed<T>(
  db: Db,
  engine: Engine,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (engine === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return work(trx);
    });
  }
  return onSqliteRelaxed(db, (conn) => conn.transaction().execute(work));
}

/**
 * One statement committed relaxed (see {@link runRelaxed}). On SQLite it commits by itself: no
 * write lock is held while the process awaits (other connections in this process never wait on it).
 */
export function writeRelaxed<T>(
  db: Db,
  engine: Engine,
  statement: (executor: Executor) => Promise<T>,
): Promise<T> {
  return engine === 'postgres' ? runRelaxed(db, engine, statement) : onSqliteRelaxed(db, statement);
}

/**
 * One statement committed durably without holding the event loop while the disk syncs
 * (docs/architecture.md §Durability of commits). On SQLite it commits relaxed and then the log file
 * is flushed (`fsync`) in libuv's thread pool: when this resolves the commit is on disk, as after a
 * `synchronous = FULL` commit. SQLite writes a commit's frames to the log when it commits, and a
 * checkpoint syncs the log before it copies frames into the database (and syncs the database
 * after): the frames are either still in the log, which the fsync flushes, or copied by a
 * checkpoint that synced them. Callers waiting at once sync side by side in the pool. For a write
 * an outside call relies on, made by a busy worker (a publish's media id and `create_sent_at`,
 * whose FULL commit held the worker's loop 0.67 ms a post, bench j). On PostgreSQL an ordinary
 * write (its commit waits on the socket, not on the loop).
 */
export async function writeSynced<T>(
  db: Db,
  engine: Engine,
  statement: (executor: Executor) => Promise<T>,
): Promise<T> {
  const syncWal = walSyncOf(db);
  if (engine === 'postgres' || syncWal === undefined) return statement(db);
  const result = await onSqliteRelaxed(db, statement);
  await syncWal();
  return result;
}

function onSqliteRelaxed<T>(db: Db, work: (conn: Db) => Promise<T>): Promise<T> {
  const setSynchronous = synchronousOf(db);
  const durability = async (conn: Db, level: 'normal' | 'full') => {
    if (setSynchronous) setSynchronous(level);
    else await sql.raw(`pragma synchronous = ${level}`).execute(conn);
  };
  return db.connection().execute(async (conn) => {
    await durability(conn, 'normal');
    try {
      return await work(conn);
    } finally {
      // As every connection runs (server/platform/db/connection.ts).
      await durability(conn, 'full');
    }
  });
}
