import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthUrlBody, AuthUrlReply } from '../../../src/api/contract/matrix';
import { roleOf } from '../../../src/api/contract/roles';
import { USER_STATUS, type Executor } from '../../platform/db/schema';
import type { AppContext, AuthContext } from '../../context';
import { isUniqueViolation } from '../../platform/db/errors';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { AppError, refuse } from '../../platform/http/errors';
import type { ServerMessageId } from '../../platform/i18n';
import { keptSecret } from '../../platform/lib/secrets';
import { settingLookup } from '../../integrations/settings';
import { SocialPlatformError } from '../../integrations/social/types';
import { BATCH_PAGE, findLink, linkState, refuseUnusable, throttlePublic } from './batch-links';
import { adapterOf, adapterToBind } from './platforms';
import { findBound, findGroup } from './repo';
import { freshTokenColumns } from './tokens';

/**
 * Binding an account through the platform's OAuth (docs/domain.md §19): `auth_url` records who
 * asks (a state row: single use, 10 minutes) and answers the platform's authorisation address with
 * `state = <nonce>.<HMAC of the nonce>`; the platform sends the person back to `oauth_callback`
 * with a code, which is exchanged for the account's tokens (sealed) and its profile. One platform
 * account belongs to one owner: binding it elsewhere is refused; the same owner binding it again
 * authorises it anew.
 */

export const STATE_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = '/api/v1/matrix/oauth_callback';
/** Where the callback sends the person (the console's accounts page). */
export const ACCOUNTS_PAGE = '/matrix-distribution/authorization';

function stateKey(ctx: AppContext): string {
  return keptSecret(ctx.config.dataDir, 'matrix-oauth.secret', process.env.MATRIX_OAUTH_SECRET);
}

const mac = (key: string, nonce: string) =>
  createHmac('sha256', key).update(`matrix-oauth:${nonce}`).digest('base64url');

/** The nonce of a state whose signature holds, else undefined. */
function nonceOf(ctx: AppContext, state: string | undefined): string | undefined {
  const [nonce, signature, ...rest] = (state ?? '').split('.');
  if (!nonce || !signature || rest.length > 0 || !/^[A-Za-z0-9_-]{16,64}$/.test(nonce))
    return undefined;
  const expected = Buffer.from(mac(stateKey(ctx), nonce));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : undefined;
}

/**
 * Where the platform sends the person back: our callback at PUBLIC_URL; for the real Douyin the
 * address an admin stored (init config `douyin.redirect_uri`, read at each use: the one Douyin's
 * console registers, which must lead to this callback, e.g. through a proxy) when there is one.
 */
async function redirectUri(ctx: AppContext, sandbox: boolean): Promise<string> {
  const own = `${ctx.config.publicUrl}${CALLBACK_PATH}`;
  if (sandbox) return own;
  return (await settingLookup(ctx.config, ctx.secrets)('social', 'douyin_redirect_uri')) ?? own;
}

/** POST /matrix/auth_url */
export async function startAuthorization(
  ctx: AppContext,
  auth: AuthContext,
  body: { platform: AuthUrlBody['platform']; group_id?: number },
): Promise<AuthUrlReply> {
  // Checked before anything is recorded: a platform that cannot bind, another's group.
  await adapterToBind(ctx, body.platform);
  if (body.group_id !== undefined && !(await findGroup(ctx.db, auth.user.id, body.group_id))) {
    throw refuse('matrix.groupNotFound');
  }
  return authorizeFor(ctx, {
    userId: auth.user.id,
    platform: body.platform,
    groupId: body.group_id ?? null,
    batchLinkId: null,
  });
}

/** Records the state of a new authorisation and answers the platform's address for it. */
async function authorizeFor(
  ctx: AppContext,
  who: {
    userId: number;
    platform: AuthUrlBody['platform'];
    groupId: number | null;
    batchLinkId: number | null;
  },
): Promise<AuthUrlReply> {
  const { adapter, sandbox } = await adapterToBind(ctx, who.platform);
  const nonce = randomBytes(18).toString('base64url');
  const now = ctx.now();
  await ctx.db
    .insertInto('matrix_oauth_states')
    .values({
      nonce,
      user_id: who.userId,
      platform: who.platform,
      sandbox: sandbox ? 1 : 0,
      group_id: who.groupId,
      batch_link_id: who.batchLinkId,
      expires_at: now + STATE_TTL_MS,
      created_at: now,
    })
    .execute();
  return {
    url: adapter.authorizeUrl({
      state: `${nonce}.${mac(stateKey(ctx), nonce)}`,
      redirectUri: await redirectUri(ctx, sandbox),
    }),
  };
}

/**
 * Where the callback sends the person: the accounts page, or for a batch link its public page
 * (`/batchAuthorization?token=…`), with what happened (`bound=<id>` or `error=<message id>`).
 */
export async function landingOf(ctx: AppContext, state: string | undefined): Promise<string> {
  const nonce = nonceOf(ctx, state);
  const row = nonce
    ? await ctx.db
        .selectFrom('matrix_oauth_states as s')
        .leftJoin('matrix_batch_links as l', 'l.id', 's.batch_link_id')
        .select(['l.id', 'l.token'])
        .where('s.nonce', '=', nonce)
        .executeTakeFirst()
    : undefined;
  if (!row?.id || !row.token) return `${ACCOUNTS_PAGE}?`;
  const token = ctx.sealer.open(row.token, {
    table: 'matrix_batch_links',
    field: 'token',
    row: Number(row.id),
  });
  return `${BATCH_PAGE}?token=${encodeURIComponent(token)}&`;
}

