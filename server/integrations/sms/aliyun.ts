import { createHmac, randomUUID } from 'node:crypto';
import { IntegrationError } from '../errors';
import type { SmsMessage, SmsProvider } from './types';

/**
 * Alibaba Cloud's Short Message Service (Dysmsapi 2017-05-25), the protocol the SMS group of the
 * system init settings names (AccessKey ID and secret, signature, template code): RPC calls, a GET
 * of `endpoint/?Action=…` whose query is signed with HMAC-SHA1 over the sorted, percent-encoded
 * parameters (signature version 1.0, the key being `AccessKeySecret&`). Answers are JSON with
 * `Code` "OK", or an error `Code` and `Message`.
 */
export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com';
const VERSION = '2017-05-25';

export interface AliyunSmsSettings {
  /** The API's address (default ALIYUN_SMS_ENDPOINT). */
  endpoint: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
}

/** Alibaba Cloud's percent-encoding: RFC 3986 (`*` → %2A, `~` kept, space → %20). */
export function aliyunPercentEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The signature of an RPC request's parameters (all but `Signature`). */
export function signAliyunRpc(
  method: 'GET' | 'POST',
  params: Readonly<Record<string, string>>,
  accessKeySecret: string,
): string {
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(params[key])}`)
    .join('&');
  const toSign = `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(canonical)}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(toSign).digest('base64');
}

/** A call the service answered with another `Code` than "OK" (or not at all, `status` 0). */
export class AliyunSmsError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status: number,
  ) {
    super(`${code}: ${description}`);
    this.name = 'AliyunSmsError';
  }
}

export interface AliyunCallOptions {
  /** Epoch ms of the request (its Timestamp). */
  now: number;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** One signed RPC call; the answer's JSON when its Code is OK, else an AliyunSmsError. */
export async function aliyunSmsCall(
  settings: Pick<AliyunSmsSettings, 'endpoint' | 'accessKeyId' | 'accessKeySecret'>,
  action: string,
  params: Readonly<Record<string, string>>,
  options: AliyunCallOptions,
): Promise<Record<string, unknown>> {
  const all: Record<string, string> = {
    ...params,
    AccessKeyId: settings.accessKeyId,
    Action: action,
    Format: 'JSON',
    RegionId: 'cn-hangzhou',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: new Date(options.now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: VERSION,
  };
  const signature = signAliyunRpc('GET', all, settings.accessKeySecret);
  const query = Object.entries({ ...all, Signature: signature })
    .map(([k, v]) => `${aliyunPercentEncode(k)}=${aliyunPercentEncode(v)}`)
    .join('&');
  const base = (settings.endpoint || ALIYUN_SMS_ENDPOINT).replace(/\/+$/, '');
  let status: number;
  let text: string;
  try {
    const response = await (options.fetch ?? fetch)(`${base}/?${query}`, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new AliyunSmsError('Unreachable', reason.slice(0, 200), 0);
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new AliyunSmsError(`HTTP ${status}`, 'the answer is not JSON', status);
  }
  const code = typeof body.Code === 'string' ? body.Code : `HTTP ${status}`;
  if (code !== 'OK' || status < 200 || status > 299) {
    throw new AliyunSmsError(code, String(body.Message ?? '').slice(0, 200), status);
  }
  return body;
}

/**
 * What a failed send means (docs/architecture.md §Integrations): our credentials, signature or
 * template refused → `reauthorize` (an admin's to fix); the number or the rate refused →
 * `permanent`; the service unreachable, busy or failing → `transient`.
 */
export function smsFailure(error: AliyunSmsError): IntegrationError {
  const { code, status } = error;
  const credentials =
    /^(InvalidAccessKeyId|SignatureDoesNotMatch|Forbidden|InvalidTimeStamp|IncompleteSignature)/.test(
      code,
    ) ||
    /^isv\.(SMS_SIGNATURE|SMS_TEMPLATE|SMS_SIGN|ACCOUNT|OUT_OF_SERVICE|PRODUCT_UN_SUBSCRIPT|PRODUCT_UNSUBSCRIBE)/.test(
      code,
    ) ||
    status === 401 ||
    status === 403;
  if (credentials) {
    return new IntegrationError(error.message, 'reauthorize', 'sms.reason.notSetUp');
  }
  const busy =
    status === 0 || status >= 500 || status === 429 || /Throttling|ServiceUnavailable/.test(code);
  if (busy) return new IntegrationError(error.message, 'transient', 'sms.reason.unavailable');
  return new IntegrationError(error.message, 'permanent', 'sms.reason.refused');
}

/** Sends the code with the template (its `${code}` variable) and signature in use. */
export function createAliyunSms(
  settings: () => Promise<AliyunSmsSettings>,
  options: { now: () => number; timeoutMs?: number; fetch?: typeof fetch },
): SmsProvider {
  return {
    name: 'aliyun',
    async send({ mobile, code }: SmsMessage) {
      const s = await settings();
      try {
        await aliyunSmsCall(
          s,
          'SendSms',
          {
            PhoneNumbers: mobile,
            SignName: s.signName,
            TemplateCode: s.templateCode,
            TemplateParam: JSON.stringify({ code }),
          },
          { now: options.now(), timeoutMs: options.timeoutMs ?? 10_000, fetch: options.fetch },
        );
      } catch (error) {
        throw error instanceof AliyunSmsError ? smsFailure(error) : error;
      }
    },
  };
}

/** The signature's review states (GetSmsSign's SignStatus). */
const SIGN_STATES: Record<number, string> = {
  0: 'reviewing',
  1: 'approved',
  2: 'rejected',
  10: 'cancelled',
};

/**
 * The service's own check of the settings, sending nothing: the signature (`GetSmsSign`) and the
 * template (`GetSmsTemplate`) asked for with the AccessKey. Both answered proves the key pair and
 * that both exist on this account; the signature must be approved to send.
 */
export async function checkAliyunSms(
  settings: AliyunSmsSettings,
  options: AliyunCallOptions,
): Promise<{ signStatus: string; templateName: string }> {
  const sign = await aliyunSmsCall(
    settings,
    'GetSmsSign',
    { SignName: settings.signName },
    options,
  );
  const status = Number(sign.SignStatus);
  const signStatus = SIGN_STATES[status] ?? `status ${String(sign.SignStatus)}`;
  if (status !== 1) {
    throw new AliyunSmsError('SignNotApproved', `the signature is ${signStatus}`, 200);
  }
  const template = await aliyunSmsCall(
    settings,
    'GetSmsTemplate',
    { TemplateCode: settings.templateCode },
    options,
  );
  const templateName =
    typeof template.TemplateName === 'string' && template.TemplateName
      ? template.TemplateName
      : settings.templateCode;
  return { signStatus, templateName };
}
