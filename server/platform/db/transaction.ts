import type { Transaction } from 'kysely';
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
