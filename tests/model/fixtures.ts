import type { LoginReply, UserInfo } from '../../src/api/contract/auth';

/** A complete current-user record (docs/domain.md §21) with the given overrides. */
export function userFixture(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    accountId: 1,
    username: 'admin',
    name: 'Admin',
    nickname: 'Admin',
    mobile: '13800000000',
    avatar: '',
    job: '',
    organization: '',
    location: '',
    email: '',
    introduction: '',
    personalWebsite: '',
    jobName: '',
    organizationName: '',
    locationName: '',
    phone: '',
    registrationDate: '2026-01-01',
    certification: 0,
    user_type: 0,
    service_prefix_no: '',
    service_type: 0,
    money: '0',
    show_clip_menu: 1,
    can_transfer_digital_man: 1,
    can_transfer_digital_voice: 1,
    can_transfer_money: 1,
    service_id: 0,
    digital_man_money_exchange_num: '0',
    digital_voice_money_exchange_num: '0',
    open_oem: 0,
    mini_appid: '',
    overstep_by: null,
    ...overrides,
  };
}

export function loginReply(token: string, user: UserInfo): LoginReply {
  return {
    userinfo: {
      token,
      accountId: user.accountId,
      user_type: user.user_type,
      username: user.username,
    },
  };
}

/** What http.ts rejects with, as far as the machines look at it. */
export function replyError(msg: string, kind: 'reply' | 'unauthorized' | 'transport' = 'reply') {
  return Object.assign(new Error(msg), { kind, msg, code: kind === 'reply' ? 0 : null });
}
