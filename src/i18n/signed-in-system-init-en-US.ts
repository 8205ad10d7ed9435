import { initConfigValidationEnUS } from '../api/contract/messages-en-US';

/**
 * The en-US messages of the system init page (/account/system-init): loaded with its view
 * (src/app/routes/page-views.ts).
 */
const signedInSystemInitEnUS = {
  ...initConfigValidationEnUS,
  'initConfig.intro':
    'The keys of the platform’s vendors. A value saved here is used at once and wins over the server’s environment. Secrets are write-only: leave one empty to keep it.',
  'initConfig.group.wechat_pay': 'WeChat Pay',
  'initConfig.group.mini_program': 'Mini program',
  'initConfig.group.storage': 'Object storage',
  'initConfig.group.douyin': 'Douyin',
  'initConfig.group.sms': 'SMS',
  'initConfig.group.ai_text': 'AI text',
  'initConfig.field.mch_id': 'Merchant ID (mch_id)',
  'initConfig.field.apiv3_key': 'APIv3 key',
  'initConfig.field.serial_no': 'Certificate serial number',
  'initConfig.field.private_key': 'Merchant private key (apiclient_key.pem)',
  'initConfig.field.certificate': 'Merchant certificate (apiclient_cert.pem)',
  'initConfig.field.appid': 'AppID',
  'initConfig.field.app_secret': 'AppSecret',
  'initConfig.field.endpoint': 'Endpoint',
  'initConfig.field.region': 'Region',
  'initConfig.field.bucket': 'Bucket',
  'initConfig.field.access_key': 'Access key',
  'initConfig.field.secret_key': 'Secret key',
  'initConfig.field.cdn_base': 'CDN base address',
  'initConfig.field.client_key': 'Client key',
  'initConfig.field.client_secret': 'Client secret',
  'initConfig.field.redirect_uri': 'Redirect address',
  'initConfig.field.access_key_id': 'AccessKey ID',
  'initConfig.field.access_key_secret': 'AccessKey secret',
  'initConfig.field.sign_name': 'Signature',
  'initConfig.field.template_code': 'Template code',
  'initConfig.field.base_url': 'Service address (OpenAI-compatible)',
  'initConfig.field.api_key': 'API key',
  'initConfig.field.model': 'Model',
  'initConfig.field.timeout_seconds': 'Timeout (seconds)',
  'initConfig.range': 'A whole number from {min} to {max}',
  'initConfig.secret.set': 'Configured · ••••{last4} · updated {at} by {by}',
  'initConfig.secret.setShort': 'Configured · updated {at} by {by}',
  'initConfig.secret.environment': 'Configured by the server’s environment',
  'initConfig.secret.unset': 'Not set',
  'initConfig.secret.placeholder': 'Leave empty to keep it unchanged',
  'initConfig.save': 'Save {group}',
  'initConfig.saved': 'Settings saved',
  'initConfig.test': 'Test connection',
  'initConfig.testOk': 'Connection works',
  'initConfig.testFailed': 'Connection failed',
  'initConfig.clear': 'Clear {field}',
  'initConfig.clearTitle': 'Clear {field}?',
  'initConfig.clearBody':
    'The stored value is removed at once; the server’s environment value, if any, is used again.',
  'initConfig.clearConfirm': 'Clear',
  'initConfig.cancel': 'Cancel',
  'initConfig.upload': 'Upload {field}',
  'initConfig.loading': 'Loading the settings',
  'initConfig.loadFailed': 'The settings could not be loaded',
  'initConfig.retry': 'Try again',
} as const;

export default signedInSystemInitEnUS;
