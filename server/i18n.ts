import {
  DEFAULT_LOCALE,
  LOCALES,
  validationMessages,
  type Locale,
  type ValidationMessageId,
} from '../src/api/contract/messages';

/** Server messages (the `msg` of replies). en-US defines the ids; zh-CN must have every one. */
const enUS = {
  'common.ok': 'Success',
  'common.notFound': 'Not found',
  'api.notFound': 'No such API call',
  'request.tooLarge': 'The request is too large',
  'request.unsupportedType': 'Send the request body as JSON',
  'request.bad': 'Bad request',
  'server.internal': 'Internal server error',
  'auth.wrongCredentials': 'Wrong account or password',
  'auth.throttled': 'Too many failed attempts. Try again in {minutes} minutes',
  'auth.disabled': 'This account is disabled',
  'auth.loginExpired': 'Login expired, please log in again',
  'auth.sessionEnded': 'You have been logged out, please log in again',
  'auth.sessionEnded.password_change': 'Your password was changed, please log in again',
  'auth.sessionEnded.password_reset': 'Your password was reset, please log in again',
  'auth.sessionEnded.disabled': 'This account has been disabled',
  'auth.sessionEnded.admin': 'An administrator ended your session, please log in again',
  'auth.noPermission': 'You do not have permission for this action',
  'auth.loggedOut': 'Logged out',
  'auth.oldPasswordWrong': 'The current password is wrong',
  'auth.samePassword': 'The new password must differ from the current one',
  'auth.passwordChanged': 'Password changed, please log in again',
  'auth.passwordReset': 'Password reset, please log in',
  'merchant.notFound': 'Merchant not found',
  'sms.sent': 'The code has been sent',
  'sms.tooOften': 'A code was sent recently. Try again in {seconds} seconds',
  'sms.badCode': 'The code is wrong or has expired',
  'register.closed': 'Sign-up is closed',
  'register.noPartner': 'Sign-up is not available on this domain',
  'register.merchantLimit': 'The merchant limit has been reached ({limit})',
  'register.usernameTaken': 'This account name is already taken',
  'register.mobileTaken': 'This mobile number is already registered',
  'register.done': 'Account created',
  'profile.saved': 'Profile saved',
} as const;

export type ServerMessageId = keyof typeof enUS;
export type MessageId = ServerMessageId | ValidationMessageId;

const zhCN: Record<ServerMessageId, string> = {
  'common.ok': '操作成功',
  'common.notFound': '数据不存在',
  'api.notFound': '接口不存在',
  'request.tooLarge': '请求内容过大',
  'request.unsupportedType': '请求内容须为 JSON 格式',
  'request.bad': '请求无效',
  'server.internal': '服务器内部错误',
  'auth.wrongCredentials': '账号或密码错误',
  'auth.throttled': '失败次数过多，请 {minutes} 分钟后再试',
  'auth.disabled': '该账号已被禁用',
  'auth.loginExpired': '登录已过期，请重新登录',
  'auth.sessionEnded': '您已被登出，请重新登录',
  'auth.sessionEnded.password_change': '密码已修改，请重新登录',
  'auth.sessionEnded.password_reset': '密码已重置，请重新登录',
  'auth.sessionEnded.disabled': '该账号已被禁用',
  'auth.sessionEnded.admin': '管理员已结束您的会话，请重新登录',
  'auth.noPermission': '无权进行此操作',
  'auth.loggedOut': '已退出登录',
  'auth.oldPasswordWrong': '原密码错误',
  'auth.samePassword': '新密码不能与原密码相同',
  'auth.passwordChanged': '密码已修改，请重新登录',
  'auth.passwordReset': '密码已重置，请登录',
  'merchant.notFound': '商户不存在',
  'sms.sent': '验证码已发送',
  'sms.tooOften': '验证码发送过于频繁，请 {seconds} 秒后再试',
  'sms.badCode': '验证码错误或已过期',
  'register.closed': '暂未开放注册',
  'register.noPartner': '当前域名暂不支持注册',
  'register.merchantLimit': '商户数量已达上限（{limit}）',
  'register.usernameTaken': '该账号已被占用',
  'register.mobileTaken': '该手机号已注册',
  'register.done': '注册成功',
  'profile.saved': '资料已保存',
};

const catalogues: Record<Locale, Record<MessageId, string>> = {
  'en-US': { ...validationMessages['en-US'], ...enUS },
  'zh-CN': { ...validationMessages['zh-CN'], ...zhCN },
};

export type MessageParams = Readonly<Record<string, string | number>>;

export function isMessageId(id: string): id is MessageId {
  return Object.prototype.hasOwnProperty.call(catalogues['en-US'], id);
}

export function t(locale: Locale, id: MessageId, params: MessageParams = {}): string {
  return catalogues[locale][id].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** `lang` header (zh-CN | en-US), else the first supported Accept-Language, else zh-CN. */
export function localeOf(headers: Readonly<Record<string, string | string[] | undefined>>): Locale {
  const lang = headers['lang'];
  if (typeof lang === 'string') {
    const exact = LOCALES.find((l) => l.toLowerCase() === lang.trim().toLowerCase());
    if (exact) return exact;
  }
  const accept = headers['accept-language'];
  if (typeof accept === 'string') {
    for (const part of accept.split(',')) {
      const tag = part.split(';')[0].trim().toLowerCase();
      if (tag.startsWith('zh')) return 'zh-CN';
      if (tag.startsWith('en')) return 'en-US';
    }
  }
  return DEFAULT_LOCALE;
}
