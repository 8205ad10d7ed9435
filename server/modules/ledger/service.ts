import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database, Executor, SystemAccount } from '../../platform/db/schema';
import { isUniqueViolation } from '../../platform/db/errors';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { postEntry, postSystemEntry, type LedgerEntry } from './repo';

export type Trx = Transaction<Database>;

/** A money call's idempotency key and the request it was sent with (see `idempotencyOf`). */
export interface Idempotency {
  userId: number;
  key: string;
  route: string;
  requestHash: string;
}

const MAX_ATTEMPTS = 10;

/** Errors worth running the transaction again for: PostgreSQL serialization/deadlock, SQLite busy. */
function isRetryable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  return code === '40001' || code === '40P01' || code === 'SQLITE_BUSY';
}

class KeyTaken extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs money work in one transaction (docs/architecture.md rule 6): everything it writes commits
 * together or not at all. Deadlocks and serialization failures are retried (the client never sees
 * them). With an idempotency key the key is claimed first in the same transaction: a request whose
 * key was used before gets the stored reply and changes nothing; a concurrent twin waits on the
 * claim, then gets the stored reply too. A refused request stores nothing (it changed nothing), so
 * sending it again runs it again. With the call's audit trail its row is written in the same
 * transaction after the work (a replay changes nothing and writes none).
 */
export async function runMoney<T>(
  ctx: AppContext,
  work: (trx: Trx) => Promise<T>,
  idempotency?: Idempotency,
  audit?: AuditTrail,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        audit?.begin();
        if (idempotency) {
          const stored = await replayOf(trx, idempotency);
          if (stored !== undefined) {
            audit?.unchanged();
            return stored as T;
          }
          try {
            await trx
              .insertInto('idempotency_keys')
              .values({
                user_id: idempotency.userId,
                key: idempotency.key,
                route: idempotency.route,
                request_hash: idempotency.requestHash,
                response: null,
                created_at: ctx.now(),
              })
              .execute();
          } catch (error) {
            if (isUniqueViolation(error)) throw new KeyTaken();
            throw error;
          }
        }
        const result = await work(trx);
        await audit?.commit(trx, result);
        if (idempotency) {
          await trx
            .updateTable('idempotency_keys')
            .set({ response: JSON.stringify(result ?? null) })
            .where('user_id', '=', idempotency.userId)
            .where('key', '=', idempotency.key)
            .execute();
        }
        return result;
      });
    } catch (error) {
      const again = error instanceof KeyTaken || isRetryable(error);
      if (!again || attempt >= MAX_ATTEMPTS) throw error;
      await sleep(Math.random() * 5 * attempt);
    }
  }
}

async function replayOf(trx: Trx, idempotency: Idempotency): Promise<unknown> {
  const row = await trx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response'])
    .where('user_id', '=', idempotency.userId)
    .where('key', '=', idempotency.key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== idempotency.requestHash || row.response === null) {
    throw refuse('money.idempotencyMismatch');
  }
  return JSON.parse(row.response) as unknown;
}

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;

/**
 * The `Idempotency-Key` header of a money call, bound to the caller, the route and the body.
 * No header: undefined (the call simply runs). A malformed key is refused.
 */
export function idempotencyOf(
  header: string | string[] | undefined,
  userId: number,
  route: string,
  body: unknown,
): Idempotency | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !KEY_PATTERN.test(key)) throw refuse('money.badIdempotencyKey');
  const requestHash = createHash('sha256')
    .update(route)
    .update('\n')
    .update(canonicalJson(body))
    .digest('hex');
  return { userId, key, route, requestHash };
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Locks the users' rows in id order before their balances move, so two transactions that touch
 * the same accounts in opposite orders queue instead of deadlocking (PostgreSQL; SQLite runs one
 * writer at a time anyway). `no key update`, the lock an UPDATE of a balance takes, so that the
 * key-share locks of foreign keys (ledger rows, idempotency keys) do not conflict with it.
 */
export async function lockUsers(ctx: AppContext, trx: Executor, ids: number[]): Promise<void> {
  if (ctx.engine !== 'postgres' || ids.length === 0) return;
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await sql`select id from users where id in (${sql.join(sorted)}) order by id for no key update`.execute(
    trx,
  );
}

/** A credit or debit of a user's balance; throws "insufficient balance" when a debit is too large. */
export async function post(trx: Executor, entry: LedgerEntry): Promise<number> {
  const after = await postEntry(trx, entry);
  if (after === undefined) throw refuse('money.insufficient');
  return after;
}

/** The platform's side of a movement (its accounts may go negative). */
export function postSystem(
  trx: Executor,
  entry: Omit<LedgerEntry, 'userId' | 'type' | 'memo' | 'operatorId'> & {
    account: SystemAccount;
    type?: LedgerEntry['type'];
  },
): Promise<number> {
  return postSystemEntry(trx, entry);
}

/** Value created by the platform (admin grants, minted cards, admin transfers). */
export async function issue(trx: Executor, entry: LedgerEntry): Promise<number> {
  const after = await post(trx, entry);
  await postSystem(trx, {
    account: 'issuance',
    asset: entry.asset,
    change: -entry.change,
    relatedType: entry.relatedType,
    relatedId: entry.relatedId,
    now: entry.now,
  });
  return after;
}
