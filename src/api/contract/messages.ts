/**
 * Validation messages shared by the console (form errors) and the server (`msg` of a refused call).
 * Schemas carry these ids as their error messages; each side renders them in the user's locale.
 */
export const validationMessages = {
  'en-US': {
    'validation.usernameRequired': 'Username cannot be empty',
    'validation.passwordRequired': 'Password cannot be empty',
    'validation.passwordRule':
      'Password: at least six characters, with letters, digits and special characters, no spaces',
    'validation.passwordMismatch': 'The two passwords do not match',
    'validation.username': 'Account: 3 to 32 letters, digits, _ . @ or -',
    'validation.mobile': 'Enter an 11-digit mobile number starting with 1',
    'validation.smsCode': 'Enter the 6-digit code',
    'validation.email': 'Enter a valid email address',
    'validation.tooLong': 'Too long',
    'validation.required': 'Required',
    'validation.invalid': 'Invalid value',
    'validation.unknownField': 'Unknown field',
    'validation.malformed': 'The request is not valid JSON',
    'validation.merchantId': 'Choose a merchant',
  },
  'zh-CN': {
    'validation.usernameRequired': '用户名不能为空',
    'validation.passwordRequired': '密码不能为空',
    'validation.passwordRule': '密码至少六位，须包含字母、数字和特殊字符，不能有空格',
    'validation.passwordMismatch': '两次输入的密码不一致',
    'validation.username': '账号为 3–32 位字母、数字或 _ . @ -',
    'validation.mobile': '请输入以 1 开头的 11 位手机号',
    'validation.smsCode': '请输入 6 位验证码',
    'validation.email': '请输入有效的邮箱地址',
    'validation.tooLong': '内容过长',
    'validation.required': '必填',
    'validation.invalid': '取值无效',
    'validation.unknownField': '未知字段',
    'validation.malformed': '请求不是有效的 JSON',
    'validation.merchantId': '请选择商户',
  },
} as const;

export type ValidationMessageId = keyof (typeof validationMessages)['en-US'];
export type Locale = keyof typeof validationMessages;
export const LOCALES: readonly Locale[] = ['zh-CN', 'en-US'];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const FALLBACK_LOCALE: Locale = 'en-US';

export function isValidationMessageId(id: string): id is ValidationMessageId {
  return Object.prototype.hasOwnProperty.call(validationMessages['en-US'], id);
}
