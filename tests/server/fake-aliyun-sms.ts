import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Alibaba Cloud's SMS API (Dysmsapi 2017-05-25, RPC over GET): it checks each request's
 * signature (signature version 1.0, HMAC-SHA1 with `secret&`, computed here on its own from the
 * raw query, not with the code under test) and its AccessKey ID, then answers GetSmsSign,
 * GetSmsTemplate and SendSms as the service does: JSON with `Code` "OK", or an error code
 * (`InvalidAccessKeyId.NotFound` 404, `SignatureDoesNotMatch` 400, `isv.*` 200).
 */
export interface FakeAliyunSms {
  url: string;
  /** Each request's parameters (Signature included), in order. */
  seen: Record<string, string>[];
  /** The next SendSms answers this error code instead of OK (once). */
  failNextSend(code: string, status?: number): void;
  stop(): Promise<void>;
}

export interface FakeAliyunAccount {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** The signature's review state (1 approved). */
  signStatus?: number;
  templateCode: string;
  templateName: string;
}

// RFC 3986, as Alibaba Cloud's documentation spells it out (`*` → %2A, `~` kept, space → %20).
const encode = (text: string) =>
  encodeURIComponent(text)
    .replace(/!/g, '%21')
    .replace(/'/g, '%27')
    .replace(/\(/g, '%28')
    .replace(/\)/g, '%29')
    .replace(/\*/g, '%2A');

export async function startFakeAliyunSms(
  account: FakeAliyunAccount,
  /** Called with each message sent (the phone's inbox of a test). */
  onSent?: (message: { mobile: string; code: string }) => void,
): Promise<FakeAliyunSms> {
  const seen: Record<string, string>[] = [];
  let failure: { code: string; status: number } | null = null;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const params = Object.fromEntries(url.searchParams.entries());
    seen.push(params);
    const reply = (status: number, body: Record<string, unknown>) => {
      response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
      response.end(JSON.stringify({ RequestId: `req-${seen.length}`, ...body }));
    };
    const error = (status: number, code: string, message: string) =>
      reply(status, { Code: code, Message: message });
    if (params.AccessKeyId !== account.accessKeyId) {
      return error(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    }
    const toSign = Object.keys(params)
      .filter((k) => k !== 'Signature')
      .sort()
      .map((k) => `${encode(k)}=${encode(params[k])}`)
      .join('&');
    const expected = createHmac('sha1', `${account.accessKeySecret}&`)
      .update(`${request.method}&%2F&${encode(toSign)}`)
      .digest('base64');
    if (
      params.Signature !== expected ||
      params.SignatureMethod !== 'HMAC-SHA1' ||
      params.SignatureVersion !== '1.0' ||
      params.Version !== '2017-05-25' ||
      !params.SignatureNonce ||
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(params.Timestamp ?? '')
    ) {
      return error(400, 'SignatureDoesNotMatch', 'Specified signature is not matched.');
    }
    switch (params.Action) {
      case 'GetSmsSign':
        if (params.SignName !== account.signName) {
          return error(200, 'isv.SMS_SIGN_ILLEGAL', 'The SMS signature is not found.');
        }
        return reply(200, {
          Code: 'OK',
          Message: 'OK',
          SignName: account.signName,
          SignStatus: account.signStatus ?? 1,
        });
      case 'GetSmsTemplate':
        if (params.TemplateCode !== account.templateCode) {
          return error(200, 'isv.SMS_TEMPLATE_ILLEGAL', 'The SMS template is not found.');
        }
        return reply(200, {
          Code: 'OK',
          Message: 'OK',
          TemplateCode: account.templateCode,
          TemplateName: account.templateName,
          TemplateStatus: '1',
        });
      case 'SendSms': {
        if (failure) {
          const { code, status } = failure;
          failure = null;
          return error(status, code, `fake ${code}`);
        }
        if (params.SignName !== account.signName) {
          return error(200, 'isv.SMS_SIGNATURE_ILLEGAL', 'The SMS signature is illegal.');
        }
        if (params.TemplateCode !== account.templateCode) {
          return error(200, 'isv.SMS_TEMPLATE_ILLEGAL', 'The SMS template is illegal.');
        }
        if (!/^1\d{10}$/.test(params.PhoneNumbers ?? '')) {
          return error(200, 'isv.MOBILE_NUMBER_ILLEGAL', 'The mobile number is illegal.');
        }
        const { code } = JSON.parse(params.TemplateParam ?? '{}') as { code?: string };
        onSent?.({ mobile: params.PhoneNumbers, code: code ?? '' });
        return reply(200, { Code: 'OK', Message: 'OK', BizId: `biz-${seen.length}` });
      }
      default:
        return error(400, 'InvalidAction.NotFound', 'Specified api is not found.');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    failNextSend(code, status = 200) {
      failure = { code, status };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
