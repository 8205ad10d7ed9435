import { passwordRule, usernameRule } from '../../../src/api/contract/auth';
import { hashPassword } from '../../platform/lib/passwords';
import { issue, post } from '../ledger';
import { insertTransfer, numberTransfer } from '../money';
import { markDemoData } from '../system';
import { setConfigValue } from '../system';
import type { Asset, Db, Executor, NewUser } from '../../platform/db/schema';

export const DEMO_PASSWORD = 'Demo@2026';

/** One argon2 hash for every demo account: hashing is the slow part of seeding. */
let demoHash: Promise<string> | undefined;

export async function hasUsers(db: Executor): Promise<boolean> {
  return !!(await db.selectFrom('users').select('id').limit(1).executeTakeFirst());
}

export async function hasAdmin(db: Executor): Promise<boolean> {
  return !!(await db
    .selectFrom('users')
    .select('id')
    .where('user_type', '=', 0)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst());
}

type SeedUser = Omit<
  NewUser,
  | 'password_hash'
  | 'created_at'
  | 'updated_at'
  | 'expire_at'
  | 'last_login_at'
  | 'last_login_ip'
  | 'deleted_at'
> & { service_prefix_no?: string | null; agent_id?: number | null; mobile: string };

type Balances = Partial<Record<Asset, number>>;

const CENTS = 100;
const HOUR = 3600;

/**
 * Demo data (docs/architecture.md "Contract decisions"): admin; partners `partner` (OEM, owns the
 * localhost domains) and `partner2`; agent `agent` under partner; merchants `merchant` (under
 * partner, referred by agent) and `merchant2` (under partner2). Every balance comes from ledger
 * rows, so each one equals the sum of its ledger.
 */
