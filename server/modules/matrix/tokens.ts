import type { AppContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import {
  SocialPlatformError,
  type SocialProfile,
  type SocialTokens,
} from '../../integrations/social/types';
import { notifyAccountAttention } from '../notifications';
import { adapterOf } from './platforms';
import type { AccountRow } from './repo';

/**
 * A social account's tokens (docs/domain.md §19): sealed in its row (the place is
 * `matrix_accounts:<field>:<id>`), opened only to call the platform, never in a reply or a log.
 * Kept alive by `refreshAccount`: the access token is refreshed before it expires, the refresh
 * token renewed before it expires while renewals remain; "expiring" when none remain and it ends
 * soon; expired or revoked only on the platform's definite answers (or when the refresh token's
 * own end has passed). A transient failure changes no status.
 */

const DAY = 24 * 3600_000;
/** Refresh the access token when it expires within this. */
export const REFRESH_ACCESS_WITHIN_MS = 3 * DAY;
/** Renew the refresh token (while renewals remain), or else call it expiring, within this. */
export const RENEW_REFRESH_WITHIN_MS = 5 * DAY;
/** Douyin: a refresh token may be renewed 5 times per authorisation. */
export const DOUYIN_RENEWALS = 5;
/** One refresh at a time per account: the lease a refresher holds. */
const LEASE_MS = 2 * 60_000;

const place = (id: number, field: 'access_token' | 'refresh_token') => ({
  table: 'matrix_accounts',
  field,
  row: id,
});

/** The sealed columns of an account's tokens. */
export function sealTokens(
  ctx: AppContext,
  id: number,
  tokens: { accessToken?: string; refreshToken?: string },
): { access_token?: string; refresh_token?: string } {
  const out: { access_token?: string; refresh_token?: string } = {};
  // Never store an empty token: the platform's answer was checked by the adapter, this is the last
  // line before the row.
  if (tokens.accessToken !== undefined) {
    if (!tokens.accessToken) throw new Error('refusing to store an empty access token');
    out.access_token = ctx.sealer.seal(tokens.accessToken, place(id, 'access_token'));
  }
  if (tokens.refreshToken !== undefined) {
    if (!tokens.refreshToken) throw new Error('refusing to store an empty refresh token');
    out.refresh_token = ctx.sealer.seal(tokens.refreshToken, place(id, 'refresh_token'));
  }
  return out;
}

export function openAccessToken(ctx: AppContext, row: Pick<AccountRow, 'id' | 'access_token'>) {
  return ctx.sealer.open(row.access_token, place(Number(row.id), 'access_token'));
}

function openRefreshToken(ctx: AppContext, row: Pick<AccountRow, 'id' | 'refresh_token'>) {
  return ctx.sealer.open(row.refresh_token, place(Number(row.id), 'refresh_token'));
}

/** The row's values for freshly issued tokens (a new authorisation: renewals start again). */
export function freshTokenColumns(ctx: AppContext, id: number, tokens: SocialTokens, now: number) {
  return {
    ...sealTokens(ctx, id, tokens),
    expires_at: tokens.accessExpiresAt,
    refresh_expires_at: tokens.refreshExpiresAt,
    renewals_left: DOUYIN_RENEWALS,
    status: 'normal',
    last_refresh_at: null,
    last_error: null,
    updated_at: now,
  };
}

/** The status a person sees: a refresh token past its end is expired whatever the row says. */
export function shownStatus(row: Pick<AccountRow, 'status' | 'refresh_expires_at'>, now: number) {
  if (
    (row.status === 'normal' || row.status === 'expiring') &&
    Number(row.refresh_expires_at) <= now
  ) {
    return 'expired';
  }
  return row.status;
}

const profileColumns = (p: SocialProfile) => ({
  nickname: p.nickname,
  avatar: p.avatar,
  fans: p.fans,
});

export type RefreshOutcome =
  | { kind: 'done'; status: string }
  | { kind: 'busy' }
  | { kind: 'unusable'; status: string }
  | { kind: 'failed'; reasonId: string; status: string };

/** Takes the account's refresh lease; false when another refresher holds it or it is gone. */
async function claim(ctx: AppContext, id: number, now: number): Promise<boolean> {
  const result = await ctx.db
    .updateTable('matrix_accounts')
    .set({ refresh_lease_until: now + LEASE_MS })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<', now)]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function release(ctx: AppContext, id: number): Promise<void> {
  await ctx.db
    .updateTable('matrix_accounts')
    .set({ refresh_lease_until: null })
    .where('id', '=', id)
    .execute();
}

/** Writes a status that needs the owner (expiring, expired, revoked) and tells the owner once. */
async function markAttention(
  db: Executor,
  row: AccountRow,
  status: 'expiring' | 'expired' | 'revoked',
  since: number,
  now: number,
  lastError: string | null,
): Promise<void> {
  await db
    .updateTable('matrix_accounts')
    .set({ status, last_error: lastError, updated_at: now })
    .where('id', '=', row.id)
    .execute();
  await notifyAccountAttention(
    db,
    { id: Number(row.id), owner_id: Number(row.owner_id), nickname: row.nickname },
    status,
    since,
    now,
  );
}

/**
 * Refreshes what is due on one account (`force`: the access token whatever its expiry: "refresh
 * now"), holding its lease so two refreshers never use one refresh token at once.
 */
export async function refreshAccount(
  ctx: AppContext,
  id: number,
  options: { force?: boolean } = {},
): Promise<RefreshOutcome> {
  const started = ctx.now();
  if (!(await claim(ctx, id, started))) return { kind: 'busy' };
  try {
    const row = await ctx.db
      .selectFrom('matrix_accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return await refreshClaimed(ctx, row, options.force ?? false);
  } finally {
    await release(ctx, id);
  }
}

async function refreshClaimed(
  ctx: AppContext,
  row: AccountRow,
  force: boolean,
): Promise<RefreshOutcome> {
  const now = ctx.now();
  const id = Number(row.id);
  const refreshEnds = Number(row.refresh_expires_at);
  if (row.status === 'expired' || row.status === 'revoked') {
    return { kind: 'unusable', status: row.status };
  }
  // An assisted account has no tokens to refresh.
  if (Number(row.assisted) === 1) return { kind: 'done', status: row.status };
  if (refreshEnds <= now) {
    await ctx.db
      .transaction()
      .execute((trx) => markAttention(trx, row, 'expired', refreshEnds, now, null));
    return { kind: 'unusable', status: 'expired' };
  }
  const adapter = await adapterOf(ctx, row);
  if (!adapter)
    return { kind: 'failed', reasonId: 'matrix.platformNotConfigured', status: row.status };

  let refreshToken = openRefreshToken(ctx, row);
  let renewalsLeft = Number(row.renewals_left);
  let refreshExpiresAt = refreshEnds;
  const changes: Record<string, unknown> = {};
  let mustRefresh = force || Number(row.expires_at) - now <= REFRESH_ACCESS_WITHIN_MS;
  try {
    if (force && Number(row.expires_at) > now) {
      // "Refresh now" first asks the profile with the token it has: fresh numbers, and a withdrawn
      // authorisation shows as such (a refresh token call cannot tell it from an expired one).
      const profile = await adapter
        .profile({ openId: row.open_id, accessToken: openAccessToken(ctx, row) })
        .catch((error: unknown) => {
          if (error instanceof SocialPlatformError && error.social === 'access_expired')
            return null;
          throw error;
        });
      if (profile) Object.assign(changes, profileColumns(profile));
      else mustRefresh = true;
    }
    if (refreshEnds - now <= RENEW_REFRESH_WITHIN_MS && renewalsLeft > 0) {
      const renewed = await adapter.renewRefresh(refreshToken);
      refreshToken = renewed.refreshToken;
      refreshExpiresAt = renewed.refreshExpiresAt;
      renewalsLeft -= 1;
      Object.assign(changes, sealTokens(ctx, id, { refreshToken }), {
        refresh_expires_at: refreshExpiresAt,
        renewals_left: renewalsLeft,
      });
    }
    if (mustRefresh) {
      const tokens = await adapter.refreshAccess(refreshToken);
      Object.assign(changes, sealTokens(ctx, id, tokens), { expires_at: tokens.accessExpiresAt });
      // Douyin answers the refresh token it keeps (the same, or a new one with its own end).
      if (tokens.refreshToken !== refreshToken) refreshExpiresAt = tokens.refreshExpiresAt;
      changes.refresh_expires_at = refreshExpiresAt;
      const profile = await adapter
        .profile({ openId: row.open_id, accessToken: tokens.accessToken })
        .catch(() => null);
      if (profile) Object.assign(changes, profileColumns(profile));
    }
  } catch (error) {
    if (!(error instanceof SocialPlatformError)) throw error;
    const failedAt = ctx.now();
    // What was renewed before the failure is kept: the old refresh token no longer works.
    await ctx.db.transaction().execute(async (trx) => {
      if (Object.keys(changes).length > 0) {
        await trx.updateTable('matrix_accounts').set(changes).where('id', '=', id).execute();
      }
      if (error.social === 'auth_expired' || error.social === 'revoked') {
        const status = error.social === 'revoked' ? 'revoked' : 'expired';
        await markAttention(trx, row, status, failedAt, failedAt, error.reasonId);
      } else {
        await trx
          .updateTable('matrix_accounts')
          .set({ last_error: error.reasonId, updated_at: failedAt })
          .where('id', '=', id)
          .execute();
      }
    });
    const status =
      error.social === 'revoked'
        ? 'revoked'
        : error.social === 'auth_expired'
          ? 'expired'
          : row.status;
    return { kind: 'failed', reasonId: error.reasonId, status };
  }

  const done = ctx.now();
  const expiring = renewalsLeft === 0 && refreshExpiresAt - done <= RENEW_REFRESH_WITHIN_MS;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('matrix_accounts')
      .set({
        ...changes,
        status: 'normal',
        last_refresh_at: done,
        last_error: null,
        updated_at: done,
      })
      .where('id', '=', id)
      .execute();
    if (expiring) await markAttention(trx, row, 'expiring', refreshExpiresAt, done, null);
  });
  return { kind: 'done', status: expiring ? 'expiring' : 'normal' };
}

/** The keep-alive's pass: every account with something due, one at a time (docs/domain.md §19). */
export async function keepAccountsAlive(ctx: AppContext, batch = 200): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db
    .selectFrom('matrix_accounts')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('assisted', '=', 0)
    .where('status', 'in', ['normal', 'expiring'])
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', now + REFRESH_ACCESS_WITHIN_MS),
        eb('refresh_expires_at', '<=', now + RENEW_REFRESH_WITHIN_MS),
      ]),
    )
    .orderBy('expires_at')
    .limit(batch)
    .execute();
  let done = 0;
  for (const { id } of due) {
    const outcome = await refreshAccount(ctx, Number(id));
    if (outcome.kind === 'done') done += 1;
  }
  return done;
}
