/**
 * The one HTTP client (spec §7–§8) on the browser's `fetch`: base URL, `token` / `platform` /
 * `lang` headers, the `{code, msg, data}` envelope and the error policy. It imports no machine and
 * no React: what the user sees (toasts, the logout modals) goes through callbacks given to
 * `configureHttp`, which the app wires to the auth actor and the toaster. (It was superagent:
 * ≈ 6 KB brotli on every page, the login page's included, for what fetch does natively —
 * docs/decisions.md, "The login page's bytes".)
 */
import { ReplyCode, SERVER_LOGOUT_CODES } from './contract/reply-codes';
import { STORAGE_KEYS } from './contract/storage-keys';

// ---------------------------------------------------------------------------------------------
// Tokens (contract decision: `localStorage.token`, `sessionStorage.token` for overstep sessions)

export type TokenKind = 'local' | 'session';

const TOKEN_KEY = STORAGE_KEYS.token;

function storage(kind: TokenKind): Storage | null {
  try {
    return kind === 'session' ? globalThis.sessionStorage : globalThis.localStorage;
  } catch {
    return null; // storage disabled (privacy settings): behave as if nothing is stored
  }
}

function read(kind: TokenKind): string | null {
  return storage(kind)?.getItem(TOKEN_KEY) || null;
}

export const tokenStore = {
  key: TOKEN_KEY,
  /** The token requests carry: the session-storage (overstep) token wins over the local one. */
  get(): string | null {
    return read('session') ?? read('local');
  },
  /** Which storage the current token comes from, or null when there is none. */
  kind(): TokenKind | null {
    if (read('session')) return 'session';
    return read('local') ? 'local' : null;
  },
  hasSessionToken(): boolean {
    return read('session') !== null;
  },
  setLocal(token: string): void {
    storage('local')?.setItem(TOKEN_KEY, token);
  },
  setSession(token: string): void {
    storage('session')?.setItem(TOKEN_KEY, token);
  },
  /** Removes the token of one storage, or of both without an argument. */
  clear(kind?: TokenKind): void {
    if (kind !== 'session') storage('local')?.removeItem(TOKEN_KEY);
    if (kind !== 'local') storage('session')?.removeItem(TOKEN_KEY);
  },
};

// ---------------------------------------------------------------------------------------------
// Configuration

/** A toast request. `text` is a message id (see src/i18n) or a server sentence, shown as is. */
export interface Notice {
  type: 'error';
  text: string;
  durationMs: number;
}

export interface HttpConfig {
  /** Absolute or root-relative; default `VITE_API_BASE` or `/api/v1`. */
  baseUrl: string;
  notify: (notice: Notice) => void;
  /** Reply codes 50008/50012/50014 on any call but get_user_info: the 'Confirm logout' modal. */
  serverLogout: (code: number) => void;
  /** HTTP 401: the auth machine decides between the expiry message and the expiry modal. */
  unauthorized: (info: { hadSessionToken: boolean }) => void;
  /** The current locale, sent as the `lang` header (omitted when this returns nothing). */
  locale: () => string | undefined;
  /** Sees every call's promise (the progress bar shows for slow ones). */
  track: <T>(work: Promise<T>) => Promise<T>;
}

export const ERROR_TOAST_MS = 5000;
export const USER_INFO_PATH = '/platform/get_user_info';

const noop = () => {};
const defaults: HttpConfig = {
  baseUrl: import.meta.env.VITE_API_BASE ?? '/api/v1',
  notify: noop,
  serverLogout: noop,
  unauthorized: noop,
  locale: () => undefined,
  track: (work) => work,
};
let config: HttpConfig = { ...defaults };

/** Sets some options; the others keep their current values. */
export function configureHttp(options: Partial<HttpConfig>): void {
  config = { ...config, ...options };
}

/** The console's current locale (what the `lang` header carries), if any. */
export function currentLocale(): string | undefined {
  return config.locale();
}

