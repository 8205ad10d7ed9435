import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ZodType } from 'zod';
import type { IntegrationErrorKind } from '../../errors';
import { ProviderError } from '../types';
import {
  IDEMPOTENCY_HEADER,
  jobStatusSchema,
  submitReplySchema,
  type JobStatus,
  type JobType,
} from './protocol';

/**
 * The calls to the vendor (docs/digital-human-vendor.md): every one authenticated, bounded by a
 * timeout and by the run's signal, its failure mapped to a {@link ProviderError}: 401 and 403 (our
 * key is wrong) and a missing key are `reauthorize`, another 4xx answer (except 408 and 429) is
 * `permanent`, anything else (5xx, 408, 429, network, timeout, a body that is not the protocol's)
 * is `transient`. An abort rejects with the signal's reason, untouched.
 */
export interface VendorClientOptions {
  baseUrl: string;
  /** The API key, read before each call (a key set in the settings takes effect at once). */
  apiKey: () => Promise<string | undefined>;
  /** Per request (default 30 s). */
  requestTimeoutMs: number;
  /** Per result file (default 10 min). */
  downloadTimeoutMs: number;
  /** Result files larger than this are refused (default 2 GiB). */
  maxDownloadBytes: number;
  /** Tries of a submit that failed transiently, with the same idempotency key (default 3). */
  submitAttempts: number;
  /** The first pause between those tries, doubled each time (default 1 s). */
  retryDelayMs: number;
}

const UNAVAILABLE = 'digitalHuman.reason.vendorUnavailable';
const REFUSED = 'digitalHuman.reason.vendorRefused';
const NOT_CONFIGURED = 'digitalHuman.reason.vendorNotConfigured';
export const RESULT_BAD = 'digitalHuman.reason.vendorResultBad';

/** 4xx answers are the request's fault (permanent), except a timeout and a rate limit. */
const isPermanentStatus = (status: number) =>
  status >= 400 && status < 500 && status !== 408 && status !== 429;

/** What a refused answer means: our key is refused, the request is, or the vendor is unwell. */
function kindOf(status: number): IntegrationErrorKind {
  if (status === 401 || status === 403) return 'reauthorize';
  return isPermanentStatus(status) ? 'permanent' : 'transient';
}

/** A pause that ends early when the signal aborts (rejecting with its reason) or `wake` is called. */
export function pause(
  ms: number,
  signal: AbortSignal | undefined,
  onWake?: (wake: () => void) => () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      forget?.();
    };
    const aborted = () => {
      done();
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
    const forget = onWake?.(() => {
      done();
      resolve();
    });
  });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createVendorClient(options: VendorClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;

  async function auth(): Promise<{ authorization: string }> {
    const key = await options.apiKey();
    if (!key) {
      throw new ProviderError('no API key is set for the vendor', 'reauthorize', NOT_CONFIGURED);
    }
    return { authorization: `Bearer ${key}` };
  }

  /** fetch with the timeout and the run's signal; network failures are transient. */
  async function send(url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal) {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await fetch(url, {
        ...init,
        redirect: 'follow',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new ProviderError(
        `${init.method ?? 'GET'} ${url}: ${timeout.aborted ? 'timed out' : messageOf(error)}`,
        'transient',
        UNAVAILABLE,
      );
    }
  }

  async function refusal(response: Response, what: string): Promise<ProviderError> {
    const text = await response.text().catch(() => '');
    let message = text.slice(0, 300);
    try {
      const body = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } };
      if (typeof body.error?.message === 'string') message = body.error.message;
    } catch {
      // not JSON: the text itself
    }
    const kind = kindOf(response.status);
    return new ProviderError(
      `${what}: HTTP ${response.status} ${message}`.trim(),
      kind,
      kind === 'transient' ? UNAVAILABLE : REFUSED,
      { status: response.status, message: message || String(response.status) },
    );
  }

  async function callJson<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: ZodType<T>,
    extra: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<T> {
    const what = `${method} ${path}`;
    const response = await send(
      `${base}${path}`,
      {
        method,
        headers: {
          ...(await auth()),
          accept: 'application/json',
          ...(extra.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extra.headers,
        },
        body: extra.body === undefined ? undefined : JSON.stringify(extra.body),
      },
      options.requestTimeoutMs,
      extra.signal,
    );
    if (!response.ok) throw await refusal(response, what);
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch (error) {
      if (extra.signal?.aborted) throw extra.signal.reason;
      throw new ProviderError(`${what}: not JSON (${messageOf(error)})`, 'transient', UNAVAILABLE);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ProviderError(
        `${what}: unexpected body ${parsed.error.message}`,
        'transient',
        UNAVAILABLE,
      );
    }
    return parsed.data;
  }

  return {
    /**
     * Submits a job; a transient failure is tried again with the same idempotency key, so a
     * submit whose answer was lost returns the job the vendor already made.
     */
    async submit(
      job: { type: JobType; input: Record<string, unknown>; callback_url: string },
      idempotencyKey: string,
      signal?: AbortSignal,
    ): Promise<string> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          const reply = await callJson('POST', '/v1/jobs', submitReplySchema, {
            body: job,
            headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
            signal,
          });
          return reply.job_id;
        } catch (error) {
          const retry =
            error instanceof ProviderError && !error.permanent && attempt < options.submitAttempts;
          if (!retry) throw error;
          await pause(options.retryDelayMs * 2 ** (attempt - 1), signal);
        }
      }
    },

    status(jobId: string, signal?: AbortSignal): Promise<JobStatus> {
      return callJson('GET', `/v1/jobs/${encodeURIComponent(jobId)}`, jobStatusSchema, { signal });
    },

    /**
     * Downloads a result file to `dest` (the API key goes only to the vendor's own origin: other
     * result URLs are presigned). An empty or oversized file is the vendor's fault (permanent).
     */
    async download(url: string, dest: string, signal?: AbortSignal): Promise<void> {
      const sameOrigin = new URL(url).origin === origin;
      const response = await send(
        url,
        { method: 'GET', headers: sameOrigin ? await auth() : {} },
        options.downloadTimeoutMs,
        signal,
      );
      if (!response.ok || !response.body) throw await refusal(response, `GET ${url}`);
      let bytes = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          if (bytes > options.maxDownloadBytes) {
            callback(
              new ProviderError(
                `${url}: larger than ${options.maxDownloadBytes} bytes`,
                'permanent',
                RESULT_BAD,
              ),
            );
          } else callback(null, chunk);
        },
      });
      try {
        await pipeline(
          Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
          limit,
          createWriteStream(dest),
        );
      } catch (error) {
        await fs.rm(dest, { force: true });
        if (signal?.aborted) throw signal.reason;
        if (error instanceof ProviderError) throw error;
        throw new ProviderError(`GET ${url}: ${messageOf(error)}`, 'transient', UNAVAILABLE);
      }
      if (bytes === 0) throw new ProviderError(`${url}: empty file`, 'permanent', RESULT_BAD);
    },
  };
}
