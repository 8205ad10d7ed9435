import { sql, type Kysely } from 'kysely';
import type { Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * What a plan's pages read without counting its posts (docs/domain.md §20, bench j):
 * - `matrix_posts.seq`: a post's place in its plan's schedule (1…n, in time order, written with the
 *   posts): a page of a plan's posts is a range of it, however deep.
 * - `matrix_plan_counts`: a plan's posts per status, kept by triggers on `matrix_posts` in the same
 *   transaction as each change, so no code path can forget it. On PostgreSQL the triggers run once
 *   per statement (its changed rows as transition tables: a plan's 120 000 posts inserted or
 *   cancelled in one pass) and apply the changes in (plan, status) order in one statement, so two
 *   transactions never wait on each other's count rows in a cycle.
 * - `matrix_posts.claimed_at`: when a publishing run took the post. The dispatcher takes due posts
 *   for publishing in one write (status, lease, `dispatched_at`); a run then holds one by a
 *   conditional update of this column, so two runs of one dispatch never both work it.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await db.schema.alterTable('matrix_posts').addColumn('seq', 'integer').execute();
  await db.schema.alterTable('matrix_posts').addColumn('claimed_at', 'bigint').execute();
  await sql`update matrix_posts set seq = r.n from (
      select id, row_number() over (partition by plan_id order by scheduled_at, id) as n
      from matrix_posts) r
    where r.id = matrix_posts.id`.execute(db);
  await db.schema
    .createIndex('matrix_posts_plan_seq_idx')
    .unique()
    .on('matrix_posts')
    .columns(['plan_id', 'seq'])
    .execute();

  await db.schema
    .createTable('matrix_plan_counts')
    .addColumn('plan_id', 'bigint', (c) => c.notNull().references('matrix_plans.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('matrix_plan_counts_pk', ['plan_id', 'status'])
    .execute();
  await sql`insert into matrix_plan_counts (plan_id, status, n)
    select plan_id, status, count(*) from matrix_posts group by plan_id, status`.execute(db);

  if (engine === 'postgres') {
    // The rows a statement added (+1) and removed (−1), netted per plan and status.
    const apply = (changes: string) => `
      insert into matrix_plan_counts (plan_id, status, n)
        select plan_id, status, sum(d) from (${changes}) c
        group by plan_id, status having sum(d) <> 0 order by plan_id, status
      on conflict (plan_id, status) do update set n = matrix_plan_counts.n + excluded.n;
      return null;`;
    const triggers: [string, string, string][] = [
      ['insert', 'new table as new_rows', 'select plan_id, status, 1 as d from new_rows'],
      [
        'update',
        'old table as old_rows new table as new_rows',
        `select plan_id, status, 1 as d from new_rows
         union all select plan_id, status, -1 from old_rows`,
      ],
      ['delete', 'old table as old_rows', 'select plan_id, status, -1 as d from old_rows'],
    ];
    for (const [event, tables, changes] of triggers) {
      const fn = `matrix_posts_count_${event}`;
      await sql`create function ${sql.id(fn)}() returns trigger language plpgsql as ${sql.lit(
        `begin ${apply(changes)} end`,
      )}`.execute(db);
      await sql`create trigger ${sql.id(fn)} after ${sql.raw(event)} on matrix_posts
        referencing ${sql.raw(tables)} for each statement execute function ${sql.id(fn)}()`.execute(
        db,
      );
    }
  } else {
    const add = (row: 'new') =>
      `insert into matrix_plan_counts (plan_id, status, n) values (${row}.plan_id, ${row}.status, 1)
       on conflict (plan_id, status) do update set n = n + 1;`;
    const remove = `update matrix_plan_counts set n = n - 1
       where plan_id = old.plan_id and status = old.status;`;
    await sql
      .raw(
        `create trigger matrix_posts_count_insert after insert on matrix_posts begin ${add('new')} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger matrix_posts_count_update after update of status on matrix_posts
         when old.status <> new.status begin ${remove} ${add('new')} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger matrix_posts_count_delete after delete on matrix_posts begin ${remove} end`,
      )
      .execute(db);
  }
}

export async function down(db: AnyDb, engine: Engine): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    const name = `matrix_posts_count_${event}`;
    if (engine === 'postgres') {
      await sql`drop trigger if exists ${sql.id(name)} on matrix_posts`.execute(db);
      await sql`drop function if exists ${sql.id(name)}()`.execute(db);
    } else {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
  }
  await db.schema.dropTable('matrix_plan_counts').execute();
  await db.schema.dropIndex('matrix_posts_plan_seq_idx').execute();
  await db.schema.alterTable('matrix_posts').dropColumn('seq').execute();
  await db.schema.alterTable('matrix_posts').dropColumn('claimed_at').execute();
}