/** Back to the defaults (tests). */
export function resetHttp(): void {
  config = { ...defaults };
}

// ---------------------------------------------------------------------------------------------
// Errors

export type ApiErrorKind = 'reply' | 'unauthorized' | 'transport';

/**
 * Every failed call rejects with this. `msg` is what the user was shown: the server's sentence or
 * a message id ('http.error', 'http.requestError', 'http.aborted', 'http.networkError',
 * 'http.timeout'). `code` is the reply code when there was an envelope, `status` the HTTP status
 * when there was a response.
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: number | null;
  readonly status: number | null;
  readonly msg: string;
  readonly path: string;
  /** True when the caller's AbortSignal cancelled the request (no toast is shown then). */
  readonly aborted: boolean;

  constructor(init: {
    kind: ApiErrorKind;
    msg: string;
    path: string;
    code?: number | null;
    status?: number | null;
    aborted?: boolean;
  }) {
    super(init.msg);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.msg = init.msg;
    this.path = init.path;
    this.code = init.code ?? null;
    this.status = init.status ?? null;
    this.aborted = init.aborted ?? false;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds; none by default (spec §9: timeout 0). */
  timeoutMs?: number;
  /** Extra request headers, e.g. `Idempotency-Key` on money calls. */
  headers?: Readonly<Record<string, string>>;
  /**
   * No error toast (background polling: its caller shows failures its own way). 401 and the
   * server-logout codes are handled as always.
   */
  quiet?: boolean;
}

/** `{a: 1, b: [x, y], c: undefined}` → `a=1&b=x&b=y` (null and undefined are left out). */
export function toQueryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const v of values) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  return params.toString();
}

/** The absolute or root-relative URL of an API path (e.g. for download links). */
export function apiUrl(path: string, query?: Query): string {
  const base = config.baseUrl.replace(/\/+$/, '');
  const qs = toQueryString(query);
  return `${base}${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`;
}

function headers(options: RequestOptions, json: boolean): Record<string, string> {
  const result: Record<string, string> = { platform: 'pc' };
  const token = tokenStore.get();
  if (token) result.token = token;
  const lang = config.locale();
  if (lang) result.lang = lang;
  if (json) result['content-type'] = 'application/json';
  return { ...result, ...options.headers };
}

function envelopeOf(body: unknown): { code: number; msg: string; data: unknown } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { code, msg, data } = body as Record<string, unknown>;
  if (typeof code !== 'number') return null;
  return { code, msg: typeof msg === 'string' ? msg : '', data };
}

/** The reply body as JSON, or null when it is not JSON (an HTML error page, a proxy's text). */
async function jsonOf(res: Response, whateverTheType = false): Promise<unknown> {
  if (!whateverTheType && !/\bjson\b/i.test(res.headers.get('content-type') ?? '')) return null;
  try {
    return JSON.parse(await res.text());
  } catch {
    return null;
  }
}

/** A `{msg}` out of a failed reply's body (a download's too: its body is read as JSON then). */
function bodyMsg(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const msg = (body as { msg?: unknown }).msg;
  return typeof msg === 'string' && msg ? msg : null;
}

function showError(text: string): void {
  config.notify({ type: 'error', text, durationMs: ERROR_TOAST_MS });
}

/** Why a request got no reply: the caller cancelled it, its timeout ran out, or the network. */
type NoReply = 'aborted' | 'timeout' | 'network';
const NO_REPLY_MESSAGE: Record<NoReply, string> = {
  aborted: 'http.aborted',
  timeout: 'http.timeout',
  network: 'http.networkError',
};

interface Sent {
  method: 'GET' | 'POST';
  query?: Query;
  /** POST: sent as JSON. */
  body?: object;
  /** Resolve with the body as a Blob, no envelope (downloads). */
  blob?: boolean;
}