export async function seedDemo(db: Db, now: number): Promise<void> {
  demoHash ??= hashPassword(DEMO_PASSWORD);
  const passwordHash = await demoHash;
  await db.transaction().execute(async (trx) => {
    const add = async (user: SeedUser): Promise<number> => {
      const row = await trx
        .insertInto('users')
        .values({
          service_prefix_no: null,
          agent_id: null,
          ...user,
          password_hash: passwordHash,
          expire_at: null,
          last_login_at: null,
          last_login_ip: null,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const allTransfers = {
      can_transfer_money: 1,
      can_transfer_digital_man: 1,
      can_transfer_digital_voice: 1,
    };

    const admin = await add({
      user_type: 0,
      username: 'admin',
      name: '平台管理员',
      nickname: 'Admin',
      mobile: '13800000000',
      ...allTransfers,
    });
    const partner = await add({
      user_type: 1,
      pid: admin,
      username: 'partner',
      name: '星云传媒',
      nickname: '星云',
      mobile: '13800000001',
      service_prefix_no: 'PA',
      service_type: 1,
      open_oem: 1,
      ...allTransfers,
    });
    const partner2 = await add({
      user_type: 1,
      pid: admin,
      username: 'partner2',
      name: '极光文化',
      nickname: '极光',
      mobile: '13800000002',
      service_prefix_no: 'PB',
      service_type: 2,
      ...allTransfers,
    });
    for (const id of [partner, partner2]) {
      await trx.updateTable('users').set({ service_id: id }).where('id', '=', id).execute();
    }
    const agent = await add({
      user_type: 3,
      pid: partner,
      service_id: partner,
      username: 'agent',
      name: '销售小王',
      mobile: '13800000004',
    });
    const merchant = await add({
      user_type: 2,
      pid: partner,
      service_id: partner,
      agent_id: agent,
      username: 'merchant',
      name: '晨光小店',
      mobile: '13800000003',
    });
    const merchant2 = await add({
      user_type: 2,
      pid: partner2,
      service_id: partner2,
      username: 'merchant2',
      name: '山海工作室',
      mobile: '13800000005',
    });

    const grant = async (userId: number, balances: Balances) => {
      for (const [asset, change] of Object.entries(balances) as [Asset, number][]) {
        await issue(trx, {
          userId,
          asset,
          type: 'admin_adjust',
          change,
          memo: { id: 'memo.demoOpeningBalance' },
          operatorId: admin,
          now,
        });
      }
    };
    // Demo transfers are real transfers (records with numbers), like those made in the console.
    const transfer = async (from: number, to: number, balances: Balances) => {
      for (const [asset, amount] of Object.entries(balances) as [Asset, number][]) {
        const id = await insertTransfer(trx, {
          from_user_id: from,
          to_user_id: to,
          asset,
          amount,
          remark: { id: 'memo.demoTransfer' },
          operator_id: from,
          created_at: now,
        });
        const common = {
          asset,
          relatedType: 'transfer',
          relatedId: id,
          operatorId: from,
          memo: { id: 'memo.demoTransfer' } as const,
          now,
        };
        const fromAfter = await post(trx, {
          ...common,
          userId: from,
          type: 'transfer_out',
          change: -amount,
        });
        const toAfter = await post(trx, {
          ...common,
          userId: to,
          type: 'transfer_in',
          change: amount,
        });
        await numberTransfer(trx, id, now, {
          from: [fromAfter + amount, fromAfter],
          to: [toAfter - amount, toAfter],
        });
      }
    };
    await grant(partner, {
      money: 100_000 * CENTS,
      digital_man: 100 * HOUR,
      digital_voice: 50,
      image_clone: 20,
    });
    await grant(partner2, {
      money: 50_000 * CENTS,
      digital_man: 50 * HOUR,
      digital_voice: 20,
      image_clone: 10,
    });
    await transfer(partner, merchant, {
      money: 120_050,
      digital_man: 2 * HOUR,
      digital_voice: 2,
      image_clone: 1,
    });
    await transfer(partner2, merchant2, { money: 30_000, digital_man: HOUR, digital_voice: 1 });

    const branding = {
      owner_id: partner,
      name: '星云智剪',
      logo: '/logo.svg',
      favicon: '/favicon.svg',
      copyright: '© 2026 星云智剪 版权所有',
      icp_record_number: '沪ICP备2026000001号-1',
      police_record: '1',
      police_record_number: '沪公网安备31010402000001号',
      money_name: '星币',
      status: 1,
      created_at: now,
      updated_at: now,
    };
    await trx
      .insertInto('domains')
      .values([
        { ...branding, hostname: 'localhost' },
        { ...branding, hostname: '127.0.0.1' },
      ])
      .execute();

    // Recharge packages (platform-owned) for partners and merchants to buy; one is off sale.
    const pkg = (name: string, price: number, money: number, gift: number, sort: number) => ({
      owner_id: null,
      name,
      price: price * CENTS,
      money: money * CENTS,
      gift_money: gift * CENTS,
      sort,
      status: 1,
      description: '',
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    await trx
      .insertInto('recharge_packages')
      .values([
        { ...pkg('体验套餐', 10, 10, 0, 1), description: '新用户体验，充值即到账' },
        { ...pkg('标准套餐', 100, 100, 10, 2), description: '充 100 送 10' },
        { ...pkg('专业套餐', 500, 500, 80, 3), description: '充 500 送 80' },
        { ...pkg('企业套餐', 2000, 2000, 400, 4), description: '充 2000 送 400' },
        { ...pkg('限时特惠', 50, 50, 50, 5), status: 0, description: '活动已结束' },
      ])
      .execute();

    await markDemoData(trx, now);
    await setConfigValue(trx, 'register_open', '1', now);
    await setConfigValue(trx, 'copyright', '© 2026 智能短视频平台', now);
  });
}

/** Without demo data the first admin comes from ADMIN_USERNAME / ADMIN_PASSWORD. */
export async function createFirstAdmin(
  db: Db,
  username: string | undefined,
  password: string | undefined,
  now: number,
): Promise<void> {
  if (!username || !password) {
    throw new Error('DEMO=0 and no admin yet: set ADMIN_USERNAME and ADMIN_PASSWORD');
  }
  if (!usernameRule.safeParse(username).success) {
    throw new Error('ADMIN_USERNAME: 3 to 32 letters, digits, _ . @ or -');
  }
  if (!passwordRule.safeParse(password).success) {
    throw new Error(
      'ADMIN_PASSWORD: at least six characters, with letters, digits and special characters, no spaces',
    );
  }
  await db
    .insertInto('users')
    .values({
      user_type: 0,
      username,
      password_hash: await hashPassword(password),
      name: username,
      mobile: null,
      agent_id: null,
      service_prefix_no: null,
      can_transfer_money: 1,
      can_transfer_digital_man: 1,
      can_transfer_digital_voice: 1,
      expire_at: null,
      last_login_at: null,
      last_login_ip: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .execute();
}
