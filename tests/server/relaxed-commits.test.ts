/**
 * Relaxed commits (server/platform/db/transaction.ts; docs/architecture.md §Durability of
 * commits): atomic like any transaction, relaxed for their own commit only — every other statement
 * of the connection commits durably as before, also when the relaxed work fails.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/platform/db/schema';
import { runRelaxed, writeRelaxed, writeSynced } from '../../server/platform/db/transaction';
import { createTestDatabase, engines, type TestDatabase } from './helpers';

/** SQLite's `synchronous` (2: FULL) or PostgreSQL's `synchronous_commit` of the connection. */
async function durability(db: Db, engine: string): Promise<string> {
  if (engine === 'sqlite') {
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    return String(rows[0].synchronous);
  }
  const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
  return rows[0].synchronous_commit;
}

describe.each(engines)('relaxed commits on %s', (engine) => {
  let database: TestDatabase;
  let db: Db;
  const ordinary = engine === 'sqlite' ? '2' : 'on';
  const relaxed = engine === 'sqlite' ? '1' : 'off';

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    db = database.handle.db;
  });
  afterAll(() => database.drop());

  // Rows of any table with a unique key will do: the login throttle's.
  const setting = async (key: string) => {
    const row = await db
      .selectFrom('login_throttle')
      .select('failures')
      .where('key', '=', key)
      .executeTakeFirst();
    return row && { value: String(row.failures) };
  };
  const put = (executor: Db, key: string, value: string) =>
    executor
      .insertInto('login_throttle')
      .values({ key, failures: Number(value), window_start: 0, locked_until: null })
      .execute();

  it('commits a transaction relaxed, and only that one', async () => {
    const seen = await runRelaxed(db, engine, async (trx) => {
      await put(trx, 'relaxed.a', '1');
      await put(trx, 'relaxed.b', '2');
      return durability(trx, engine);
    });
    expect(seen).toBe(relaxed);
    expect((await setting('relaxed.a'))?.value).toBe('1');
    expect((await setting('relaxed.b'))?.value).toBe('2');
    expect(await durability(db, engine)).toBe(ordinary);
  });

  it('undoes the whole transaction when its work fails, and commits durably after', async () => {
    await expect(
      runRelaxed(db, engine, async (trx) => {
        await put(trx, 'relaxed.c', '1');
        await put(trx, 'relaxed.c', '2'); // the key is taken: the work fails
      }),
    ).rejects.toThrow();
    expect(await setting('relaxed.c')).toBeUndefined();
    expect(await durability(db, engine)).toBe(ordinary);
  });

  it('commits one statement relaxed, and a failing one changes nothing', async () => {
    const seen = await writeRelaxed(db, engine, async (executor) => {
      await put(executor as Db, 'relaxed.d', '1');
      return durability(executor as Db, engine);
    });
    expect(seen).toBe(relaxed);
    expect((await setting('relaxed.d'))?.value).toBe('1');
    await expect(
      writeRelaxed(db, engine, (executor) => put(executor as Db, 'relaxed.d', '2')),
    ).rejects.toThrow();
    expect((await setting('relaxed.d'))?.value).toBe('1');
    expect(await durability(db, engine)).toBe(ordinary);
  });

  it('commits one statement durably, syncing the log off the event loop on SQLite', async () => {
    // Node's FileHandle, whose sync() is the fsync of the log (server/platform/db/connection.ts).
    const scratch = path.join(os.tmpdir(), `file-handle-${process.pid}`);
    const probe = await fs.open(scratch, 'w');
    const syncs = vi.spyOn(Object.getPrototypeOf(probe) as { sync(): Promise<void> }, 'sync');
    await probe.close();
    await fs.rm(scratch);
    try {
      const seen = await writeSynced(db, engine, async (executor) => {
        await put(executor as Db, 'synced.a', '1');
        return durability(executor as Db, engine);
      });
      // SQLite: committed relaxed, then the log synced; PostgreSQL: an ordinary commit.
      expect(seen).toBe(engine === 'sqlite' ? relaxed : ordinary);
      expect(syncs).toHaveBeenCalledTimes(engine === 'sqlite' ? 1 : 0);
      expect((await setting('synced.a'))?.value).toBe('1');
      await expect(
        writeSynced(db, engine, (executor) => put(executor as Db, 'synced.a', '2')),
      ).rejects.toThrow();
      expect((await setting('synced.a'))?.value).toBe('1');
      expect(await durability(db, engine)).toBe(ordinary);
    } finally {
      syncs.mockRestore();
    }
  });
});
