import { sql, type Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/** The show flags a domain decides for its visitors (docs/domain.md §12). */
const SHOW_FLAGS = ['dy_auth_publish_show', 'expirence_money_show', 'saler_show'] as const;

/**
 * Domains as the admin manages them (docs/domain.md §12):
 * - `domain` becomes `hostname`, `partner_id` becomes `owner_id` and may be NULL (the platform's
 *   own domain);
 * - `theme_color` ('' = the console's default) and the show flags (0/1, default 1).
 * SQLite cannot drop a NOT NULL: its table is rebuilt (nothing refers to `domains`).
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`alter table domains rename column domain to hostname`.execute(db);
    await sql`alter table domains rename column partner_id to owner_id`.execute(db);
    await sql`alter table domains alter column owner_id drop not null`.execute(db);
    await db.schema.dropIndex('domains_partner_idx').execute();
    await db.schema
      .alterTable('domains')
      .addColumn('theme_color', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    for (const flag of SHOW_FLAGS) {
      await db.schema
        .alterTable('domains')
        .addColumn(flag, 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    }
  } else {
    let table = addIdColumn(db.schema.createTable('domains_new'), engine)
      .addColumn('hostname', 'text', (c) => c.notNull().unique())
      .addColumn('owner_id', 'bigint', (c) => c.references('users.id'))
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('logo', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('favicon', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('copyright', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('icp_record_number', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('police_record', 'text', (c) => c.notNull().defaultTo('0'))
      .addColumn('police_record_number', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('money_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('theme_color', 'text', (c) => c.notNull().defaultTo(''));
    for (const flag of SHOW_FLAGS) {
      table = table.addColumn(flag, 'integer', (c) => c.notNull().defaultTo(1));
    }
    await table.execute();
    await sql`insert into domains_new (id, hostname, owner_id, name, logo, favicon, copyright,
        icp_record_number, police_record, police_record_number, money_name, status, created_at,
        updated_at)
      select id, domain, partner_id, name, logo, favicon, copyright, icp_record_number,
        police_record, police_record_number, money_name, status, created_at, updated_at
      from domains`.execute(db);
    await db.schema.dropTable('domains').execute();
    await sql`alter table domains_new rename to domains`.execute(db);
  }
  await db.schema.createIndex('domains_owner_idx').on('domains').column('owner_id').execute();
}

export async function down(db: AnyDb, engine: Engine): Promise<void> {
  await db.schema.dropIndex('domains_owner_idx').execute();
  await db.deleteFrom('domains').where('owner_id', 'is', null).execute();
  for (const column of ['theme_color', ...SHOW_FLAGS]) {
    await db.schema.alterTable('domains').dropColumn(column).execute();
  }
  await sql`alter table domains rename column hostname to domain`.execute(db);
  await sql`alter table domains rename column owner_id to partner_id`.execute(db);
  if (engine === 'postgres') {
    await sql`alter table domains alter column partner_id set not null`.execute(db);
  }
  await db.schema.createIndex('domains_partner_idx').on('domains').column('partner_id').execute();
}
