import {
  USER_CONFIG_DEFAULTS,
  USER_CONFIG_KEYS,
  type EditUserConfigBody,
  type UserConfig,
  type UserConfigKey,
} from '../../../src/api/contract/user-config';
import type { AppContext, AuthContext } from '../../context';
import type { Executor, UserRow } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';

/**
 * The caller's own settings (docs/domain.md §12 "The caller's own settings"): rows of
 * `user_config` over the defaults; the OEM mini-program appid is the user's `mini_appid`, set only
 * by a partner with `open_oem = 1`.
 */

/** A user's settings: its rows over the defaults. */
export async function userSettings(
  db: Executor,
  userId: number,
): Promise<Record<UserConfigKey, string>> {
  const rows = await db
    .selectFrom('user_config')
    .select(['name', 'value'])
    .where('user_id', '=', userId)
    .execute();
  const out: Record<string, string> = { ...USER_CONFIG_DEFAULTS };
  for (const row of rows) if (row.name in out) out[row.name] = row.value;
  return out as Record<UserConfigKey, string>;
}

const canSetMiniAppid = (user: UserRow) =>
  Number(user.user_type) === 1 && Number(user.open_oem) === 1;

function viewOf(user: UserRow, settings: Record<UserConfigKey, string>): UserConfig {
  return {
    ...(settings as Omit<UserConfig, 'mini_appid' | 'can_set_mini_appid'>),
    mini_appid: user.mini_appid ?? '',
    can_set_mini_appid: canSetMiniAppid(user),
  };
}

/** GET /user_config/info. */
export async function getUserConfig(ctx: AppContext, auth: AuthContext): Promise<UserConfig> {
  return viewOf(auth.user, await userSettings(ctx.db, auth.user.id));
}

/** POST /user_config/edit: the given settings; unchanged ones are not written; audited. */
export async function editUserConfig(
  ctx: AppContext,
  auth: AuthContext,
  body: EditUserConfigBody,
  audit: AuditTrail,
): Promise<UserConfig> {
  const user = auth.user;
  if (body.mini_appid !== undefined && !canSetMiniAppid(user)) {
    throw refuse('userConfig.oemOnly');
  }
  return runInTransaction(
    ctx.db,
    async (trx) => {
      const current = await userSettings(trx, user.id);
      const before: Record<string, string> = {};
      const after: Record<string, string> = {};
      const now = ctx.now();
      for (const key of USER_CONFIG_KEYS) {
        const value = body[key];
        if (value === undefined || value === current[key]) continue;
        before[key] = current[key];
        after[key] = value;
        current[key] = value;
        await trx
          .insertInto('user_config')
          .values({ user_id: user.id, name: key, value, updated_at: now })
          .onConflict((oc) =>
            oc.columns(['user_id', 'name']).doUpdateSet({ value, updated_at: now }),
          )
          .execute();
      }
      let miniAppid = user.mini_appid ?? '';
      if (body.mini_appid !== undefined && body.mini_appid !== miniAppid) {
        before.mini_appid = miniAppid;
        after.mini_appid = body.mini_appid;
        miniAppid = body.mini_appid;
        await trx
          .updateTable('users')
          .set({ mini_appid: miniAppid, updated_at: now })
          .where('id', '=', user.id)
          .execute();
      }
      audit.target(user.id);
      if (Object.keys(after).length === 0) audit.unchanged();
      else audit.change(before, after);
      return viewOf({ ...user, mini_appid: miniAppid }, current);
    },
    { audit },
  );
}

/** Which setting lets a notification of this kind through (docs/domain.md §18). */
export function notificationSetting(kind: string): UserConfigKey {
  if (kind.startsWith('matrix_')) return 'notify_matrix';
  if (kind.startsWith('dh_image_clone.') || kind.startsWith('dh_voice_clone.')) {
    return 'notify_clone_done';
  }
  return 'notify_task_done';
}

/** Whether the user wants notifications of this kind (no row: yes). */
export async function wantsNotification(
  db: Executor,
  userId: number,
  kind: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('user_config')
    .select('value')
    .where('user_id', '=', userId)
    .where('name', '=', notificationSetting(kind))
    .executeTakeFirst();
  return row?.value !== '0';
}
