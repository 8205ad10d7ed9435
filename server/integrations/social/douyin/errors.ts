import { SocialPlatformError, type SocialErrorKind } from '../types';

/**
 * How the Douyin Open Platform's answers fail, as one table (docs/architecture.md §Integrations).
 * A business error comes with HTTP 200 and `error_code` ≠ 0, either in `data` (the OAuth calls:
 * `data.error_code`, `data.description`) or in `extra` (the OpenAPI calls: `extra.error_code`,
 * `extra.description`, `extra.logid`). The code decides the kind:
 *
 * | error_code                  | kind               | meaning                                  |
 * |-----------------------------|--------------------|------------------------------------------|
 * | 10008, 2190008              | `access_expired`   | the access token expired: refresh it      |
 * | 10010, 10020                | `auth_expired`     | the refresh token expired / renewals used |
 * | 2190002, 2190003, 2190015   | `revoked`          | authorisation withdrawn or token invalid  |
 * | 2190001                     | `rate_limited`     | the quota for now is used up              |
 * | 2111001, 2113001, 2100009   | `content_rejected` | the text or video is refused              |
 * | 2190005, 2190006, 2190007   | `media_invalid`    | the file is unusable (size, format, id)   |
 * | 10001, 2100004              | `transient`        | the platform is busy or failed            |
 * | any other                   | `invalid_request`  | the request as sent is refused            |
 *
 * Without a business code: HTTP 429 → `rate_limited`; 5xx and 408 → `transient`; another 4xx →
 * `invalid_request`; a body that is not the protocol's → `transient` (`unknown_outcome` for
 * create_video, whose post may exist). The network: a failure to connect → `transient`; a
 * timeout or a connection lost once connected → `transient`, but `unknown_outcome` for
 * create_video (the request may have arrived).
 */
export const DOUYIN_ERROR_KINDS: Readonly<Record<number, SocialErrorKind>> = {
  10008: 'access_expired',
  2190008: 'access_expired',
  10010: 'auth_expired',
  10020: 'auth_expired',
  2190002: 'revoked',
  2190003: 'revoked',
  2190015: 'revoked',
  2190001: 'rate_limited',
  2111001: 'content_rejected',
  2113001: 'content_rejected',
  2100009: 'content_rejected',
  2190005: 'media_invalid',
  2190006: 'media_invalid',
  2190007: 'media_invalid',
  10001: 'transient',
  2100004: 'transient',
};

/** The kind of a Douyin business error code (unknown codes: `invalid_request`). */
export function douyinKindOf(code: number): SocialErrorKind {
  return DOUYIN_ERROR_KINDS[code] ?? 'invalid_request';
}

/** The kind of an HTTP status without a business code. */
export function httpKindOf(status: number): SocialErrorKind {
  if (status === 429) return 'rate_limited';
  if (status >= 500 || status === 408) return 'transient';
  return 'invalid_request';
}

interface ErrorFields {
  error_code?: unknown;
  description?: unknown;
  logid?: unknown;
}

const fieldsOf = (value: unknown): ErrorFields =>
  value && typeof value === 'object' ? (value as ErrorFields) : {};

const codeOf = (value: unknown): number => {
  const code = typeof value === 'string' ? Number(value) : value;
  return typeof code === 'number' && Number.isFinite(code) ? code : 0;
};

/** What a call expects when its answer is not the protocol's. */
export interface ClassifyOptions {
  /** create_video: an unreadable answer may hide a created post (`unknown_outcome`). */
  sideEffect?: boolean;
}

/**
 * Classifies an answer: the {@link SocialPlatformError} it means, or `undefined` when it is a
 * success (HTTP 2xx, a JSON object and no business error code). `text` is the raw body.
 */
export function classifyDouyinReply(
  status: number,
  text: string,
  options: ClassifyOptions = {},
): SocialPlatformError | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  const data = fieldsOf(parsed?.data);
  const extra = fieldsOf(parsed?.extra);
  const logId = typeof extra.logid === 'string' && extra.logid ? extra.logid : null;
  // A business error, wherever it is (data first: the OAuth calls answer there).
  const dataCode = codeOf(data.error_code);
  const extraCode = codeOf(extra.error_code);
  const code = dataCode || extraCode;
  if (code !== 0) {
    const description = String((dataCode ? data.description : extra.description) ?? '');
    return new SocialPlatformError(douyinKindOf(code), code, description, logId);
  }
  if (status < 200 || status >= 300) {
    const description = String(data.description ?? extra.description ?? text.slice(0, 200));
    return new SocialPlatformError(httpKindOf(status), status, description, logId);
  }
  if (!parsed) {
    return new SocialPlatformError(
      options.sideEffect ? 'unknown_outcome' : 'transient',
      status,
      `not the protocol's answer: ${text.slice(0, 100)}`,
      logId,
    );
  }
  return undefined;
}

/** Network error codes that mean the request never reached the platform. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A fetch that threw (no answer): `transient`, except for a call with a side effect that may have
 * arrived (a timeout, a connection lost after connecting): `unknown_outcome`.
 */
export function classifyNetworkError(
  error: unknown,
  timedOut: boolean,
  options: ClassifyOptions = {},
): SocialPlatformError {
  const code = causeCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const connected = !timedOut ? !(code && NOT_CONNECTED.has(code)) : true;
  const description = timedOut ? 'timed out' : `${message}${code ? ` (${code})` : ''}`;
  return new SocialPlatformError(
    options.sideEffect && connected ? 'unknown_outcome' : 'transient',
    0,
    description,
  );
}
