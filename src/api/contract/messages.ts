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
    'validation.amount': 'Enter an amount greater than 0 with at most 2 decimals',
    'validation.quantity': 'Enter a whole number greater than 0',
    'validation.amountTooLarge': 'The amount is too large',
    'validation.asset': 'Choose an asset',
    'validation.user': 'Choose a user',
    'validation.userType': 'Choose a user type',
    'validation.partnerRequired': 'Choose a partner',
    'validation.servicePrefixNo': 'Prefix: 2 to 6 letters or digits',
    'validation.merchantCountLimit': 'Merchant limit: -1 (unlimited) or a whole number from 0',
    'validation.nothingToChange': 'Nothing to change',
    'validation.dateRange': 'The start date must not be after the end date',
    'validation.packageName': 'Package name: 1 to 30 characters',
    'validation.price': 'Price: an amount from 0.01 to 100000000.00 with at most 2 decimals',
    'validation.packageMoney':
      'Credited money: an amount from 0.01 to 100000000.00 with at most 2 decimals',
    'validation.giftMoney': 'Gift: an amount from 0 to 100000000.00 with at most 2 decimals',
    'validation.sort': 'Sort: a whole number from 0 to 999999',
    'validation.packageIds': 'List each package once, in the new order',
    'validation.package': 'Choose a package',
    'validation.payWay': 'Choose a payment method',
    'validation.orderNo': 'Enter a valid order number',
    'validation.cardSelection': 'Choose cards or a batch',
    'validation.tooManyCards': 'Choose at most 1000 cards',
    'validation.cardQuantity': 'Quantity: a whole number from 1 to 1000',
    'validation.cardPrice': 'Price: 0 or more, with at most 2 decimals',
    'validation.cardNo': 'Enter the card number',
    'validation.cardPwd': 'Enter the card password',
    'validation.cardPageSize': 'Rows per page: a whole number from 1 to 1000',
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
    'validation.amount': '请输入大于 0 且最多两位小数的金额',
    'validation.quantity': '请输入大于 0 的整数',
    'validation.amountTooLarge': '数额过大',
    'validation.asset': '请选择资产类型',
    'validation.user': '请选择用户',
    'validation.userType': '请选择用户类型',
    'validation.partnerRequired': '请选择服务商',
    'validation.servicePrefixNo': '编号前缀为 2–6 位字母或数字',
    'validation.merchantCountLimit': '商户数量上限为 -1（不限）或不小于 0 的整数',
    'validation.nothingToChange': '没有需要修改的内容',
    'validation.dateRange': '开始日期不能晚于结束日期',
    'validation.packageName': '套餐名称为 1–30 个字符',
    'validation.price': '价格须为 0.01–100000000.00 之间、最多两位小数的金额',
    'validation.packageMoney': '到账金额须为 0.01–100000000.00 之间、最多两位小数的金额',
    'validation.giftMoney': '赠送金额须为 0–100000000.00 之间、最多两位小数的金额',
    'validation.sort': '排序须为 0–999999 的整数',
    'validation.packageIds': '请按新顺序列出每个套餐，且不可重复',
    'validation.package': '请选择套餐',
    'validation.payWay': '请选择支付方式',
    'validation.orderNo': '请输入有效的订单号',
    'validation.cardSelection': '请选择卡密或批次',
    'validation.tooManyCards': '最多选择 1000 张卡密',
    'validation.cardQuantity': '数量为 1–1000 的整数',
    'validation.cardPrice': '售价须不小于 0，最多两位小数',
    'validation.cardNo': '请输入卡号',
    'validation.cardPwd': '请输入卡密',
    'validation.cardPageSize': '每页条数为 1–1000 的整数',
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
