import type { Updateable } from 'kysely';
import type {
  AddByServiceData,
  AddCustomerData,
  CustomerListFilter,
  CustomerPage,
  CustomerRow,
  EditAccountData,
  EditByServiceData,
  EditCustomerData,
  EditTypeData,
  PlatformUserListFilter,
  PlatformUserPage,
} from '../../../src/api/contract/customers';
import { PARTNER_FIELDS } from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import { rowCount } from '../../db/conditions';
import { isUniqueViolation } from '../../db/errors';
import { USER_STATUS, type Executor, type UserRow, type UsersTable } from '../../db/schema';
import { refuse } from '../../http/errors';
import { JsonText } from '../../http/json-text';
import { formatCents } from '../../lib/money';
import { hashPassword } from '../../lib/passwords';
import { writeAudit } from '../audit/repo';
import { clearAttempts } from '../auth/repo';
import { accountKey } from '../auth/throttle';
import { postEntry } from '../ledger/repo';
import { lockUsers, runMoney } from '../ledger/service';
import { endSessionsOfUser } from '../sessions/service';
import { readConfig, readConfigValue } from '../system/repo';
import {
  countMerchantsOf,
  findUserById,
  insertUser,
  isMobileTaken,
  isUsernameTaken,
  updateUser,
} from '../users/repo';
import { setUserStatus } from '../users/service';
import {
  AGENT,
  MERCHANT,
  PARTNER,
  findCustomer,
  hasChildren,
  isMobileTakenByOther,
  isPrefixTaken,
  isUsernameTakenByOther,
  listCustomers as selectPage,
  listUsedPrefixes,
  ownsDomains,
  pickUsers as selectPickable,
} from './repo';

type UserChanges = Updateable<UsersTable>;

/** Where a call came from, for the audit log. */
export interface CallSite {
  ip: string;
}

const DEFAULT_LIMIT = 20;

