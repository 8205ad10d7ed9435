/**
 * What keeps SQLite from compiling the lists' statements again on every run
 * (docs/performance.md "Fourth round"): statistics kept to sqlite_stat1, and LIMIT / OFFSET
 * written into the SQL text.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { rowCount } from '../../server/platform/db/conditions';
import { createTestDatabase, type TestDatabase } from './helpers';

describe('SQLite statements', () => {
  let test: TestDatabase | undefined;
  let reopened: DbHandle | undefined;
  afterEach(async () => {
    await reopened?.close();
    await test?.drop();
    reopened = test = undefined;
  });

  const countOf = async (handle: DbHandle, table: string) =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(handle.db))
        .rows[0].n,
    );

  it('keeps the planner statistics to sqlite_stat1: stat4 samples are deleted at open', async () => {
    test = await createTestDatabase('sqlite');
    const { db } = test.handle;
    await sql`create table probe (a integer not null, b text not null)`.execute(db);
    await sql`create index probe_a on probe (a)`.execute(db);
    for (let i = 0; i < 200; i += 1) {
      await sql`insert into probe (a, b) values (${i % 7}, ${`row ${i}`})`.execute(db);
    }
    await sql`analyze`.execute(db);
    expect(await countOf(test.handle, 'sqlite_stat4')).toBeGreaterThan(0);
    const stat1 = await countOf(test.handle, 'sqlite_stat1');
    expect(stat1).toBeGreaterThan(0);

    reopened = openDatabase({ dataDir: test.dataDir });
    expect(await countOf(reopened, 'sqlite_stat4')).toBe(0);
    expect(await countOf(reopened, 'sqlite_stat1')).toBe(stat1);
    const plan = await sql<{
      detail: string;
    }>`explain query plan select b from probe where a = ${3}`.execute(reopened.db);
    expect(plan.rows.map((r) => r.detail).join(' | ')).toMatch(/USING INDEX probe_a/);
  });

  it('opens a database that was never analysed', async () => {
    test = await createTestDatabase('sqlite');
    reopened = openDatabase({ dataDir: test.dataDir });
    const tables = await sql<{
      name: string;
    }>`select name from sqlite_schema where name like 'sqlite_stat%'`.execute(reopened.db);
    expect(tables.rows).toEqual([]);
  });

  it('writes row counts into the SQL text, never as parameters, and only whole numbers', async () => {
    test = await createTestDatabase('sqlite');
    const compiled = sql`select 1 limit ${rowCount(20)} offset ${rowCount(0)}`.compile(
      test.handle.db,
    );
    expect(compiled.sql).toBe('select 1 limit 20 offset 0');
    expect(compiled.parameters).toEqual([]);
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => rowCount(bad), String(bad)).toThrow(/not a row count/);
    }
  });
});
