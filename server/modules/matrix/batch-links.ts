import { createHash, randomBytes } from 'node:crypto';
import type {
  BatchLink,
  BatchLinkInfo,
  BatchLinkState,
  SocialPlatformId,
} from '../../../src/api/contract/matrix';
import type { AppContext, AuthContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { reserveAttempt, type ThrottleRule } from '../auth';
import { findGroup } from './repo';

/**
 * Batch authorisation links (docs/domain.md §19): made by a partner or merchant, opened by anyone
 * holding the URL. The token is 24 random bytes; the row keeps its SHA-256 (found by it) and the
 * token sealed (shown again to the link's owner). A link is valid until it expires, is revoked or
 * has bound `max_uses` accounts; the public calls are throttled per address.
 */

const HOUR = 3600_000;
const MINUTE = 60_000;
export const BATCH_PAGE = '/batchAuthorization';
/** The public calls per address (info and authorise together). */
const PUBLIC_RULE: ThrottleRule = { limit: 60, windowMs: 10 * MINUTE, lockMs: 10 * MINUTE };

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const place = (id: number) => ({ table: 'matrix_batch_links', field: 'token', row: id });
export const batchUrl = (ctx: AppContext, token: string) =>
  `${ctx.config.publicUrl}${BATCH_PAGE}?token=${encodeURIComponent(token)}`;

interface LinkRow {
  id: number;
  expires_at: number;
  max_uses: number | null;
  uses: number;
  revoked_at: number | null;
}

export function linkState(row: LinkRow, now: number): BatchLinkState {
  if (row.revoked_at !== null) return 'revoked';
  if (Number(row.expires_at) <= now) return 'expired';
  if (row.max_uses !== null && Number(row.uses) >= Number(row.max_uses)) return 'used_up';
  return 'valid';
}

const STATE_MESSAGES = {
  expired: 'matrix.batchLinkExpired',
  revoked: 'matrix.batchLinkRevoked',
  used_up: 'matrix.batchLinkUsedUp',
} as const;

/** The refusal of a link that cannot be used now. */
export function refuseUnusable(state: Exclude<BatchLinkState, 'valid'>) {
  return refuse(STATE_MESSAGES[state]);
}

/** POST /matrix/batch_link_add */
export async function addBatchLink(
  ctx: AppContext,
  auth: AuthContext,
  body: { platform: SocialPlatformId; group_id?: number; expires_hours: number; max_uses?: number },
  audit: AuditTrail,
): Promise<{ id: number; url: string; expires_at: number }> {
  if (body.platform !== 'douyin') throw refuse('matrix.platformAssisted');
  if (body.group_id !== undefined && !(await findGroup(ctx.db, auth.user.id, body.group_id))) {
    throw refuse('matrix.groupNotFound');
  }
  const token = randomBytes(24).toString('base64url');
  const now = ctx.now();
  const expiresAt = now + body.expires_hours * HOUR;
  audit.change(null, {
    platform: body.platform,
    expires_hours: body.expires_hours,
    max_uses: body.max_uses ?? null,
  });
  const id = await runInTransaction(
    ctx.db,
    async (trx) => {
      const row = await trx
        .insertInto('matrix_batch_links')
        .values({
          owner_id: auth.user.id,
          platform: body.platform,
          group_id: body.group_id ?? null,
          token_hash: hashToken(token),
          token: '-',
          expires_at: expiresAt,
          max_uses: body.max_uses ?? null,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await trx
        .updateTable('matrix_batch_links')
        .set({ token: ctx.sealer.seal(token, place(id)) })
        .where('id', '=', id)
        .execute();
      return id;
    },
    { audit },
  );
  return { id, url: batchUrl(ctx, token), expires_at: expiresAt };
}

/** GET /matrix/batch_link_list: the caller's links, newest first. */
export async function batchLinkList(
  ctx: AppContext,
  auth: AuthContext,
  query: { page: number; limit: number },
): Promise<{ list: BatchLink[]; total: number }> {
  const mine = ctx.db.selectFrom('matrix_batch_links').where('owner_id', '=', auth.user.id);
  const [rows, count] = await Promise.all([
    mine
      .selectAll()
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const now = ctx.now();
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      platform: r.platform as SocialPlatformId,
      group_id: r.group_id === null ? null : Number(r.group_id),
      url: batchUrl(ctx, ctx.sealer.open(r.token, place(Number(r.id)))),
      expires_at: Number(r.expires_at),
      max_uses: r.max_uses === null ? null : Number(r.max_uses),
      uses: Number(r.uses),
      state: linkState(r, now),
      created_at: Number(r.created_at),
    })),
    total: Number(count.n),
  };
}

/** POST /matrix/batch_link_revoke */
export async function revokeBatchLink(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  audit: AuditTrail,
): Promise<null> {
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const row = await trx
        .updateTable('matrix_batch_links')
        .set({ revoked_at: ctx.now() })
        .where('id', '=', id)
        .where('owner_id', '=', auth.user.id)
        .where('revoked_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!row) {
        const exists = await trx
          .selectFrom('matrix_batch_links')
          .select('id')
          .where('id', '=', id)
          .where('owner_id', '=', auth.user.id)
          .executeTakeFirst();
        if (!exists) throw refuse('matrix.batchLinkNotFound');
        audit.unchanged();
      } else audit.change({ state: 'valid' }, { state: 'revoked' });
    },
    { audit },
  );
  return null;
}

/** Counts a public call of `ip`; refuses when the address made too many. */
export async function throttlePublic(ctx: AppContext, ip: string): Promise<void> {
  const now = ctx.now();
  const lockedUntil = await reserveAttempt(ctx.db, `batch-link-ip:${ip}`, PUBLIC_RULE, now);
  if (lockedUntil !== null) {
    throw refuse('matrix.batchThrottled', {
      minutes: Math.max(1, Math.ceil((lockedUntil - now) / MINUTE)),
    });
  }
}

/** The link of a token, whatever its state (undefined: no such token). */
export function findLink(ctx: AppContext, token: string) {
  return ctx.db
    .selectFrom('matrix_batch_links')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
}

/** GET /matrix/batch_link_info (public) */
export async function batchLinkInfo(
  ctx: AppContext,
  token: string,
  ip: string,
): Promise<BatchLinkInfo> {
  await throttlePublic(ctx, ip);
  const link = await findLink(ctx, token);
  if (!link) throw refuse('matrix.batchLinkInvalid');
  const owner = await ctx.db
    .selectFrom('users')
    .select(['nickname', 'name', 'username'])
    .where('id', '=', link.owner_id)
    .executeTakeFirstOrThrow();
  return {
    owner_name: owner.nickname || owner.name || owner.username,
    platform: link.platform as SocialPlatformId,
    state: linkState(link, ctx.now()),
    expires_at: Number(link.expires_at),
    uses_left:
      link.max_uses === null ? null : Math.max(0, Number(link.max_uses) - Number(link.uses)),
  };
}
