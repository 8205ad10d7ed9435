import { sql, type Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

const ASSETS = ['money', 'digital_man', 'digital_voice', 'image_clone'] as const;
const BALANCE_COLUMN: Record<(typeof ASSETS)[number], string> = {
  money: 'money',
  digital_man: 'digital_man_seconds',
  digital_voice: 'voice_clone_count',
  image_clone: 'image_clone_count',
};
const assetCheck = sql`asset in ('money', 'digital_man', 'digital_voice', 'image_clone')`;

/**
 * Money, cards and orders: the platform's own accounts (the other side of every value
 * that enters or leaves the users' balances), transfers, idempotency keys, recharge cards,
 * recharge packages and orders, single-use download tickets.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  // The platform's accounts: issuance (value created by the platform), cards (value held by
  // unused cards), payments (money paid in from outside), revenue (money spent on exchanges).
  // Their balances may be negative; users' balances + these sum to zero per asset.
  await db.schema
    .createTable('system_accounts')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull().check(assetCheck))
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('system_accounts_pk', ['account', 'asset'])
    .execute();
  await addIdColumn(db.schema.createTable('system_ledger'), engine)
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull().check(assetCheck))
    .addColumn('change', 'bigint', (c) => c.notNull())
    .addColumn('before', 'bigint', (c) => c.notNull())
    .addColumn('after', 'bigint', (c) => c.notNull())
    .addColumn('related_type', 'text')
    .addColumn('related_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('system_ledger_account_idx')
    .on('system_ledger')
    .columns(['account', 'asset', 'id'])
    .execute();

  // Every account exists from the start (postings only update them). Every value already in
  // users' balances was issued by the platform (demo opening balances).
  const now = Date.now();
  for (const asset of ASSETS) {
    const row = (await db
      .selectFrom('users')
      .select(sql<number>`coalesce(sum(${sql.ref(BALANCE_COLUMN[asset])}), 0)`.as('total'))
      .executeTakeFirst()) as { total: number | string } | undefined;
    const total = Number(row?.total ?? 0);
    await db
      .insertInto('system_accounts')
      .values(
        ['issuance', 'cards', 'payments', 'revenue'].map((account) => ({
          account,
          asset,
          balance: account === 'issuance' ? -total : 0,
        })),
      )
      .execute();
    if (total !== 0) {
      await db
        .insertInto('system_ledger')
        .values({
          account: 'issuance',
          asset,
          change: -total,
          before: 0,
          after: -total,
          related_type: 'opening',
          related_id: null,
          created_at: now,
        })
        .execute();
    }
  }

  await db.schema
    .createIndex('ledger_user_id_idx')
    .on('ledger')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('ledger_related_idx')
    .on('ledger')
    .columns(['related_type', 'related_id'])
    .execute();
  await db.schema.createIndex('users_pid_idx').on('users').column('pid').execute();
  // Partial: most users have no agent, and statistics that count the NULLs make the planner
  // give up the full index (agents sorted by merchant count: 138 s → 28 ms on 200 000 users).
  await db.schema.dropIndex('users_agent_idx').execute();
  await db.schema
    .createIndex('users_agent_idx')
    .on('users')
    .column('agent_id')
    .where(sql.ref('agent_id'), 'is not', null)
    .execute();
  // Merchant counts of partners read from the index alone (it replaces the two-column one).
  await db.schema.dropIndex('users_service_type_idx').execute();
  await db.schema
    .createIndex('users_service_type_deleted_idx')
    .on('users')
    .columns(['service_id', 'user_type', 'deleted_at'])
    .execute();
  await db.schema
    .createIndex('users_type_created_idx')
    .on('users')
    .columns(['user_type', 'created_at'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();

  await addIdColumn(db.schema.createTable('transfers'), engine)
    .addColumn('transfer_no', 'text', (c) => c.notNull().unique())
    .addColumn('from_user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('to_user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull().check(assetCheck))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('from_before', 'bigint', (c) => c.notNull())
    .addColumn('from_after', 'bigint', (c) => c.notNull())
    .addColumn('to_before', 'bigint', (c) => c.notNull())
    .addColumn('to_after', 'bigint', (c) => c.notNull())
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('operator_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transfers_from_idx')
    .on('transfers')
    .columns(['from_user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('transfers_to_idx')
    .on('transfers')
    .columns(['to_user_id', 'id'])
    .execute();

  await addIdColumn(db.schema.createTable('recharge_cards'), engine)
    .addColumn('card_no', 'text', (c) => c.notNull().unique())
    .addColumn('card_pwd', 'text', (c) => c.notNull())
    .addColumn('batch_no', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) =>
      c.notNull().check(sql`asset in ('money', 'digital_man', 'digital_voice')`),
    )
    /** In the asset's unit: cents, seconds, count. */
    .addColumn('face_value', 'bigint', (c) => c.notNull().check(sql`face_value > 0`))
    /** Display only, cents. */
    .addColumn('price', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('creator_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('service_id', 'bigint', (c) => c.notNull())
    /** The user whose balance paid the face value (null: minted by the platform). */
    .addColumn('paid_by', 'bigint', (c) => c.references('users.id'))
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`status in (0, 1, 2)`),
    )
    .addColumn('used_by', 'bigint', (c) => c.references('users.id'))
    .addColumn('used_at', 'bigint')
    .addColumn('expire_at', 'bigint')
    .addColumn('remark_admin', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('remark_owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('recharge_cards_owner_idx')
    .on('recharge_cards')
    .columns(['owner_id', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('recharge_cards_service_idx')
    .on('recharge_cards')
    .columns(['service_id', 'id'])
    .execute();
  await db.schema
    .createIndex('recharge_cards_batch_idx')
    .on('recharge_cards')
    .column('batch_no')
    .execute();
  await db.schema
    .createTable('card_sequences')
    .addColumn('prefix', 'text', (c) => c.primaryKey())
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .execute();

  await addIdColumn(db.schema.createTable('recharge_packages'), engine)
    /** null: a platform package. */
    .addColumn('owner_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** Cents, CNY. */
    .addColumn('price', 'bigint', (c) => c.notNull().check(sql`price > 0`))
    .addColumn('money', 'bigint', (c) => c.notNull().check(sql`money >= 0`))
    .addColumn('gift_money', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`gift_money >= 0`),
    )
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();

  await addIdColumn(db.schema.createTable('recharge_orders'), engine)
    .addColumn('order_no', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('service_id', 'bigint', (c) => c.notNull())
    .addColumn('package_id', 'bigint', (c) => c.notNull().references('recharge_packages.id'))
    .addColumn('package_name', 'text', (c) => c.notNull())
    /** Cents paid, money and gift credited. */
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('money', 'bigint', (c) => c.notNull())
    .addColumn('gift_money', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pay_way', 'text', (c) => c.notNull())
    .addColumn('pay_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`pay_status in ('pending', 'paid', 'closed', 'refunded')`),
    )
    .addColumn('transaction_id', 'text', (c) => c.unique())
    .addColumn('paid_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recharge_orders_user_idx')
    .on('recharge_orders')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('recharge_orders_service_idx')
    .on('recharge_orders')
    .columns(['service_id', 'id'])
    .execute();
  await db.schema
    .createIndex('recharge_orders_pending_idx')
    .on('recharge_orders')
    .columns(['pay_status', 'expires_at'])
    .execute();

  await addIdColumn(db.schema.createTable('download_tickets'), engine)
    .addColumn('ticket_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    /** JSON of the query the ticket is bound to. */
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const index of [
    'ledger_user_id_idx',
    'ledger_related_idx',
    'users_pid_idx',
    'users_type_created_idx',
    'users_service_type_deleted_idx',
    'users_agent_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.createIndex('users_agent_idx').on('users').column('agent_id').execute();
  for (const table of [
    'download_tickets',
    'recharge_orders',
    'recharge_packages',
    'card_sequences',
    'recharge_cards',
    'transfers',
    'idempotency_keys',
    'system_ledger',
    'system_accounts',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
