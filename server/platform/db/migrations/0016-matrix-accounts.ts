import { sql, type Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Matrix distribution's accounts (docs/domain.md §19):
 * - `matrix_account_groups`: a flat list of groups per owner, names unique per owner.
 * - `matrix_accounts`: a social account bound by its owner (partner or merchant), its tokens
 *   sealed (docs/architecture.md §Secrets; the place is `matrix_accounts:<field>:<id>`). One
 *   platform account (platform, sandbox, open_id) belongs to one live row: a partial unique index
 *   on the rows not deleted. `refresh_lease_until` makes one refresh at a time per account. An
 *   `assisted` account (a platform without a publishing API) is added by hand and has no tokens
 *   (its token columns hold `-`, never read).
 * - `matrix_batch_links`: links a partner or merchant sends to accounts' owners to bind their
 *   accounts to it (batch authorisation): the token's SHA-256 (looked up) and the token sealed
 *   (`matrix_batch_links:token:<id>`, shown to the link's owner), its end, uses and limit.
 * - `matrix_oauth_states`: the state of an authorisation in progress (single use, 10 minutes):
 *   who asked, for which platform and group, through which batch link.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('matrix_account_groups'), engine)
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('matrix_account_groups_owner_name', ['owner_id', 'name'])
    .execute();

  await addIdColumn(db.schema.createTable('matrix_accounts'), engine)
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('assisted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fans', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('group_id', 'bigint', (c) => c.references('matrix_account_groups.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text', (c) => c.notNull())
    .addColumn('refresh_token', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('renewals_left', 'integer', (c) => c.notNull())
    .addColumn('last_refresh_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('refresh_lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('matrix_accounts_one_owner')
    .on('matrix_accounts')
    .columns(['platform', 'sandbox', 'open_id'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('matrix_accounts_owner_idx')
    .on('matrix_accounts')
    .columns(['owner_id', 'id'])
    .execute();
  // The keep-alive job's scan: live accounts by when their access token expires.
  await db.schema
    .createIndex('matrix_accounts_expiry_idx')
    .on('matrix_accounts')
    .columns(['status', 'expires_at'])
    .execute();

  await addIdColumn(db.schema.createTable('matrix_batch_links'), engine)
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('group_id', 'bigint')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('matrix_batch_links_owner_idx')
    .on('matrix_batch_links')
    .columns(['owner_id', 'id'])
    .execute();

  await addIdColumn(db.schema.createTable('matrix_oauth_states'), engine)
    .addColumn('nonce', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('group_id', 'bigint')
    .addColumn('batch_link_id', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('matrix_oauth_states').execute();
  await db.schema.dropTable('matrix_batch_links').execute();
  await db.schema.dropTable('matrix_accounts').execute();
  await db.schema.dropTable('matrix_account_groups').execute();
}
