import type {
  AccountListParams,
  AccountPage,
  AccountStatus,
  MatrixAccount,
  SocialPlatformId,
} from '../../../src/api/contract/matrix';
import type { Locale } from '../../../src/api/contract/messages';
import { randomUUID } from 'node:crypto';
import type { AppContext, AuthContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { isMessageId, t, type ServerMessageId } from '../../platform/i18n';
import { findAccount, findGroup, listAccounts, type AccountRow } from './repo';
import { refreshAccount, shownStatus } from './tokens';

/** A row as its owner sees it: never a token (docs/domain.md §19). */
export function toAccount(row: AccountRow, now: number, locale: Locale): MatrixAccount {
  return {
    id: Number(row.id),
    platform: row.platform as SocialPlatformId,
    open_id: row.open_id,
    nickname: row.nickname,
    avatar: row.avatar,
    fans: Number(row.fans),
    group_id: row.group_id === null ? null : Number(row.group_id),
    status: shownStatus(row, now) as AccountStatus,
    sandbox: Number(row.sandbox) === 1,
    assisted: Number(row.assisted) === 1,
    expires_at: Number(row.expires_at),
    refresh_expires_at: Number(row.refresh_expires_at),
    renewals_left: Number(row.renewals_left),
    last_refresh_at: row.last_refresh_at === null ? null : Number(row.last_refresh_at),
    last_error: row.last_error && isMessageId(row.last_error) ? t(locale, row.last_error) : null,
    created_at: Number(row.created_at),
  };
}

/** GET /matrix/account_list */
export async function accountList(
  ctx: AppContext,
  auth: AuthContext,
  query: AccountListParams,
  locale: Locale,
): Promise<AccountPage> {
  const { page, limit, ...filter } = query;
  const now = ctx.now();
  const { rows, total } = await listAccounts(ctx.db, auth.user.id, filter, { page, limit }, now);
  return { list: rows.map((row) => toAccount(row, now, locale)), total };
}

/** POST /matrix/account_refresh: refreshes the access token now (and what else is due). */
export async function refreshNow(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  locale: Locale,
  audit: AuditTrail,
): Promise<MatrixAccount> {
  const before = await findAccount(ctx.db, auth.user.id, id);
  if (!before) throw refuse('matrix.accountNotFound');
  const outcome = await refreshAccount(ctx, id, { force: true });
  if (outcome.kind === 'busy') throw refuse('matrix.refreshBusy');
  if (outcome.kind === 'unusable') throw refuse('matrix.accountNeedsReauth');
  if (outcome.kind === 'failed') throw refuse(outcome.reasonId as ServerMessageId);
  // The refresh wrote the account in its own transactions (platform calls sit between them); the
  // audit row records the call and what it changed.
  const after = (await findAccount(ctx.db, auth.user.id, id)) ?? before;
  audit.change(
    { status: shownStatus(before, ctx.now()), expires_at: Number(before.expires_at) },
    { status: shownStatus(after, ctx.now()), expires_at: Number(after.expires_at) },
  );
  await runInTransaction(ctx.db, async () => id, { audit });
  return toAccount(after, ctx.now(), locale);
}

/** POST /matrix/account_delete: the caller's own live accounts among `ids`; answers how many. */
export async function deleteAccounts(
  ctx: AppContext,
  auth: AuthContext,
  ids: readonly number[],
  audit: AuditTrail,
): Promise<{ deleted: number }> {
  const now = ctx.now();
  return runInTransaction(
    ctx.db,
    async (trx) => {
      const rows = await trx
        .updateTable('matrix_accounts')
        .set({ deleted_at: now, updated_at: now })
        .where('owner_id', '=', auth.user.id)
        .where('id', 'in', [...ids])
        .where('deleted_at', 'is', null)
        .returning(['id', 'nickname'])
        .execute();
      audit.target(...rows.map((r) => Number(r.id)));
      if (rows.length === 0) audit.unchanged();
      else audit.change({ nicknames: rows.map((r) => r.nickname).join(', ') }, null);
      return { deleted: rows.length };
    },
    { audit },
  );
}

/** POST /matrix/account_move: the caller's accounts among `ids` into a group (0: ungrouped). */
export async function moveAccounts(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids: readonly number[]; group_id: number },
  audit: AuditTrail,
): Promise<{ moved: number }> {
  const groupId = body.group_id === 0 ? null : body.group_id;
  if (groupId !== null && !(await findGroup(ctx.db, auth.user.id, groupId))) {
    throw refuse('matrix.groupNotFound');
  }
  audit.change(null, { group_id: body.group_id });
  return runInTransaction(
    ctx.db,
    async (trx) => {
      const rows = await trx
        .updateTable('matrix_accounts')
        .set({ group_id: groupId, updated_at: ctx.now() })
        .where('owner_id', '=', auth.user.id)
        .where('id', 'in', [...body.ids])
        .where('deleted_at', 'is', null)
        .returning('id')
        .execute();
      audit.target(...rows.map((r) => Number(r.id)));
      if (rows.length === 0) audit.unchanged();
      return { moved: rows.length };
    },
    { audit },
  );
}

/** An assisted account never expires: it has no tokens (docs/domain.md §19). */
const NEVER = 8_640_000_000_000_000;

/** POST /matrix/account_add_assisted: an account of a platform without a publishing API. */
export async function addAssistedAccount(
  ctx: AppContext,
  auth: AuthContext,
  body: { platform: SocialPlatformId; nickname: string; group_id?: number },
  locale: Locale,
  audit: AuditTrail,
): Promise<MatrixAccount> {
  if (body.group_id !== undefined && !(await findGroup(ctx.db, auth.user.id, body.group_id))) {
    throw refuse('matrix.groupNotFound');
  }
  const now = ctx.now();
  audit.change(null, { platform: body.platform, nickname: body.nickname });
  const id = await runInTransaction(
    ctx.db,
    async (trx) => {
      const row = await trx
        .insertInto('matrix_accounts')
        .values({
          owner_id: auth.user.id,
          platform: body.platform,
          sandbox: 0,
          assisted: 1,
          open_id: `assisted-${randomUUID()}`,
          nickname: body.nickname,
          avatar: '',
          fans: 0,
          group_id: body.group_id ?? null,
          status: 'normal',
          // No tokens: an assisted account publishes nothing through an API.
          access_token: '-',
          refresh_token: '-',
          expires_at: NEVER,
          refresh_expires_at: NEVER,
          renewals_left: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
    { audit },
  );
  return toAccount((await findAccount(ctx.db, auth.user.id, id))!, now, locale);
}