/**
 * Sends one request and applies the error policy of spec §8: 401 → `unauthorized` (no toast);
 * other failures → an error toast (unless `quiet` or cancelled by the caller); reply codes
 * 50008/50012/50014 → `serverLogout` (except on get_user_info, which the auth machine handles).
 */
function send(path: string, sent: Sent, options: RequestOptions): Promise<unknown> {
  const hadSessionToken = tokenStore.hasSessionToken();
  const { signal, quiet = false } = options;
  const qs = toQueryString(sent.query);
  const url = `${apiUrl(path)}${qs ? `?${qs}` : ''}`;

  const fail = (msg: string, init: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) => {
    if (!quiet && !init.aborted) showError(msg);
    return new ApiError({ kind: 'transport', msg, path, ...init });
  };

  async function request(): Promise<unknown> {
    // The caller's signal cancels; a timeout aborts too (none by default: spec §9, timeout 0).
    if (signal?.aborted) throw fail('http.aborted', { aborted: true });
    const controller = new AbortController();
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.timeoutMs)
      : undefined;
    const cancel = () => controller.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      let res: Response;
      try {
        res = await fetch(url, {
          method: sent.method,
          headers: headers(options, sent.method === 'POST'),
          // An empty JSON object rather than no body: the server parses every POST as JSON.
          body: sent.method === 'POST' ? JSON.stringify(sent.body ?? {}) : undefined,
          signal: controller.signal,
        });
      } catch {
        const why: NoReply = signal?.aborted ? 'aborted' : timedOut ? 'timeout' : 'network';
        throw fail(NO_REPLY_MESSAGE[why], { aborted: why === 'aborted' });
      }
      const status = res.status;
      if (status === 401) {
        config.unauthorized({ hadSessionToken });
        const msg = bodyMsg(await jsonOf(res, true)) ?? 'http.loginExpired';
        throw new ApiError({ kind: 'unauthorized', msg, path, status });
      }
      if (!res.ok) {
        const body = await jsonOf(res, true);
        if (signal?.aborted) throw fail('http.aborted', { status, aborted: true });
        const code = envelopeOf(body)?.code ?? null;
        throw fail(bodyMsg(body) ?? 'http.requestError', { status, code });
      }
      if (sent.blob) return await res.blob();
      const env = envelopeOf(await jsonOf(res));
      if (!env) throw fail('http.requestError', { status });
      if (env.code === ReplyCode.SUCCESS) return env.data;
      const msg = env.msg || 'http.error';
      if (!quiet) showError(msg);
      if (SERVER_LOGOUT_CODES.includes(env.code) && path !== USER_INFO_PATH) {
        config.serverLogout(env.code);
      }
      throw new ApiError({ kind: 'reply', msg, path, code: env.code, status });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // Reading the body failed (the connection dropped, or the caller cancelled meanwhile).
      throw fail(signal?.aborted ? 'http.aborted' : 'http.networkError', {
        aborted: signal?.aborted ?? false,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }
  return config.track(request());
}

/** GET `path` with `query` as a query string; resolves with the envelope's `data`. */
export function get<T>(path: string, query?: Query, options: RequestOptions = {}): Promise<T> {
  return send(path, { method: 'GET', query }, options) as Promise<T>;
}

/** POST `body` as JSON; resolves with the envelope's `data`. */
export function post<T>(path: string, body?: object, options: RequestOptions = {}): Promise<T> {
  return send(path, { method: 'POST', body }, options) as Promise<T>;
}

/**
 * GET a file; resolves with the body as it is (a Blob), no envelope. HTTP failures follow the
 * same policy as other calls.
 */
export function download(path: string, query?: Query, options: RequestOptions = {}): Promise<Blob> {
  return send(path, { method: 'GET', query, blob: true }, options) as Promise<Blob>;
}

/** A download link carrying the token as a query parameter (spec §7: the recharge-card export). */
export function downloadUrl(path: string, query?: Query): string {
  return apiUrl(path, { ...query, token: tokenStore.get() ?? undefined });
}
