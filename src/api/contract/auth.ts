import { z } from 'zod';
import { displayName, emailText, multilineText, text } from './text';
import type { ValidationMessageId } from './messages';

const msg = (id: ValidationMessageId) => ({ message: id });

/** Password rule of docs/domain.md §15: ≥ 6 chars, letters, digits and special characters, no spaces. */
export const passwordRule = text('validation.passwordRequired')
  .min(1, msg('validation.passwordRequired'))
  .max(64, msg('validation.tooLong'))
  .refine(
    (p) =>
      p.length >= 6 &&
      /[A-Za-z]/.test(p) &&
      /\d/.test(p) &&
      /[^A-Za-z0-9\s]/.test(p) &&
      !/\s/.test(p),
    msg('validation.passwordRule'),
  );

export const usernameRule = text('validation.usernameRequired')
  .min(1, msg('validation.usernameRequired'))
  .regex(/^[A-Za-z0-9_.@-]{3,32}$/, msg('validation.username'));

export const mobileRule = text('validation.mobile').regex(/^1\d{10}$/, msg('validation.mobile'));
export const smsCodeRule = text('validation.smsCode').regex(/^\d{6}$/, msg('validation.smsCode'));

/** POST /platform/login. The account is not pattern-checked so known and unknown accounts answer alike. */
export const loginBody = z.strictObject({
  account: text('validation.usernameRequired')
    .trim()
    .min(1, msg('validation.usernameRequired'))
    .max(64, msg('validation.tooLong')),
  password: text('validation.passwordRequired')
    .min(1, msg('validation.passwordRequired'))
    .max(128, msg('validation.tooLong')),
});
export type LoginBody = z.infer<typeof loginBody>;

export interface LoginReply {
  userinfo: { token: string; accountId: number; user_type: number; username: string };
}

/** POST /platform/overstep_login: log in as a merchant (admin: any; partner: its own). */
export const overstepBody = z.strictObject({
  // A number, or digits (the id may come from the query string, docs/domain.md §13); nothing else is coerced.
  merchant_id: z
    .union(
      [z.number(), text().regex(/^\d{1,10}$/, msg('validation.merchantId'))],
      msg('validation.merchantId'),
    )
    .pipe(
      z.coerce
        .number<string | number>(msg('validation.merchantId'))
        .int(msg('validation.merchantId'))
        .positive(msg('validation.merchantId'))
        .max(2 ** 31, msg('validation.merchantId')),
    ),
});
export type OverstepBody = z.infer<typeof overstepBody>;

/** The current user (docs/domain.md §21). `role` is derived on the console from `user_type`. */
export const userInfoSchema = z.object({
  accountId: z.number(),
  username: z.string(),
  name: z.string(),
  nickname: z.string(),
  mobile: z.string(),
  avatar: z.string(),
  job: z.string(),
  organization: z.string(),
  location: z.string(),
  email: z.string(),
  introduction: z.string(),
  personalWebsite: z.string(),
  jobName: z.string(),
  organizationName: z.string(),
  locationName: z.string(),
  phone: z.string(),
  registrationDate: z.string(),
  certification: z.number(),
  user_type: z.number(),
  service_prefix_no: z.string(),
  service_type: z.number(),
  money: z.string(),
  show_clip_menu: z.number(),
  can_transfer_digital_man: z.number(),
  can_transfer_digital_voice: z.number(),
  can_transfer_money: z.number(),
  service_id: z.number(),
  digital_man_money_exchange_num: z.string(),
  digital_voice_money_exchange_num: z.string(),
  open_oem: z.number(),
  mini_appid: z.string(),
  /** Set when this session is an overstep login: the id and name of whoever stepped in. */
  overstep_by: z.object({ accountId: z.number(), username: z.string() }).nullable(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** POST /platform/change_pwd. All sessions of the user end; the console asks to log in again. */
export const changePwdBody = z
  .strictObject({
    old_password: text('validation.passwordRequired')
      .min(1, msg('validation.passwordRequired'))
      .max(128, msg('validation.tooLong')),
    new_password: passwordRule,
    confirm_password: text('validation.passwordRequired').max(128, msg('validation.tooLong')),
  })
  .refine((b) => b.new_password === b.confirm_password, {
    message: 'validation.passwordMismatch',
    path: ['confirm_password'],
  });
export type ChangePwdBody = z.infer<typeof changePwdBody>;

export const CAPTCHA_PURPOSES = ['reset', 'register'] as const;
/** POST /platform/get_captcha: sends a 6-digit SMS code (answers alike whether the mobile is known). */
export const captchaBody = z.strictObject({
  mobile: mobileRule,
  purpose: z.enum(CAPTCHA_PURPOSES, msg('validation.invalid')),
});
export type CaptchaBody = z.infer<typeof captchaBody>;

/** POST /platform/reset_pwd: forgot password, by SMS code. */
export const resetPwdBody = z
  .strictObject({
    mobile: mobileRule,
    code: smsCodeRule,
    new_password: passwordRule,
    confirm_password: text('validation.passwordRequired').max(128, msg('validation.tooLong')),
  })
  .refine((b) => b.new_password === b.confirm_password, {
    message: 'validation.passwordMismatch',
    path: ['confirm_password'],
  });
export type ResetPwdBody = z.infer<typeof resetPwdBody>;

/** POST /platform/register: a merchant signs up under the partner owning `domain` (when allowed). */
export const registerBody = z.strictObject({
  username: usernameRule,
  password: passwordRule,
  mobile: mobileRule,
  code: smsCodeRule,
  domain: text('validation.invalid')
    .min(1, msg('validation.invalid'))
    .max(253, msg('validation.tooLong')),
});
export type RegisterBody = z.infer<typeof registerBody>;

/** POST /platform/edit_profile: the user's own profile fields (our call; the spec shows none). */
export const editProfileBody = z.strictObject({
  nickname: displayName({ max: 32, tooLong: 'validation.tooLong', allowEmpty: true }).optional(),
  email: z.union([z.literal(''), emailText().max(128, msg('validation.tooLong'))]).optional(),
  introduction: multilineText('validation.invalid').max(200, msg('validation.tooLong')).optional(),
  personalWebsite: text('validation.invalid').max(200, msg('validation.tooLong')).optional(),
  location: text('validation.invalid').max(64, msg('validation.tooLong')).optional(),
  job: text('validation.invalid').max(64, msg('validation.tooLong')).optional(),
  organization: text('validation.invalid').max(64, msg('validation.tooLong')).optional(),
});
export type EditProfileBody = z.infer<typeof editProfileBody>;
