import { createDecipheriv, createSign, randomBytes, X509Certificate } from 'node:crypto';

/**
 * WeChat Pay's own check of a merchant's settings (APIv3): `GET /v3/certificates`, signed with
 * the merchant's private key (`WECHATPAY2-SHA256-RSA2048`, the certificate's serial number and
 * the mch_id in the Authorization header); WeChat Pay answers the platform certificates, each
 * encrypted with the merchant's APIv3 key (AEAD_AES_256_GCM). An answer that opens proves the
 * mch_id, the serial number, the private key and the APIv3 key together.
 */
export interface WechatPayCheckInput {
  baseUrl: string;
  mchId: string;
  serialNo: string;
  privateKey: string;
  apiv3Key: string;
  /** Unix seconds of the request (the signature's timestamp). */
  now: number;
  timeoutMs: number;
}

export class WechatPayCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WechatPayCheckError';
  }
}

const PATH = '/v3/certificates';

interface EncryptedCertificate {
  algorithm?: string;
  associated_data?: string;
  nonce?: string;
  ciphertext?: string;
}

/** The Authorization header of a request (WeChat Pay's APIv3 signature). */
export function wechatPayAuthorization(
  input: Pick<WechatPayCheckInput, 'mchId' | 'serialNo' | 'privateKey'>,
  method: string,
  path: string,
  timestamp: number,
  body = '',
  nonce = randomBytes(16).toString('hex'),
): string {
  const message = `${method}\n${path}\n${timestamp}\n${nonce}\n${body}\n`;
  const signature = createSign('RSA-SHA256').update(message).sign(input.privateKey, 'base64');
  return (
    `WECHATPAY2-SHA256-RSA2048 mchid="${input.mchId}",nonce_str="${nonce}",` +
    `signature="${signature}",timestamp="${timestamp}",serial_no="${input.serialNo}"`
  );
}

/** Opens one encrypted platform certificate with the APIv3 key (throws when it does not open). */
function openCertificate(encrypted: EncryptedCertificate, apiv3Key: string): X509Certificate {
  const { associated_data = '', nonce, ciphertext } = encrypted;
  if (encrypted.algorithm !== 'AEAD_AES_256_GCM' || !nonce || !ciphertext) {
    throw new WechatPayCheckError('the answer holds no encrypted certificate');
  }
  const bytes = Buffer.from(ciphertext, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiv3Key, 'utf8'), nonce);
    decipher.setAAD(Buffer.from(associated_data, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const pem = Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - 16)),
      decipher.final(),
    ]).toString('utf8');
    return new X509Certificate(pem);
  } catch {
    throw new WechatPayCheckError('the APIv3 key does not open the platform certificate');
  }
}

/** Asks for the platform certificates; resolves with how many opened, or throws why not. */
export async function checkWechatPay(input: WechatPayCheckInput): Promise<{ count: number }> {
  const authorization = wechatPayAuthorization(input, 'GET', PATH, input.now);
  let status: number;
  let text: string;
  try {
    const response = await fetch(`${input.baseUrl}${PATH}`, {
      headers: { authorization, accept: 'application/json', 'user-agent': 'video-console' },
      signal: AbortSignal.timeout(input.timeoutMs),
      redirect: 'error',
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw new WechatPayCheckError(
      `GET ${PATH}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let body: { code?: unknown; message?: unknown; data?: { encrypt_certificate?: unknown }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new WechatPayCheckError(`HTTP ${status}: the answer is not JSON`);
  }
  if (status !== 200) {
    throw new WechatPayCheckError(
      `HTTP ${status} ${String(body.code ?? '')}: ${String(body.message ?? '')}`.slice(0, 200),
    );
  }
  const list = Array.isArray(body.data) ? body.data : [];
  if (list.length === 0) throw new WechatPayCheckError('the answer lists no certificate');
  for (const item of list) {
    openCertificate((item.encrypt_certificate ?? {}) as EncryptedCertificate, input.apiv3Key);
  }
  return { count: list.length };
}
