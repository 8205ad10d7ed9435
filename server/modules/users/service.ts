import type { EditProfileBody, UserInfo } from '../../../src/api/contract/auth';
import type { Account } from '../../../src/api/contract/dashboard';
import type { AppContext, AuthContext } from '../../context';
import type { UserRow } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { formatCents } from '../../platform/lib/money';
import { settingsFor } from '../system';
import { findUserById, updateUser } from './repo';

/** The current-user fields of docs/domain.md §21 (`userInfoSchema`). */
export function toUserInfo(user: UserRow, overstepBy: UserRow | undefined): UserInfo {
  return {
    accountId: user.id,
    username: user.username,
    name: user.name,
    nickname: user.nickname,
    mobile: user.mobile ?? '',
    avatar: user.avatar,
    job: user.job,
    organization: user.organization,
    location: user.location,
    email: user.email,
    introduction: user.introduction,
    personalWebsite: user.personal_website,
    jobName: user.job,
    organizationName: user.organization,
    locationName: user.location,
    phone: user.mobile ?? '',
    registrationDate: new Date(user.created_at).toISOString(),
    certification: user.certification,
    user_type: user.user_type,
    service_prefix_no: user.service_prefix_no ?? '',
    service_type: user.service_type,
    money: formatCents(user.money),
    show_clip_menu: user.show_clip_menu,
    can_transfer_digital_man: user.can_transfer_digital_man,
    can_transfer_digital_voice: user.can_transfer_digital_voice,
    can_transfer_money: user.can_transfer_money,
    service_id: user.service_id,
    digital_man_money_exchange_num: user.digital_man_money_exchange_num,
    digital_voice_money_exchange_num: user.digital_voice_money_exchange_num,
    open_oem: user.open_oem,
    mini_appid: user.mini_appid,
    overstep_by: overstepBy ? { accountId: overstepBy.id, username: overstepBy.username } : null,
  };
}

export async function getUserInfo(ctx: AppContext, auth: AuthContext): Promise<UserInfo> {
  const stepper =
    auth.session.overstep_by !== null
      ? await findUserById(ctx.db, auth.session.overstep_by)
      : undefined;
  const info = toUserInfo(auth.user, stepper);
  // The exchange prices that apply to the user: its own, else its partner's override, else the
  // platform's (docs/domain.md §12 "Settings and prices"), as the exchange charges them.
  const prices = await settingsFor(ctx.db, auth.user, [...EXCHANGE_PRICE_KEYS]);
  for (const key of EXCHANGE_PRICE_KEYS) {
    if (info[key].trim() === '') info[key] = prices.get(key) ?? '';
  }
  return info;
}

const EXCHANGE_PRICE_KEYS = [
  'digital_man_money_exchange_num',
  'digital_voice_money_exchange_num',
] as const;

export async function editProfile(
  ctx: AppContext,
  auth: AuthContext,
  body: EditProfileBody,
  audit: AuditTrail,
): Promise<UserInfo> {
  const changes = {
    nickname: body.nickname,
    email: body.email,
    introduction: body.introduction,
    personal_website: body.personalWebsite,
    location: body.location,
    job: body.job,
    organization: body.organization,
  };
  // Only the fields sent change (Kysely leaves undefined values out of the update).
  if (Object.values(changes).some((value) => value !== undefined)) {
    audit.change(auth.user, changes);
    await runInTransaction(
      ctx.db,
      (trx) => updateUser(trx, auth.user.id, { ...changes, updated_at: ctx.now() }),
      { audit },
    );
  } else {
    audit.unchanged();
  }
  const user = (await findUserById(ctx.db, auth.user.id)) ?? auth.user;
  return getUserInfo(ctx, { ...auth, user });
}

export function toAccount(user: UserRow): Account {
  return {
    money: formatCents(user.money),
    digital_man_seconds: user.digital_man_seconds,
    voice_clone_count: user.voice_clone_count,
    image_clone_count: user.image_clone_count,
  };
}