export function pageAfter(
  landing: string,
  outcome: { bound: number } | { error: ServerMessageId | string },
): string {
  const query =
    'bound' in outcome ? `bound=${outcome.bound}` : `error=${encodeURIComponent(outcome.error)}`;
  return `${landing}${query}`;
}

/** POST /matrix/batch_auth_url (public): an authorisation for the link's owner. */
export async function startBatchAuthorization(
  ctx: AppContext,
  token: string,
  ip: string,
): Promise<AuthUrlReply> {
  await throttlePublic(ctx, ip);
  const link = await findLink(ctx, token);
  if (!link) throw refuse('matrix.batchLinkInvalid');
  const state = linkState(link, ctx.now());
  if (state !== 'valid') throw refuseUnusable(state);
  return authorizeFor(ctx, {
    userId: Number(link.owner_id),
    platform: link.platform as AuthUrlBody['platform'],
    groupId: link.group_id === null ? null : Number(link.group_id),
    batchLinkId: Number(link.id),
  });
}

/**
 * GET /matrix/oauth_callback: consumes the state (once, unexpired), exchanges the code and binds
 * the account; answers the id of the bound account. Refusals throw an AppError (shown on the page).
 */
export async function finishAuthorization(
  ctx: AppContext,
  query: { code?: string; state?: string; error?: string },
  audit: AuditTrail,
): Promise<number> {
  const nonce = nonceOf(ctx, query.state);
  if (!nonce) throw refuse('matrix.authStateInvalid');
  const now = ctx.now();
  const taken = await ctx.db
    .updateTable('matrix_oauth_states')
    .set({ used_at: now })
    .where('nonce', '=', nonce)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'platform', 'sandbox', 'group_id', 'batch_link_id'])
    .executeTakeFirst();
  if (!taken) throw refuse('matrix.authStateInvalid');
  const owner = await ctx.db
    .selectFrom('users')
    .select(['id', 'user_type', 'status', 'deleted_at'])
    .where('id', '=', taken.user_id)
    .executeTakeFirst();
  const role = owner ? roleOf(owner.user_type) : null;
  // Who asked must still be a partner or merchant in good standing.
  if (
    !owner ||
    owner.status !== USER_STATUS.normal ||
    owner.deleted_at !== null ||
    (role !== 'partner' && role !== 'merchant')
  ) {
    throw refuse('matrix.authStateInvalid');
  }
  audit.actAs({ id: Number(owner.id), role });
  if (query.error || !query.code) throw refuse('matrix.authDeclined');

  const adapter = await adapterOf(ctx, { sandbox: Number(taken.sandbox) });
  if (!adapter) throw refuse('matrix.platformNotConfigured');
  const sandbox = Number(taken.sandbox) === 1;
  let tokens, profile;
  try {
    tokens = await adapter.exchangeCode({
      code: query.code,
      redirectUri: await redirectUri(ctx, sandbox),
    });
    profile = await adapter.profile({ openId: tokens.openId, accessToken: tokens.accessToken });
  } catch (error) {
    if (error instanceof SocialPlatformError) throw new AppError(error.reasonId as ServerMessageId);
    throw error;
  }
  const ownerId = Number(owner.id);
  const done = ctx.now();
  try {
    return await runInTransaction(
      ctx.db,
      async (trx) => {
        const bound = await findBound(trx, taken.platform, sandbox, tokens.openId);
        if (bound && Number(bound.owner_id) !== ownerId)
          throw refuse('matrix.accountBoundElsewhere');
        const shown = { nickname: profile.nickname, avatar: profile.avatar, fans: profile.fans };
        let id: number;
        if (bound) {
          id = Number(bound.id);
          audit.change({ status: bound.status }, { status: 'normal' });
        } else {
          const inserted = await trx
            .insertInto('matrix_accounts')
            .values({
              owner_id: ownerId,
              platform: taken.platform,
              sandbox: sandbox ? 1 : 0,
              open_id: tokens.openId,
              ...shown,
              group_id: taken.group_id === null ? null : Number(taken.group_id),
              status: 'normal',
              // Sealed right below, once the row has its id (the seal is bound to it).
              access_token: '-',
              refresh_token: '-',
              expires_at: tokens.accessExpiresAt,
              refresh_expires_at: tokens.refreshExpiresAt,
              renewals_left: 0,
              created_at: done,
              updated_at: done,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          id = Number(inserted.id);
          audit.change(null, {
            platform: taken.platform,
            open_id: tokens.openId,
            nickname: profile.nickname,
          });
        }
        await trx
          .updateTable('matrix_accounts')
          .set({ ...shown, ...freshTokenColumns(ctx, id, tokens, done) })
          .where('id', '=', id)
          .execute();
        audit.target(id);
        if (taken.batch_link_id !== null)
          await countLinkUse(trx, Number(taken.batch_link_id), done);
        return id;
      },
      { audit },
    );
  } catch (error) {
    // Two owners binding one account at the same moment: the unique index lets one in.
    if (isUniqueViolation(error)) throw refuse('matrix.accountBoundElsewhere');
    throw error;
  }
}

/** A batch link's use, counted with the binding (refused when the link can no longer be used). */
async function countLinkUse(trx: Executor, linkId: number, now: number): Promise<void> {
  const counted = await trx
    .updateTable('matrix_batch_links')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', linkId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) === 1) return;
  const link = await trx
    .selectFrom('matrix_batch_links')
    .selectAll()
    .where('id', '=', linkId)
    .executeTakeFirstOrThrow();
  const state = linkState(link, now);
  throw refuseUnusable(state === 'valid' ? 'used_up' : state);
}
