import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { InitConfigGroup, InitConfigTestReply } from '../../../src/api/contract/init-config';
import type { Locale } from '../../../src/api/contract/messages';
import type { AppContext } from '../../context';
import { createEmbeddedAiText } from '../../integrations/ai-text/embedded';
import { createOpenAiText } from '../../integrations/ai-text/openai';
import { IntegrationError } from '../../integrations/errors';
import { checkMiniProgram } from '../../integrations/mini-program/check';
import { checkWechatPay } from '../../integrations/payment/wechat-pay-check';
import { settingLookup, type SettingLookup } from '../../integrations/settings';
import { missingSmsSettings, smsSettings } from '../../integrations/sms';
import { AliyunSmsError, checkAliyunSms } from '../../integrations/sms/aliyun';
import { douyinClientToken, SocialPlatformError } from '../../integrations/social';
import { isMessageId, t, type MessageId, type MessageParams } from '../../platform/i18n';
import { s3Client } from '../../platform/storage/s3';

/**
 * "Test connection" of an init config group (docs/domain.md §System init): a real call to the
 * vendor with the settings in use (stored, else the environment's), run on the server; the
 * answer says what worked or why not, in the caller's language. Nothing is stored.
 */

const CHECK_TIMEOUT_MS = 15_000;
/** A vendor's own words, cut short (they never carry our secrets: we send those, not they). */
const reasonOf = (error: unknown) =>
  (error instanceof Error
    ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`
    : String(error)
  ).slice(0, 200);

type Check = (
  ctx: AppContext,
  settings: SettingLookup,
  locale: Locale,
) => Promise<InitConfigTestReply>;

const answer = (ok: boolean, locale: Locale, id: MessageId, params?: MessageParams) => ({
  ok,
  message: t(locale, id, params),
});

async function missing(settings: SettingLookup, kind: string, names: readonly string[]) {
  const values = await Promise.all(names.map((name) => settings(kind, name)));
  return names.filter((_, i) => !values[i]);
}

/** Object storage: writes a small object, reads it back and deletes it. */
const storage: Check = async (_ctx, settings, locale) => {
  const unset = await missing(settings, 'storage', ['bucket', 'access_key', 'secret_key']);
  if (unset.length > 0) {
    return answer(false, locale, 'initConfig.check.notConfigured', { fields: unset.join(', ') });
  }
  const [endpoint, region, bucket, accessKeyId, secretAccessKey] = await Promise.all(
    ['endpoint', 'region', 'bucket', 'access_key', 'secret_key'].map((n) => settings('storage', n)),
  );
  const client = s3Client({
    endpoint,
    region: region ?? 'us-east-1',
    bucket: bucket!,
    accessKeyId,
    secretAccessKey,
  });
  const key = `init-config-check/${randomUUID()}.txt`;
  const body = `connection check ${key}`;
  const abortSignal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  try {
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'text/plain' }),
      { abortSignal },
    );
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), {
      abortSignal,
    });
    const read = await got.Body?.transformToString();
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal });
    if (read !== body) {
      return answer(false, locale, 'initConfig.check.storageFailed', {
        reason: 'the object read back differs from the one written',
      });
    }
    return answer(true, locale, 'initConfig.check.storageOk', { bucket: bucket! });
  } catch (error) {
    return answer(false, locale, 'initConfig.check.storageFailed', { reason: reasonOf(error) });
  } finally {
    client.destroy();
  }
};

/** Douyin: the app's client token, asked for with the client_key and client_secret in use. */
const douyin: Check = async (ctx, settings, locale) => {
  const unset = await missing(settings, 'social', ['douyin_client_key', 'douyin_client_secret']);
  if (unset.length > 0) {
    const keys = unset.map((n) => n.replace(/^douyin_/, ''));
    return answer(false, locale, 'initConfig.check.notConfigured', { fields: keys.join(', ') });
  }
  try {
    await douyinClientToken({
      baseUrl: ctx.config.douyin.baseUrl,
      clientKey: (await settings('social', 'douyin_client_key'))!,
      clientSecret: (await settings('social', 'douyin_client_secret'))!,
      requestTimeoutMs: CHECK_TIMEOUT_MS,
    });
    return answer(true, locale, 'initConfig.check.douyinOk');
  } catch (error) {
    const reason =
      error instanceof SocialPlatformError
        ? `${error.platformCode}: ${error.description}`
        : reasonOf(error);
    return answer(false, locale, 'initConfig.check.douyinFailed', { reason: reason.slice(0, 200) });
  }
};

/**
 * AI text: one short completion — of the OpenAI-compatible service when an address is in use,
 * else of the embedded provider (demonstration output).
 */
const aiText: Check = async (ctx, settings, locale) => {
  const baseUrl = await settings('ai-text', 'base_url');
  const input = { title: '今天的晚餐做什么', count: 1, maxLength: 30, platform: 'douyin' as const };
  try {
    if (!baseUrl) {
      await createEmbeddedAiText().imitateTitles(input);
      return answer(true, locale, 'initConfig.check.aiEmbedded');
    }
    const timeout = await settings('ai-text', 'timeout_seconds');
    const provider = createOpenAiText({
      baseUrl,
      model: (await settings('ai-text', 'model')) ?? ctx.config.aiText.model,
      apiKey: () => settings('ai-text', 'api_key'),
      timeoutMs: Math.min(CHECK_TIMEOUT_MS, timeout ? Number(timeout) * 1000 : CHECK_TIMEOUT_MS),
    });
    const [title] = await provider.imitateTitles(input);
    return answer(true, locale, 'initConfig.check.aiOk', { sample: title });
  } catch (error) {
    const reason =
      error instanceof IntegrationError && isMessageId(error.reasonId)
        ? t(locale, error.reasonId, error.reasonParams)
        : reasonOf(error);
    return answer(false, locale, 'initConfig.check.aiFailed', { reason });
  }
};

/** WeChat Pay: the platform certificates, asked for with the merchant's signature (APIv3). */
const wechatPay: Check = async (ctx, settings, locale) => {
  const names = ['wechat_mch_id', 'wechat_serial_no', 'wechat_private_key', 'wechat_apiv3_key'];
  const unset = await missing(settings, 'payment', names);
  if (unset.length > 0) {
    const keys = unset.map((n) => n.replace(/^wechat_/, ''));
    return answer(false, locale, 'initConfig.check.notConfigured', { fields: keys.join(', ') });
  }
  const [mchId, serialNo, privateKey, apiv3Key] = (await Promise.all(
    names.map((n) => settings('payment', n)),
  )) as string[];
  try {
    const { count } = await checkWechatPay({
      baseUrl: ctx.config.wechatPayBaseUrl,
      mchId,
      serialNo,
      privateKey,
      apiv3Key,
      now: Math.floor(ctx.now() / 1000),
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    return answer(true, locale, 'initConfig.check.wechatPayOk', { count });
  } catch (error) {
    return answer(false, locale, 'initConfig.check.wechatPayFailed', { reason: reasonOf(error) });
  }
};

/** Mini program: WeChat's stable access token, asked for with the AppID and AppSecret. */
const miniProgram: Check = async (ctx, settings, locale) => {
  const unset = await missing(settings, 'mini-program', ['appid', 'app_secret']);
  if (unset.length > 0) {
    return answer(false, locale, 'initConfig.check.notConfigured', { fields: unset.join(', ') });
  }
  try {
    await checkMiniProgram({
      baseUrl: ctx.config.wechatApiBaseUrl,
      appid: (await settings('mini-program', 'appid'))!,
      secret: (await settings('mini-program', 'app_secret'))!,
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    return answer(true, locale, 'initConfig.check.miniProgramOk');
  } catch (error) {
    return answer(false, locale, 'initConfig.check.miniProgramFailed', {
      reason: reasonOf(error),
    });
  }
};

/**
 * SMS: Alibaba Cloud's signature and template, asked for with the AccessKey (nothing is sent);
 * the signature must be approved.
 */
const sms: Check = async (ctx, settings, locale) => {
  const unset = await missingSmsSettings(settings);
  const values = await smsSettings(settings);
  if (unset.length > 0 || !values) {
    return answer(false, locale, 'initConfig.check.notConfigured', { fields: unset.join(', ') });
  }
  try {
    const { templateName } = await checkAliyunSms(values, {
      now: ctx.now(),
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    return answer(true, locale, 'initConfig.check.smsOk', {
      sign: values.signName,
      template: templateName,
    });
  } catch (error) {
    const reason =
      error instanceof AliyunSmsError ? `${error.code}: ${error.description}` : reasonOf(error);
    return answer(false, locale, 'initConfig.check.smsFailed', { reason: reason.slice(0, 200) });
  }
};

const CHECKS: Record<InitConfigGroup, Check> = {
  storage,
  douyin,
  ai_text: aiText,
  wechat_pay: wechatPay,
  mini_program: miniProgram,
  sms,
};

export function testInitGroup(
  ctx: AppContext,
  group: InitConfigGroup,
  locale: Locale,
): Promise<InitConfigTestReply> {
  return CHECKS[group](ctx, settingLookup(ctx.config, ctx.secrets), locale);
}
