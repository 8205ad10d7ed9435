import type {
  ChangePwdBody,
  LoginBody,
  LoginReply,
  RegisterBody,
  ResetPwdBody,
} from '../../../src/api/contract/auth';
import type { AppContext, AuthContext } from '../../context';
import { isUniqueViolation } from '../../platform/db/errors';
import { roleOf } from '../../../src/api/contract/roles';
import { USER_STATUS, type Executor, type UserRow } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { dummyVerify, hashPassword, verifyPassword } from '../../platform/lib/passwords';
import { createSession, endSessionsOfUser } from '../sessions';
import { readConfigValue, findActiveDomain } from '../system';
import { normalizeHost } from '../system';
import {
  countMerchantsOf,
  findUserById,
  findUserByMobile,
  findUserByUsername,
  insertUser,
  isMobileTaken,
  isUsernameTaken,
  updateUser,
} from '../users';
import { checkCode, consumeCode } from './sms-codes';
import { accountKey, ipKey, registerIpKey, registerMobileKey, reserveAttempts } from './throttle';
import { clearAttempts } from './repo';

const MERCHANT = 2;
const PARTNER = 1;

function loginReply(user: UserRow, token: string): LoginReply {
  return {
    userinfo: { token, accountId: user.id, user_type: user.user_type, username: user.username },
  };
}

/**
 * Password login. Unknown and known accounts answer alike (same message, a dummy verify of the same
 * cost); a disabled account is told so only after its password was right.
 */
export async function login(ctx: AppContext, body: LoginBody, ip: string): Promise<LoginReply> {
  const attempt = await reserveAttempts(ctx, [accountKey(body.account), ipKey(ip)]);
  const user = await findUserByUsername(ctx.db, body.account);
  const passwordOk = user
    ? await verifyPassword(user.password_hash, body.password)
    : await dummyVerify(body.password);
  if (!user || !passwordOk) throw refuse('auth.wrongCredentials');
  await attempt.succeeded();
  if (user.status !== USER_STATUS.normal) throw refuse('auth.disabled');
  const now = ctx.now();
  const token = await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { last_login_at: now, last_login_ip: ip });
    return createSession(ctx, trx, { userId: user.id, kind: 'login', ip });
  });
  return loginReply(user, token);
}

/**
 * Log in as a merchant: admin for any, a partner for its own (service_id). Anything else —
 * missing, not a merchant, another partner's — answers "merchant not found". Audited.
 */
export async function overstepLogin(
  ctx: AppContext,
  auth: AuthContext,
  merchantId: number,
  ip: string,
  audit: AuditTrail,
): Promise<LoginReply> {
  const target = await findUserById(ctx.db, merchantId);
  const visible =
    !!target &&
    target.user_type === MERCHANT &&
    (auth.role === 'admin' || (auth.role === 'partner' && target.service_id === auth.user.id));
  if (!target || !visible) throw refuse('merchant.notFound');
  if (target.status !== USER_STATUS.normal) throw refuse('auth.disabled');
  const token = await runInTransaction(
    ctx.db,
    (trx) =>
      createSession(ctx, trx, {
        userId: target.id,
        kind: 'overstep',
        overstepBy: auth.user.id,
        ip,
      }),
    { audit },
  );
  return loginReply(target, token);
}

/** Wrong old passwords count against the account's login throttle (a stolen session cannot guess). */
export async function changePassword(
  ctx: AppContext,
  auth: AuthContext,
  body: ChangePwdBody,
  audit: AuditTrail,
): Promise<void> {
  if (body.new_password === body.old_password) throw refuse('auth.samePassword');
  const attempt = await reserveAttempts(ctx, [accountKey(auth.user.username)]);
  if (!(await verifyPassword(auth.user.password_hash, body.old_password))) {
    throw refuse('auth.oldPasswordWrong');
  }
  await attempt.succeeded();
  const passwordHash = await hashPassword(body.new_password);
  audit.change({ password_hash: auth.user.password_hash }, { password_hash: passwordHash });
  await runInTransaction(
    ctx.db,
    async (trx) => {
      await updateUser(trx, auth.user.id, { password_hash: passwordHash, updated_at: ctx.now() });
      await endSessionsOfUser(ctx, trx, auth.user.id, 'password_change');
    },
    { audit },
  );
}

