import { createHash, randomBytes } from 'node:crypto';
import { roleOf } from '../../../src/api/contract/roles';
import type { AppContext, AuthContext } from '../../context';
import {
  USER_STATUS,
  type Executor,
  type RevokeReason,
  type SessionKind,
} from '../../platform/db/schema';
import { sessionEnded, unauthenticated } from '../../platform/http/errors';
import type { MessageId } from '../../platform/i18n';
import { findUserById, updateUser } from '../users';
import {
  findSessionByTokenHash,
  insertSession,
  revokeSession,
  revokeSessionsOfUser,
  touchSession,
} from './repo';

/** 256-bit opaque tokens, base64url: 43 characters. Anything else is not one of ours. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** last_seen_at is written at most once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;

const ENDED_MESSAGE: Record<Exclude<RevokeReason, 'logout'>, MessageId> = {
  password_change: 'auth.sessionEnded.password_change',
  password_reset: 'auth.sessionEnded.password_reset',
  disabled: 'auth.sessionEnded.disabled',
  admin: 'auth.sessionEnded.admin',
};

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewSession {
  userId: number;
  kind: SessionKind;
  overstepBy?: number;
  ip?: string;
}

/** Opens a session and returns its token (the only time the token exists outside the client). */
export async function createSession(
  ctx: AppContext,
  db: Executor,
  { userId, kind, overstepBy, ip }: NewSession,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  const lifetimeMs =
    kind === 'overstep'
      ? ctx.config.overstepSessionMinutes * 60_000
      : ctx.config.sessionAbsoluteHours * 3_600_000;
  await insertSession(db, {
    token_hash: hashToken(token),
    user_id: userId,
    kind,
    overstep_by: overstepBy ?? null,
    ip: ip ?? null,
    created_at: now,
    last_seen_at: now,
    expires_at: now + lifetimeMs,
    revoked_at: null,
    revoked_reason: null,
  });
  return token;
}

/**
 * The caller behind a token, or a refusal: HTTP 401 for missing, unknown, expired and logged-out
 * tokens; code 50008 for sessions someone else ended (password change or reset, disable, admin).
 */
export async function authenticate(
  ctx: AppContext,
  token: string | undefined,
): Promise<AuthContext> {
  if (!token || !TOKEN_PATTERN.test(token)) throw unauthenticated();
  const session = await findSessionByTokenHash(ctx.db, hashToken(token));
  if (!session) throw unauthenticated();
  const now = ctx.now();
  const expired =
    now >= session.expires_at ||
    now - session.last_seen_at >= ctx.config.sessionIdleMinutes * 60_000;
  if (session.revoked_reason && session.revoked_reason !== 'logout' && !expired) {
    throw sessionEnded(ENDED_MESSAGE[session.revoked_reason]);
  }
  if (session.revoked_at !== null || expired) throw unauthenticated();
  const user = await findUserById(ctx.db, session.user_id);
  if (!user) throw unauthenticated();
  if (user.status !== USER_STATUS.normal) {
    await revokeSession(ctx.db, session.id, 'disabled', now);
    throw sessionEnded(ENDED_MESSAGE.disabled);
  }
  if (now - session.last_seen_at >= TOUCH_EVERY_MS) {
    await touchSession(ctx.db, session.id, now);
    session.last_seen_at = now;
  }
  return { user, role: roleOf(user.user_type), session };
}

/** Logout: ends the session behind the token if it is still live; anything else is a no-op. */
export async function endSessionByToken(ctx: AppContext, token: string | undefined): Promise<void> {
  if (!token || !TOKEN_PATTERN.test(token)) return;
  const session = await findSessionByTokenHash(ctx.db, hashToken(token));
  if (session) await revokeSession(ctx.db, session.id, 'logout', ctx.now());
}

export function endSessionsOfUser(
  ctx: AppContext,
  db: Executor,
  userId: number,
  reason: RevokeReason,
): Promise<number> {
  return revokeSessionsOfUser(db, userId, reason, ctx.now());
}

/** Enables or disables an account; disabling ends its sessions at once (docs/decisions.md). */
export async function setUserStatus(
  ctx: AppContext,
  userId: number,
  status: (typeof USER_STATUS)[keyof typeof USER_STATUS],
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, userId, { status, updated_at: ctx.now() });
    if (status === USER_STATUS.disabled) await endSessionsOfUser(ctx, trx, userId, 'disabled');
  });
}
