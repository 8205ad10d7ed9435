// The database of bench section d (scripts/bench/api-load.ts): a temp SQLite file, or a private
// schema on PostgreSQL (BENCH_DATABASE_URL), migrated, with the demo data and a large data set.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Engine } from '../../server/platform/db/dialect';
import type { Db } from '../../server/platform/db/schema';
import { openBenchDatabase, type BenchDatabaseBase } from './bench-setup';

/** Sizes (environment overrides): 10 000 users and 100 000 cards by default. */
export const SIZES = {
  merchants: Number(process.env.BENCH_MERCHANTS ?? 10_000),
  ledgerRows: Number(process.env.BENCH_LEDGER_ROWS ?? 200_000),
  transfers: Number(process.env.BENCH_TRANSFERS ?? 100_000),
  cards: Number(process.env.BENCH_CARDS ?? 100_000),
};
const BATCH = 500;

export interface BenchDatabase extends BenchDatabaseBase {
  seedSeconds: number;
}

/** Opens, migrates and fills the bench's own database; `cleanup` drops it. */
export function prepareBenchDatabase(): Promise<BenchDatabase> {
  return openBenchDatabase('vc-bench-api-', async (handle, now) => {
    const started = performance.now();
    await bulkData(handle.db, handle.engine, now);
    // Statistics, as autovacuum / `PRAGMA optimize` would have them on a database in use.
    await sql`analyze`.execute(handle.db);
    const seedSeconds = (performance.now() - started) / 1000;
    return { seedSeconds };
  });
}

async function insertInBatches<T>(
  count: number,
  make: (i: number) => T,
  write: (rows: T[]) => Promise<unknown>,
) {
  for (let start = 0; start < count; start += BATCH) {
    const rows: T[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i += 1) rows.push(make(i));
    await write(rows);
  }
}

/**
 * Beside the demo data: merchants under `partner`, a long ledger for `merchant`, transfers (each
 * with its two ledger rows) and used cards of `partner`, so every money invariant still holds.
 */
async function bulkData(db: Db, engine: Engine, now: number): Promise<void> {
  const { merchants, ledgerRows, transfers, cards } = SIZES;
  const byName = (username: string) =>
    db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
  const partner = await byName('partner');
  const merchant = await byName('merchant');
  await db.transaction().execute(async (trx) => {
    await insertInBatches(
      merchants,
      (i) => ({
        user_type: 2,
        pid: partner.id,
        service_id: partner.id,
        username: `bench_m${i}`,
        password_hash: merchant.password_hash,
        name: `商户 ${i}`,
        mobile: `139${String(i).padStart(8, '0')}`,
        created_at: now - i * 60_000,
        updated_at: now,
      }),
      (rows) => trx.insertInto('users').values(rows).execute(),
    );
    const firstBench = Number(
      (
        await trx
          .selectFrom('users')
          .select((eb) => eb.fn.min('id').as('id'))
          .where('username', 'like', 'bench_m%')
          .executeTakeFirstOrThrow()
      ).id,
    );
    // A long ledger for `merchant` that nets to zero (+1.00, −1.00, …).
    const balance = merchant.money;
    await insertInBatches(
      ledgerRows,
      (i) => {
        const up = i % 2 === 0;
        return {
          user_id: merchant.id,
          asset: 'money' as const,
          type: up ? ('transfer_in' as const) : ('exchange' as const),
          change: up ? 100 : -100,
          before: up ? balance : balance + 100,
          after: up ? balance + 100 : balance,
          memo: 'bench',
          related_type: null,
          related_id: null,
          operator_id: partner.id,
          created_at: now - (ledgerRows - i) * 1000,
        };
      },
      (rows) => trx.insertInto('ledger').values(rows).execute(),
    );
    // Transfers in pairs (partner → a bench merchant, then back).
    const firstTransfer =
      Number(
        (
          await trx
            .selectFrom('transfers')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      ) + 1;
    const P = partner.money;
    const otherOf = (i: number) => firstBench + (Math.floor(i / 2) % Math.max(1, merchants));
    await insertInBatches(
      transfers,
      (i) => {
        const back = i % 2 === 1;
        const other = otherOf(i);
        return {
          id: firstTransfer + i,
          transfer_no: `TRB${String(i).padStart(10, '0')}`,
          from_user_id: back ? other : partner.id,
          to_user_id: back ? partner.id : other,
          asset: 'money' as const,
          amount: 1,
          from_before: back ? 1 : P,
          from_after: back ? 0 : P - 1,
          to_before: back ? P - 1 : 0,
          to_after: back ? P : 1,
          remark: '',
          operator_id: partner.id,
          created_at: now - (transfers - i) * 1000,
        };
      },
      (rows) => trx.insertInto('transfers').values(rows).execute(),
    );
    await insertInBatches(
      transfers * 2,
      (k) => {
        const i = Math.floor(k / 2);
        const back = i % 2 === 1;
        const other = otherOf(i);
        const outgoing = k % 2 === 0;
        const user = outgoing === back ? other : partner.id;
        const isPartner = user === partner.id;
        const change = outgoing ? -1 : 1;
        const before = isPartner ? (back ? P - 1 : P) : back ? 1 : 0;
        return {
          user_id: user,
          asset: 'money' as const,
          type: outgoing ? ('transfer_out' as const) : ('transfer_in' as const),
          change,
          before,
          after: before + change,
          memo: '',
          related_type: 'transfer',
          related_id: firstTransfer + i,
          operator_id: partner.id,
          created_at: now - (transfers - i) * 1000,
        };
      },
      (rows) => trx.insertInto('ledger').values(rows).execute(),
    );
    // Explicit ids: move PostgreSQL's sequence past them (SQLite follows max(id) by itself).
    if (engine === 'postgres') {
      await sql`select setval(pg_get_serial_sequence('transfers', 'id'), (select max(id) from transfers))`.execute(
        trx,
      );
    }
    await insertInBatches(
      cards,
      (i) => ({
        card_no: `PB${String(i).padStart(12, '0')}`,
        card_pwd: randomBytes(8).toString('hex').toUpperCase(),
        batch_no: `BB${Math.floor(i / 1000)}`,
        asset: 'money' as const,
        face_value: 1000,
        price: 1000,
        creator_id: partner.id,
        owner_id: partner.id,
        service_id: partner.id,
        paid_by: null,
        status: 1, // used cards: the cards account is not involved
        used_by: merchant.id,
        used_at: now,
        expire_at: null,
        created_at: now - i * 1000,
        updated_at: now,
        deleted_at: null,
      }),
      (rows) => trx.insertInto('recharge_cards').values(rows).execute(),
    );
  });
}