export async function resetPassword(
  ctx: AppContext,
  body: ResetPwdBody,
  audit: AuditTrail,
): Promise<void> {
  const codeId = await checkCode(ctx, body.mobile, 'reset', body.code);
  const user = await findUserByMobile(ctx.db, body.mobile);
  if (!user) throw refuse('sms.badCode');
  const passwordHash = await hashPassword(body.new_password);
  // Whoever holds the mobile's code acts as its user.
  audit.actAs({ id: user.id, role: roleOf(user.user_type) });
  audit.target(user.id);
  audit.change({ password_hash: user.password_hash }, { password_hash: passwordHash });
  await runInTransaction(
    ctx.db,
    async (trx) => {
      await consumeCode(trx, codeId, ctx.now());
      await updateUser(trx, user.id, { password_hash: passwordHash, updated_at: ctx.now() });
      await endSessionsOfUser(ctx, trx, user.id, 'password_reset');
      await clearAttempts(trx, accountKey(user.username).key);
    },
    { audit },
  );
}

/**
 * Merchant sign-up under the partner that owns the domain, when the platform allows sign-up.
 * Signs the new merchant in (same reply as login). Throttled per address and per mobile.
 */
export async function register(
  ctx: AppContext,
  body: RegisterBody,
  ip: string,
  audit: AuditTrail,
): Promise<LoginReply> {
  const attempt = await reserveAttempts(ctx, [registerIpKey(ip), registerMobileKey(body.mobile)]);
  if ((await readConfigValue(ctx.db, 'register_open')) !== '1') throw refuse('register.closed');
  const host = normalizeHost(body.domain);
  const domain = host ? await findActiveDomain(ctx.db, host) : undefined;
  // A platform-owned domain (owner_id null) has no partner to sign up under.
  const partner = domain?.owner_id ? await findUserById(ctx.db, domain.owner_id) : undefined;
  if (!partner || partner.user_type !== PARTNER || partner.status !== USER_STATUS.normal) {
    throw refuse('register.noPartner');
  }
  const assertBelowLimit = async (db: Executor) => {
    const limit = partner.merchant_count_limit;
    if (limit >= 0 && (await countMerchantsOf(db, partner.id)) >= limit) {
      throw refuse('register.merchantLimit', { limit });
    }
  };
  // Refusals that say nothing about other people's accounts come before the code check, which
  // uses up one of its tries. Whether the name or the mobile is taken is answered only to whoever
  // holds the mobile's code, and alike for both (docs/decisions.md "Sign-up without account
  // enumeration").
  await assertBelowLimit(ctx.db);
  const codeId = await checkCode(ctx, body.mobile, 'register', body.code);
  if (
    (await isUsernameTaken(ctx.db, body.username)) ||
    (await isMobileTaken(ctx.db, body.mobile))
  ) {
    throw refuse('register.unavailable');
  }
  const passwordHash = await hashPassword(body.password);
  const now = ctx.now();
  try {
    const reply = await runInTransaction(
      ctx.db,
      async (trx) => {
        // Lock the partner row on PostgreSQL so parallel sign-ups cannot pass the limit together
        // (SQLite runs one write transaction at a time).
        await trx
          .selectFrom('users')
          .select('id')
          .where('id', '=', partner.id)
          .$if(ctx.engine === 'postgres', (qb) => qb.forUpdate())
          .execute();
        await assertBelowLimit(trx);
        await consumeCode(trx, codeId, now);
        const id = await insertUser(trx, {
          user_type: MERCHANT,
          pid: partner.id,
          service_id: partner.id,
          agent_id: null,
          username: body.username,
          password_hash: passwordHash,
          name: body.username,
          mobile: body.mobile,
          service_prefix_no: null,
          expire_at: null,
          last_login_at: now,
          last_login_ip: ip,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        });
        const token = await createSession(ctx, trx, { userId: id, kind: 'login', ip });
        // The new merchant signed itself up.
        audit.actAs({ id, role: 'merchant' });
        audit.target(id);
        audit.change(null, {
          username: body.username,
          mobile: body.mobile,
          user_type: MERCHANT,
          service_id: partner.id,
        });
        return {
          userinfo: { token, accountId: id, user_type: MERCHANT, username: body.username },
        };
      },
      { audit },
    );
    await attempt.succeeded();
    return reply;
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('register.unavailable');
    throw error;
  }
}
