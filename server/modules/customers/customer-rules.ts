import type { Updateable } from 'kysely';
import type {
  AddCustomerData,
  CustomerRow,
  EditCustomerData,
} from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import { rowCount } from '../../platform/db/conditions';
import { isUniqueViolation } from '../../platform/db/errors';
import type { Executor, UserRow, UsersTable } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import { readConfigValue } from '../system';
import { countMerchantsOf, findUserById, isMobileTaken, isUsernameTaken } from '../users';
import {
  AGENT,
  MERCHANT,
  PARTNER,
  findCustomer,
  isMobileTakenByOther,
  isPrefixTaken,
  isUsernameTakenByOther,
} from './repo';

// The rules the customer use cases share: scope, uniqueness, the columns a body changes.

export type UserChanges = Updateable<UsersTable>;

/** The contract's row of a customer (written by the database: customers/repo.ts rowFields). */
export async function rowOf(ctx: AppContext, id: number): Promise<CustomerRow> {
  const text = await findCustomer(ctx.db, ctx.engine, id);
  if (!text) throw refuse('customer.notFound');
  return JSON.parse(text) as CustomerRow;
}

// ---------------------------------------------------------------------------------------------
// Scope

/**
 * A customer the caller may manage: admin – any partner, merchant or agent; partner – the
 * merchants and agents of its subtree. Anything else answers exactly like a missing user.
 */
export async function managedUser(db: Executor, auth: AuthContext, id: number): Promise<UserRow> {
  const user = await findUserById(db, id);
  const visible =
    !!user &&
    user.id !== auth.user.id &&
    (auth.role === 'admin'
      ? [PARTNER, MERCHANT, AGENT].includes(user.user_type)
      : auth.role === 'partner' &&
        user.service_id === auth.user.id &&
        [MERCHANT, AGENT].includes(user.user_type));
  if (!user || !visible) throw refuse('customer.notFound');
  return user;
}

export async function livePartner(db: Executor, id: number): Promise<UserRow> {
  const partner = await findUserById(db, id);
  if (!partner || partner.user_type !== PARTNER) throw refuse('customer.partnerNotFound');
  return partner;
}

/** An agent of the partner `partnerId` (another partner's agent answers like a missing one). */
export async function agentOf(db: Executor, partnerId: number, agentId: number): Promise<UserRow> {
  const agent = await findUserById(db, agentId);
  if (!agent || agent.user_type !== AGENT || agent.service_id !== partnerId) {
    throw refuse('customer.agentNotFound');
  }
  return agent;
}

/**
 * Refuses a new merchant of a partner at its limit. Call inside the transaction, after
 * `lockUsers(partner)`, so parallel creations cannot pass the limit together.
 */
export async function assertBelowMerchantLimit(db: Executor, partnerId: number): Promise<void> {
  const partner = await findUserById(db, partnerId);
  const limit = partner?.merchant_count_limit ?? -1;
  if (limit >= 0 && (await countMerchantsOf(db, partnerId)) >= limit) {
    throw refuse('register.merchantLimit', { limit });
  }
}

/** Cards numbered with a partner's prefix exist (docs/domain.md §1: the prefix is then immutable). */
export async function hasCards(db: Executor, partnerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('recharge_cards')
    .select('id')
    .where('service_id', '=', partnerId)
    .limit(rowCount(1))
    .executeTakeFirst();
  return !!row;
}

/** Refuses a username, mobile or prefix someone else uses (before any write). */
export async function assertFree(
  db: Executor,
  fields: { username?: string; mobile?: string | null; prefix?: string | null },
  exceptId?: number,
): Promise<void> {
  if (fields.username !== undefined) {
    const taken =
      exceptId === undefined
        ? await isUsernameTaken(db, fields.username)
        : await isUsernameTakenByOther(db, fields.username, exceptId);
    if (taken) throw refuse('register.usernameTaken');
  }
  if (fields.mobile) {
    const taken =
      exceptId === undefined
        ? await isMobileTaken(db, fields.mobile)
        : await isMobileTakenByOther(db, fields.mobile, exceptId);
    if (taken) throw refuse('register.mobileTaken');
  }
  if (fields.prefix && (await isPrefixTaken(db, fields.prefix, exceptId))) {
    throw refuse('customer.prefixTaken');
  }
}

/**
 * Runs a write; a unique violation (a twin request that won the race) is reported as the field it
 * hit, found by asking again.
 */
export async function withUniqueCheck<T>(
  ctx: AppContext,
  fields: { username?: string; mobile?: string | null; prefix?: string | null },
  exceptId: number | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await assertFree(ctx.db, fields, exceptId);
    throw refuse('register.usernameTaken');
  }
}

// ---------------------------------------------------------------------------------------------
// Columns

/** Profile fields of a body as column values (only those sent). */
export function profileChanges(body: {
  name?: string;
  nickname?: string;
  mobile?: string;
  email?: string;
  remark?: string;
  expire_at?: number | null;
  show_clip_menu?: 0 | 1;
}): UserChanges {
  return {
    name: body.name,
    nickname: body.nickname,
    mobile: body.mobile === undefined ? undefined : body.mobile || null,
    email: body.email,
    remark: body.remark,
    expire_at: body.expire_at,
    show_clip_menu: body.show_clip_menu,
  };
}

export function adminChanges(body: EditCustomerData | AddCustomerData): UserChanges {
  return {
    can_transfer_money: body.can_transfer_money,
    can_transfer_digital_man: body.can_transfer_digital_man,
    can_transfer_digital_voice: body.can_transfer_digital_voice,
    digital_man_money_exchange_num: body.digital_man_money_exchange_num,
    digital_voice_money_exchange_num: body.digital_voice_money_exchange_num,
    mini_appid: body.mini_appid,
    service_prefix_no: body.service_prefix_no,
    service_type: body.service_type,
    merchant_count_limit: body.merchant_count_limit,
    open_oem: body.open_oem,
  };
}

/** Kysely leaves undefined values out of inserts and updates; drop them for the audit diff too. */
export function defined(changes: UserChanges): UserChanges {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
}

export async function defaultMerchantLimit(db: Executor): Promise<number> {
  const value = Number(await readConfigValue(db, 'VITE_MERCHANT_COUNT_LIMITATION'));
  return Number.isInteger(value) && value >= -1 ? value : -1;
}