/** The contract's row of a customer (written by the database: customers/repo.ts rowFields). */
async function rowOf(ctx: AppContext, id: number): Promise<CustomerRow> {
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
async function managedUser(db: Executor, auth: AuthContext, id: number): Promise<UserRow> {
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

async function livePartner(db: Executor, id: number): Promise<UserRow> {
  const partner = await findUserById(db, id);
  if (!partner || partner.user_type !== PARTNER) throw refuse('customer.partnerNotFound');
  return partner;
}

/** An agent of the partner `partnerId` (another partner's agent answers like a missing one). */
async function agentOf(db: Executor, partnerId: number, agentId: number): Promise<UserRow> {
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
async function assertBelowMerchantLimit(db: Executor, partnerId: number): Promise<void> {
  const partner = await findUserById(db, partnerId);
  const limit = partner?.merchant_count_limit ?? -1;
  if (limit >= 0 && (await countMerchantsOf(db, partnerId)) >= limit) {
    throw refuse('register.merchantLimit', { limit });
  }
}

/** Cards numbered with a partner's prefix exist (DOMAIN.md §1: the prefix is then immutable). */
async function hasCards(db: Executor, partnerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('recharge_cards')
    .select('id')
    .where('service_id', '=', partnerId)
    .limit(rowCount(1))
    .executeTakeFirst();
  return !!row;
}

/** Refuses a username, mobile or prefix someone else uses (before any write). */
async function assertFree(
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
async function withUniqueCheck<T>(
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
// Lists

export async function listCustomers(
  ctx: AppContext,
  auth: AuthContext,
  query: CustomerListFilter,
): Promise<JsonText<CustomerPage>> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  let parentType: number | undefined;
  if (query.pid !== undefined) {
    parentType = (await findUserById(ctx.db, query.pid))?.user_type;
  }
  const { rows, total } = await selectPage(ctx.db, ctx.engine, auth, {
    userType: query.user_type,
    keyword: query.keyword || undefined,
    status: query.status,
    serviceId: query.service_id,
    agentId: query.agent_id,
    parentId: query.pid,
    parentType,
    createdFrom: query.created_from,
    createdTo: query.created_to,
    sort: query.sort ?? 'id',
    order: query.order ?? 'desc',
    offset: (page - 1) * limit,
    limit,
  });
  // The rows as the database wrote them (JSON text), not parsed and written again.
  return new JsonText(`{"list":[${rows.join(',')}],"total":${total}}`);
}

export async function usedPrefixes(ctx: AppContext): Promise<string[]> {
  return listUsedPrefixes(ctx.db);
}

export async function platformUsers(
  ctx: AppContext,
  auth: AuthContext,
  query: PlatformUserListFilter,
): Promise<PlatformUserPage> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const { rows, total } = await selectPickable(ctx.db, auth, {
    userType: query.user_type,
    keyword: query.keyword || undefined,
    offset: (page - 1) * limit,
    limit,
  });
  return { list: rows.map((r) => ({ ...r, mobile: r.mobile ?? '' })), total };
}

// ---------------------------------------------------------------------------------------------
// Create

/** Profile fields of a body as column values (only those sent). */
function profileChanges(body: {
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

function adminChanges(body: EditCustomerData | AddCustomerData): UserChanges {
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

/** Kysely leaves undefined values out of inserts and updates; drop them for the audit too. */
function defined(changes: UserChanges): UserChanges {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
}

async function defaultMerchantLimit(db: Executor): Promise<number> {
  const value = Number(await readConfigValue(db, 'VITE_MERCHANT_COUNT_LIMITATION'));
  return Number.isInteger(value) && value >= -1 ? value : -1;
}

interface NewCustomer {
  userType: number;
  username: string;
  password: string;
  status?: number;
  /** Partner of a merchant or agent; none for a partner (its own id). */
  serviceId?: number;
  agentId?: number | null;
  /** The direct parent stored in `pid`. */
  pid: number;
  columns: UserChanges;
}

async function insertCustomer(
  ctx: AppContext,
  trx: Executor,
  customer: NewCustomer,
  passwordHash: string,
): Promise<number> {
  const now = ctx.now();
  const columns = defined(customer.columns);
  const id = await insertUser(trx, {
    ...columns,
    user_type: customer.userType,
    pid: customer.pid,
    service_id: customer.serviceId ?? 0,
    agent_id: customer.agentId ?? null,
    username: customer.username,
    password_hash: passwordHash,
    name: columns.name || customer.username,
    mobile: columns.mobile ?? null,
    service_prefix_no: columns.service_prefix_no ?? null,
    status: customer.status ?? USER_STATUS.normal,
    expire_at: columns.expire_at ?? null,
    last_login_at: null,
    last_login_ip: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  // A partner's service_id is its own id.
  if (customer.userType === PARTNER) await updateUser(trx, id, { service_id: id });
  return id;
}

function auditDetail(columns: UserChanges): Record<string, unknown> {
  const { password_hash: _secret, ...rest } = defined(columns);
  return rest;
}

/** POST /provider_service/add (admin): a partner, or a merchant / agent under a partner. */
export async function addCustomer(
  ctx: AppContext,
  auth: AuthContext,
  body: AddCustomerData,
  site: CallSite,
): Promise<CustomerRow> {
  let serviceId: number | undefined;
  let agentId: number | null = null;
  if (body.user_type !== PARTNER) {
    serviceId = (await livePartner(ctx.db, body.service_id!)).id;
    if (body.user_type === MERCHANT && body.agent_id) {
      agentId = (await agentOf(ctx.db, serviceId, body.agent_id)).id;
    }
  }
  const columns: UserChanges = { ...profileChanges(body), ...adminChanges(body) };
  if (body.user_type === PARTNER) {
    columns.service_type = body.service_type ?? 2;
    columns.merchant_count_limit =
      body.merchant_count_limit ?? (await defaultMerchantLimit(ctx.db));
  }
  const unique = {
    username: body.username,
    mobile: columns.mobile ?? null,
    prefix: columns.service_prefix_no ?? null,
  };
  await assertFree(ctx.db, unique);
  const passwordHash = await hashPassword(body.password);
  const id = await withUniqueCheck(ctx, unique, undefined, () =>
    runMoney(ctx, async (trx) => {
      if (serviceId !== undefined && body.user_type === MERCHANT) {
        await lockUsers(ctx, trx, [serviceId]);
        await assertBelowMerchantLimit(trx, serviceId);
      }
      const newId = await insertCustomer(
        ctx,
        trx,
        {
          userType: body.user_type,
          username: body.username,
          password: body.password,
          status: body.status,
          serviceId,
          agentId,
          pid: serviceId ?? auth.user.id,
          columns,
        },
        passwordHash,
      );
      await writeAudit(trx, {
        actorId: auth.user.id,
        action: 'customer.create',
        targetType: 'user',
        targetId: newId,
        ip: site.ip,
        detail: {
          username: body.username,
          user_type: body.user_type,
          service_id: serviceId ?? newId,
          agent_id: agentId,
          ...auditDetail(columns),
        },
        now: ctx.now(),
      });
      return newId;
    }),
  );
  return rowOf(ctx, id);
}

/**
 * POST /provider_service/add_by_service (partner): a merchant or agent under the caller. A trial
 * credit moves from the partner's money to the new merchant through the ledger, in the same
 * transaction as the insert.
 */
export async function addByService(
  ctx: AppContext,
  auth: AuthContext,
  body: AddByServiceData,
  site: CallSite,
): Promise<CustomerRow> {
  const partnerId = auth.user.id;
  const switches = await readConfig(ctx.db, ['saler_show', 'expirence_money_show']);
  if (body.agent_id !== undefined && switches.get('saler_show') !== '1') {
    throw refuse('customer.agentPickerOff');
  }
  if (body.trial_money !== undefined && switches.get('expirence_money_show') !== '1') {
    throw refuse('customer.trialOff');
  }
  const agentId = body.agent_id ? (await agentOf(ctx.db, partnerId, body.agent_id)).id : null;
  const trialCents = body.trial_money ?? 0;
  const columns = profileChanges(body);
  const unique = { username: body.username, mobile: columns.mobile ?? null };
  if (body.user_type === MERCHANT) await assertBelowMerchantLimit(ctx.db, partnerId);
  await assertFree(ctx.db, unique);
  if (trialCents > auth.user.money) {
    throw refuse('customer.trialShort', { amount: formatCents(trialCents) });
  }
  const passwordHash = await hashPassword(body.password);
  const id = await withUniqueCheck(ctx, unique, undefined, () =>
    runMoney(ctx, async (trx) => {
      await lockUsers(ctx, trx, [partnerId]);
      if (body.user_type === MERCHANT) await assertBelowMerchantLimit(trx, partnerId);
      const now = ctx.now();
      const newId = await insertCustomer(
        ctx,
        trx,
        {
          userType: body.user_type,
          username: body.username,
          password: body.password,
          status: body.status,
          serviceId: partnerId,
          agentId,
          pid: partnerId,
          columns,
        },
        passwordHash,
      );
      if (trialCents > 0) {
        const common = {
          asset: 'money' as const,
          type: 'trial_credit' as const,
          relatedType: 'user',
          relatedId: newId,
          operatorId: auth.user.id,
          now,
        };
        const debited = await postEntry(trx, {
          ...common,
          userId: partnerId,
          change: -trialCents,
          memo: { id: 'memo.trialCreditTo', params: { username: body.username } },
        });
        if (debited === undefined) {
          throw refuse('customer.trialShort', { amount: formatCents(trialCents) });
        }
        await postEntry(trx, {
          ...common,
          userId: newId,
          change: trialCents,
          memo: { id: 'memo.trialCreditFrom', params: { username: auth.user.username } },
        });
      }
      await writeAudit(trx, {
        actorId: auth.user.id,
        action: 'customer.create',
        targetType: 'user',
        targetId: newId,
        ip: site.ip,
        detail: {
          username: body.username,
          user_type: body.user_type,
          service_id: partnerId,
          agent_id: agentId,
          trial_money: trialCents > 0 ? formatCents(trialCents) : undefined,
          ...auditDetail(columns),
        },
        now,
      });
      return newId;
    }),
  );
  return rowOf(ctx, id);
}

// ---------------------------------------------------------------------------------------------
// Edit

async function saveEdit(
  ctx: AppContext,
  auth: AuthContext,
  target: UserRow,
  changes: UserChanges,
  site: CallSite,
): Promise<CustomerRow> {
  const columns = defined(changes);
  const unique = {
    mobile: typeof columns.mobile === 'string' ? columns.mobile : null,
    prefix: typeof columns.service_prefix_no === 'string' ? columns.service_prefix_no : null,
  };
  await assertFree(ctx.db, unique, target.id);
  if (Object.keys(columns).length > 0) {
    await withUniqueCheck(ctx, unique, target.id, () =>
      ctx.db.transaction().execute(async (trx) => {
        await updateUser(trx, target.id, { ...columns, updated_at: ctx.now() });
        await writeAudit(trx, {
          actorId: auth.user.id,
          action: 'customer.edit',
          targetType: 'user',
          targetId: target.id,
          ip: site.ip,
          detail: { username: target.username, ...auditDetail(columns) },
          now: ctx.now(),
        });
      }),
    );
  }
  return rowOf(ctx, target.id);
}

/** The merchant's agent link: an agent of the same partner, or null. */
async function agentChange(
  db: Executor,
  target: UserRow,
  agentId: number | null | undefined,
): Promise<number | null | undefined> {
  if (agentId === undefined) return undefined;
  if (target.user_type !== MERCHANT) throw refuse('customer.agentMerchantOnly');
  if (agentId === null) return null;
  return (await agentOf(db, target.service_id, agentId)).id;
}

/** POST /provider_service/edit (admin): any customer's profile fields and flags. */
export async function editCustomer(
  ctx: AppContext,
  auth: AuthContext,
  body: EditCustomerData,
  site: CallSite,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  const sentPartnerFields = PARTNER_FIELDS.filter((f) => body[f] !== undefined);
  if (target.user_type !== PARTNER && sentPartnerFields.length > 0) {
    throw refuse('customer.partnerFieldsOnly');
  }
  if (
    body.service_prefix_no !== undefined &&
    body.service_prefix_no !== (target.service_prefix_no ?? '').toUpperCase() &&
    ((await countMerchantsOf(ctx.db, target.id)) > 0 || (await hasCards(ctx.db, target.id)))
  ) {
    throw refuse('customer.prefixLocked');
  }
  const agentId = await agentChange(ctx.db, target, body.agent_id);
  return saveEdit(
    ctx,
    auth,
    target,
    { ...profileChanges(body), ...adminChanges(body), agent_id: agentId },
    site,
  );
}

/** POST /provider_service/edit_by_service (partner): one of its merchants or agents. */
export async function editByService(
  ctx: AppContext,
  auth: AuthContext,
  body: EditByServiceData,
  site: CallSite,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  if (body.agent_id !== undefined && (await readConfigValue(ctx.db, 'saler_show')) !== '1') {
    throw refuse('customer.agentPickerOff');
  }
  const agentId = await agentChange(ctx.db, target, body.agent_id);
  return saveEdit(ctx, auth, target, { ...profileChanges(body), agent_id: agentId }, site);
}

/**
 * POST /provider_service/edit_account (admin, or the user's partner): account name, password
 * reset (ends the user's sessions) and enable / disable (disable ends its sessions).
 */
export async function editAccount(
  ctx: AppContext,
  auth: AuthContext,
  body: EditAccountData,
  site: CallSite,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  const newName = body.username !== undefined && body.username !== target.username;
  if (newName) await assertFree(ctx.db, { username: body.username }, target.id);
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
  if (newName || passwordHash !== undefined) {
    await withUniqueCheck(ctx, { username: body.username }, target.id, () =>
      ctx.db.transaction().execute(async (trx) => {
        const now = ctx.now();
        await updateUser(trx, target.id, {
          username: newName ? body.username : undefined,
          password_hash: passwordHash,
          updated_at: now,
        });
        if (newName) {
          await writeAudit(trx, {
            actorId: auth.user.id,
            action: 'customer.username',
            targetType: 'user',
            targetId: target.id,
            ip: site.ip,
            detail: { from: target.username, to: body.username },
            now,
          });
        }
        if (passwordHash !== undefined) {
          await endSessionsOfUser(ctx, trx, target.id, 'password_reset');
          // A reset by an ancestor also lifts a lock from failed logins.
          await clearAttempts(trx, accountKey(target.username).key);
          await writeAudit(trx, {
            actorId: auth.user.id,
            action: 'customer.password_reset',
            targetType: 'user',
            targetId: target.id,
            ip: site.ip,
            detail: { username: target.username },
            now,
          });
        }
      }),
    );
  }
  if (body.status !== undefined && body.status !== target.status) {
    await setUserStatus(ctx, target.id, body.status as 0 | 1);
    await writeAudit(ctx.db, {
      actorId: auth.user.id,
      action: 'customer.status',
      targetType: 'user',
      targetId: target.id,
      ip: site.ip,
      detail: { username: body.username ?? target.username, status: body.status },
      now: ctx.now(),
    });
  }
  return rowOf(ctx, target.id);
}

/**
 * POST /provider_service/edit_type (admin): refused while the user has users under it (or, for a
 * partner, domains). A partner becoming a merchant or agent moves under `service_id`; a merchant or
 * agent may move to another partner too.
 */
export async function editType(
  ctx: AppContext,
  auth: AuthContext,
  body: EditTypeData,
  site: CallSite,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  const newType = body.user_type;
  const moving =
    newType !== PARTNER &&
    body.service_id !== undefined &&
    (target.user_type === PARTNER || body.service_id !== target.service_id);
  if (newType === target.user_type && !moving) return rowOf(ctx, target.id);
  if (await hasChildren(ctx.db, target.id)) throw refuse('customer.hasChildren');
  if (target.user_type === PARTNER && (await ownsDomains(ctx.db, target.id))) {
    throw refuse('customer.hasDomains');
  }
  let changes: UserChanges;
  let serviceId: number;
  if (newType === PARTNER) {
    serviceId = target.id;
    changes = {
      user_type: PARTNER,
      service_id: target.id,
      pid: auth.user.id,
      agent_id: null,
      service_type: 2,
      merchant_count_limit: await defaultMerchantLimit(ctx.db),
    };
  } else {
    if (target.user_type === PARTNER && body.service_id === undefined) {
      throw refuse('validation.partnerRequired');
    }
    serviceId = body.service_id ?? target.service_id;
    if (serviceId === target.id) throw refuse('customer.partnerNotFound');
    await livePartner(ctx.db, serviceId);
    const samePartner = serviceId === target.service_id && target.user_type !== PARTNER;
    changes = {
      user_type: newType,
      service_id: serviceId,
      pid: serviceId,
      // An agent link survives only for a merchant staying with its partner.
      agent_id: newType === MERCHANT && samePartner ? target.agent_id : null,
      service_prefix_no: target.user_type === PARTNER ? null : undefined,
      service_type: target.user_type === PARTNER ? 0 : undefined,
      open_oem: target.user_type === PARTNER ? 0 : undefined,
    };
  }
  await ctx.db.transaction().execute(async (trx) => {
    const becomesMerchant =
      newType === MERCHANT && (target.user_type !== MERCHANT || serviceId !== target.service_id);
    if (becomesMerchant) {
      await lockUsers(ctx, trx, [serviceId]);
      await assertBelowMerchantLimit(trx, serviceId);
    }
    // Checked again inside the transaction: nobody was added under it meanwhile.
    if (await hasChildren(trx, target.id)) throw refuse('customer.hasChildren');
    await updateUser(trx, target.id, { ...defined(changes), updated_at: ctx.now() });
    await writeAudit(trx, {
      actorId: auth.user.id,
      action: 'customer.type',
      targetType: 'user',
      targetId: target.id,
      ip: site.ip,
      detail: {
        username: target.username,
        from: target.user_type,
        to: newType,
        from_service_id: target.service_id,
        service_id: serviceId,
      },
      now: ctx.now(),
    });
  });
  return rowOf(ctx, target.id);
}

// ---------------------------------------------------------------------------------------------
// Delete

/**
 * POST /provider_service/delete (admin, or the user's partner): soft delete, only with all four
 * balances at zero and nobody under it; its sessions end. Its username, mobile and prefix stay
 * taken.
 */
export async function deleteCustomer(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  site: CallSite,
): Promise<void> {
  const target = await managedUser(ctx.db, auth, id);
  await ctx.db.transaction().execute(async (trx) => {
    await lockUsers(ctx, trx, [target.id]);
    const fresh = await findUserById(trx, target.id);
    if (!fresh) throw refuse('customer.notFound');
    const balances = [
      fresh.money,
      fresh.digital_man_seconds,
      fresh.voice_clone_count,
      fresh.image_clone_count,
    ];
    if (balances.some((b) => Number(b) !== 0)) throw refuse('customer.hasBalance');
    if (await hasChildren(trx, target.id)) throw refuse('customer.hasChildren');
    if (target.user_type === PARTNER && (await ownsDomains(trx, target.id))) {
      throw refuse('customer.hasDomains');
    }
    const now = ctx.now();
    await updateUser(trx, target.id, { deleted_at: now, updated_at: now });
    await endSessionsOfUser(ctx, trx, target.id, 'admin');
    await writeAudit(trx, {
      actorId: auth.user.id,
      action: 'customer.delete',
      targetType: 'user',
      targetId: target.id,
      ip: site.ip,
      detail: { username: target.username, user_type: target.user_type },
      now,
    });
  });
}
