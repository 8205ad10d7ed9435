import { sql, type Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

const BALANCES = ['money', 'digital_man_seconds', 'voice_clone_count', 'image_clone_count'];

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  let users = addIdColumn(db.schema.createTable('users'), engine)
    .addColumn('user_type', 'integer', (c) => c.notNull().check(sql`user_type between 0 and 3`))
    .addColumn('pid', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('service_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('agent_id', 'bigint')
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mobile', 'text', (c) => c.unique())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('job', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('organization', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('introduction', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('personal_website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('certification', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1));
  for (const balance of BALANCES) {
    users = users.addColumn(balance, 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`${sql.ref(balance)} >= 0`),
    );
  }
  await users
    .addColumn('show_clip_menu', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('can_transfer_money', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('can_transfer_digital_man', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('can_transfer_digital_voice', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('open_oem', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('digital_man_money_exchange_num', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('digital_voice_money_exchange_num', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('service_prefix_no', 'text', (c) => c.unique())
    .addColumn('service_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('merchant_count_limit', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('mini_appid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expire_at', 'bigint')
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_login_at', 'bigint')
    .addColumn('last_login_ip', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('users_service_type_idx')
    .on('users')
    .columns(['service_id', 'user_type'])
    .execute();
  await db.schema.createIndex('users_agent_idx').on('users').column('agent_id').execute();

  await addIdColumn(db.schema.createTable('sessions'), engine)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('login', 'overstep')`))
    .addColumn('overstep_by', 'bigint', (c) => c.references('users.id'))
    .addColumn('ip', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await addIdColumn(db.schema.createTable('audit_log'), engine)
    .addColumn('actor_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'bigint')
    .addColumn('ip', 'text')
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_log_target_idx')
    .on('audit_log')
    .columns(['target_type', 'target_id'])
    .execute();

  await addIdColumn(db.schema.createTable('domains'), engine)
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('partner_id', 'bigint', (c) => c.notNull().references('users.id'))
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
    .execute();
  await db.schema.createIndex('domains_partner_idx').on('domains').column('partner_id').execute();

  await db.schema
    .createTable('platform_config')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addColumn('is_secret', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await addIdColumn(db.schema.createTable('sms_codes'), engine)
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('sms_codes_mobile_idx')
    .on('sms_codes')
    .columns(['mobile', 'created_at'])
    .execute();

  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .execute();

  await addIdColumn(db.schema.createTable('ledger'), engine)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) =>
      c.notNull().check(sql`asset in ('money', 'digital_man', 'digital_voice', 'image_clone')`),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('change', 'bigint', (c) => c.notNull())
    .addColumn('before', 'bigint', (c) => c.notNull())
    .addColumn('after', 'bigint', (c) => c.notNull().check(sql`"after" >= 0`))
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('related_type', 'text')
    .addColumn('related_id', 'bigint')
    .addColumn('operator_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_user_asset_idx')
    .on('ledger')
    .columns(['user_id', 'asset', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'ledger',
    'login_throttle',
    'sms_codes',
    'platform_config',
    'domains',
    'audit_log',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
