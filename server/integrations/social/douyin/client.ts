import type { ZodType } from 'zod';
import { SocialPlatformError } from '../types';
import { classifyDouyinReply, classifyNetworkError, type ClassifyOptions } from './errors';

/** The HTTP side of the Douyin adapter: one call, bounded by a timeout, its answer classified. */
export interface DouyinTransportOptions {
  baseUrl: string;
  /** A fetch implementation (tests); default the global one. */
  fetch?: typeof fetch;
  /** Per call (default 30 s). */
  requestTimeoutMs?: number;
  /** Per upload (default 10 min). */
  uploadTimeoutMs?: number;
}

export interface DouyinCall<T> {
  method: 'GET' | 'POST';
  /** The path under the base URL, with its query. */
  path: string;
  /** What the reply's JSON must be. */
  schema: ZodType<T>;
  form?: Record<string, string>;
  json?: unknown;
  multipart?: FormData;
  accessToken?: string;
  signal?: AbortSignal;
  /** create_video: an answer lost or unreadable may hide a created post. */
  sideEffect?: boolean;
  upload?: boolean;
}

export type DouyinTransport = <T>(call: DouyinCall<T>) => Promise<T>;

export function createDouyinTransport(options: DouyinTransportOptions): DouyinTransport {
  const base = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const uploadTimeout = options.uploadTimeoutMs ?? 10 * 60_000;

  return async <T>(call: DouyinCall<T>): Promise<T> => {
    const classify: ClassifyOptions = { sideEffect: call.sideEffect };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.accessToken !== undefined) headers['access-token'] = call.accessToken;
    let body: BodyInit | undefined;
    if (call.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    } else if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.json);
    } else if (call.multipart) {
      body = call.multipart; // fetch writes the boundary
    }
    const timeout = AbortSignal.timeout(call.upload ? uploadTimeout : requestTimeout);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    let status: number;
    let text: string;
    try {
      const response = await fetchImpl(`${base}${call.path}`, {
        method: call.method,
        headers,
        body,
        signal,
        redirect: 'error',
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      throw classifyNetworkError(error, timeout.aborted, classify);
    }
    const failure = classifyDouyinReply(status, text, classify);
    if (failure) throw failure;
    const parsed = call.schema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      throw new SocialPlatformError(
        call.sideEffect ? 'unknown_outcome' : 'transient',
        status,
        `${call.method} ${call.path.split('?')[0]}: unexpected answer ${parsed.error.issues
          .slice(0, 2)
          .map((i) => `${i.path.join('.')}: ${i.message}`)
          .join('; ')}`,
      );
    }
    return parsed.data;
  };
}
