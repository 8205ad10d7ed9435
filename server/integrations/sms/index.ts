import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config';
import type { SettingLookup } from '../settings';
import { ALIYUN_SMS_ENDPOINT, createAliyunSms, type AliyunSmsSettings } from './aliyun';
import { createLogSmsProvider } from './log';
import type { SmsProvider } from './types';

export type { SmsMessage, SmsProvider } from './types';

/** The SMS group's fields a send needs (the endpoint has a default). */
const REQUIRED = ['access_key_id', 'access_key_secret', 'sign_name', 'template_code'] as const;

/**
 * The SMS settings in use (init config, group `sms`), or null while any of the AccessKey ID and
 * secret, the signature and the template code is missing.
 */
export async function smsSettings(settings: SettingLookup): Promise<AliyunSmsSettings | null> {
  const [endpoint, accessKeyId, accessKeySecret, signName, templateCode] = await Promise.all(
    ['endpoint', ...REQUIRED].map((name) => settings('sms', name)),
  );
  if (!accessKeyId || !accessKeySecret || !signName || !templateCode) return null;
  return {
    endpoint: endpoint || ALIYUN_SMS_ENDPOINT,
    accessKeyId,
    accessKeySecret,
    signName,
    templateCode,
  };
}

/** The names of the SMS group's fields a send needs that are not set. */
export async function missingSmsSettings(settings: SettingLookup): Promise<string[]> {
  const values = await Promise.all(REQUIRED.map((name) => settings('sms', name)));
  return REQUIRED.filter((_, i) => !values[i]);
}

/**
 * The SMS provider (docs/domain.md §System init). Without `settings`: the embedded log. With them
 * (the app): at each send, Alibaba Cloud's SMS service when the SMS group is set up (stored by an
 * admin), else the embedded log; so settings saved take effect at the next code sent, in every
 * process, and clearing one goes back to the log.
 */
export function createSmsProvider(
  config: Config,
  log: FastifyBaseLogger,
  settings?: SettingLookup,
  now: () => number = Date.now,
): SmsProvider {
  const embedded = createLogSmsProvider(config.dataDir, log);
  if (!settings) return embedded;
  return {
    name: embedded.name,
    async send(message) {
      const current = await smsSettings(settings);
      if (!current) return embedded.send(message);
      return createAliyunSms(async () => current, { now }).send(message);
    },
  };
}
