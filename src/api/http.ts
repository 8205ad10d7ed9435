/**
 * The one HTTP client (docs/domain.md §15–16) on superagent: base URL, `token` / `platform` / `lang` headers,
 * the `{code, msg, data}` envelope and the error policy. It imports no machine and no React: what
 * the user sees (toasts, the logout modals) goes through callbacks given to `configureHttp`, which
 * the app wires to the auth actor and the toaster.
 */
import superagent from 'superagent';
import { ReplyCode, SERVER_LOGOUT_CODES } from './contract/reply-codes';
import { STORAGE_KEYS } from './contract/storage-keys';
import { dropEarly, earlyKey, keepEarly, takeEarly, type EarlyReply } from './http-early';

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
  // A change of token forgets the requests sent early (http-early.ts): none is read in another session.
  setLocal(token: string): void {
    dropEarly();
    storage('local')?.setItem(TOKEN_KEY, token);
  },
  setSession(token: string): void {
    dropEarly();
    storage('session')?.setItem(TOKEN_KEY, token);
  },
  /** Removes the token of one storage, or of both without an argument. */
  clear(kind?: TokenKind): void {
    dropEarly();
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

/** Back to the defaults, nothing kept from early (tests). */
export function resetHttp(): void {
  config = { ...defaults };
  dropEarly();
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
  /** Milliseconds; none by default (docs/domain.md §17: timeout 0). */
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

type Req = superagent.Request;

function withHeaders(req: Req): void {
  const token = tokenStore.get();
  if (token) req.set('token', token);
  req.set('platform', 'pc');
  const lang = config.locale();
  if (lang) req.set('lang', lang);
}

interface ResponseLike {
  status?: number;
  body?: unknown;
}

interface TransportError extends Error {
  status?: number;
  code?: string;
  timeout?: number;
  crossDomain?: boolean;
  response?: ResponseLike;
}

function envelopeOf(body: unknown): { code: number; msg: string; data: unknown } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { code, msg, data } = body as Record<string, unknown>;
  if (typeof code !== 'number') return null;
  return { code, msg: typeof msg === 'string' ? msg : '', data };
}

/** The message id of a failure without a usable reply body (docs/domain.md §15's generic client errors). */
export function transportMessageId(error: TransportError): string {
  const text = `${error.code ?? ''} ${error.message ?? ''}`.toLowerCase();
  if (
    error.timeout !== undefined ||
    error.code === 'ECONNABORTED' ||
    /timeout|timed out/.test(text)
  )
    return 'http.timeout';
  if (error.code === 'ABORTED' || /aborted/.test(text)) return 'http.aborted';
  if (
    error.crossDomain ||
    (!error.response &&
      /econnrefused|econnreset|enotfound|eai_again|socket hang up|network|terminated|offline/.test(
        text,
      ))
  )
    return 'http.networkError';
  return 'http.requestError';
}

/** Reads a `{msg}` out of an error body, including a Blob/bytes body of a download. */
async function bodyMsg(body: unknown): Promise<string | null> {
  let value = body;
  try {
    if (typeof Blob !== 'undefined' && value instanceof Blob)
      value = JSON.parse(await value.text());
    // Node bytes (a Buffer, maybe from another realm than this Uint8Array)
    else if (ArrayBuffer.isView(value)) value = JSON.parse(new TextDecoder().decode(value));
  } catch {
    return null;
  }
  const env = envelopeOf(value);
  if (env?.msg) return env.msg;
  if (typeof value === 'object' && value !== null) {
    const msg = (value as { msg?: unknown }).msg;
    if (typeof msg === 'string' && msg) return msg;
  }
  return null;
}

function showError(text: string): void {
  config.notify({ type: 'error', text, durationMs: ERROR_TOAST_MS });
}

/** Applies the error policy of docs/domain.md §15 to a failed request and returns the error to reject with. */
async function failure(
  path: string,
  error: TransportError,
  hadSessionToken: boolean,
  signal?: AbortSignal,
  quiet = false,
): Promise<ApiError> {
  const status = error.response?.status ?? error.status ?? null;
  if (status === 401) {
    config.unauthorized({ hadSessionToken });
    const msg = (await bodyMsg(error.response?.body)) ?? 'http.loginExpired';
    return new ApiError({ kind: 'unauthorized', msg, path, status, code: null });
  }
  if (signal?.aborted) {
    // The caller cancelled (e.g. the view went away): nothing to tell the user.
    return new ApiError({ kind: 'transport', msg: 'http.aborted', path, status, aborted: true });
  }
  const fromBody = error.response ? await bodyMsg(error.response.body) : null;
  const msg = fromBody ?? transportMessageId(error);
  if (!quiet) showError(msg);
  const code = envelopeOf(error.response?.body)?.code ?? null;
  return new ApiError({ kind: 'transport', msg, path, status, code });
}

type Method = 'GET' | 'POST';

/** A call with an envelope: its method, path and query (GET) or JSON body (POST). */
interface Call {
  method: Method;
  path: string;
  data?: Query | object;
}

/** The call's URL, with the query of a GET. */
const urlOf = (call: Call) =>
  apiUrl(call.path, call.method === 'GET' ? (call.data as Query | undefined) : undefined);

function requestOf(call: Call): Req {
  return call.method === 'GET'
    ? superagent.get(urlOf(call))
    : // An empty JSON object rather than no body: the server parses every POST as JSON.
      superagent.post(urlOf(call)).send(call.data ?? {});
}

/** The call's identity as it would be sent now, with the token and locale (http-early.ts). */
const keyOf = (call: Call) =>
  earlyKey(
    call.method,
    urlOf(call),
    call.method === 'POST' ? JSON.stringify(call.data ?? {}) : '',
    tokenStore.get(),
    config.locale(),
  );

/**
 * Sends `call` now, before the code that needs it runs (main.tsx: the session check), and keeps
 * it for the first identical call, which reads its reply (http-early.ts).
 */
export function sendEarly(call: Call): void {
  keepEarly(keyOf(call), deliver(requestOf(call), {}));
}

/** A reply kept early, for a reader that may cancel: then it fails as an aborted request does. */
function readEarly(early: Promise<EarlyReply>, signal?: AbortSignal): Promise<EarlyReply> {
  if (!signal) return early;
  return new Promise((resolve, reject) => {
    const abort = () => reject(Object.assign(new Error('Aborted'), { code: 'ABORTED' }));
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    early.then(resolve, reject);
  });
}

/** Sends `req` with the headers, the timeout and the caller's abort signal. */
function deliver(req: Req, options: RequestOptions): Promise<EarlyReply> {
  req.use(withHeaders);
  if (options.timeoutMs) req.timeout(options.timeoutMs);
  if (options.headers) req.set(options.headers);
  const { signal } = options;
  if (signal) {
    if (signal.aborted) req.abort();
    // Braces matter: returning the thenable request from the listener rejects unhandled in Node.
    else
      signal.addEventListener(
        'abort',
        () => {
          req.abort();
        },
        { once: true },
      );
  }
  return req;
}

/**
 * Sends `call` (or, with `raw`, that request as it is, no envelope) and applies the error policy.
 * A plain call (no timeout, no extra headers) sent early is read instead of sent again.
 */
function send(call: Call, options: RequestOptions, raw?: Req): Promise<unknown> {
  const { path } = call;
  const hadSessionToken = tokenStore.hasSessionToken();
  const early = raw || options.timeoutMs || options.headers ? undefined : takeEarly(keyOf(call));
  const outcome = early
    ? readEarly(early, options.signal)
    : deliver(raw ?? requestOf(call), options);
  const reply = outcome.then(
    (res) => {
      if (raw) return res.body;
      const env = envelopeOf(res.body);
      if (!env) {
        if (!options.quiet) showError('http.requestError');
        throw new ApiError({
          kind: 'transport',
          msg: 'http.requestError',
          path,
          status: res.status,
        });
      }
      if (env.code === ReplyCode.SUCCESS) return env.data;
      const msg = env.msg || 'http.error';
      if (!options.quiet) showError(msg);
      if (SERVER_LOGOUT_CODES.includes(env.code) && path !== USER_INFO_PATH) {
        config.serverLogout(env.code);
      }
      throw new ApiError({ kind: 'reply', msg, path, code: env.code, status: res.status });
    },
    async (error: TransportError) => {
      throw await failure(path, error, hadSessionToken, options.signal, options.quiet);
    },
  );
  return config.track(reply);
}

/** GET `path` with `query` as a query string; resolves with the envelope's `data`. */
export function get<T>(path: string, query?: Query, options: RequestOptions = {}): Promise<T> {
  return send({ method: 'GET', path, data: query }, options) as Promise<T>;
}

/** POST `body` as JSON; resolves with the envelope's `data`. */
export function post<T>(path: string, body?: object, options: RequestOptions = {}): Promise<T> {
  return send({ method: 'POST', path, data: body }, options) as Promise<T>;
}

/**
 * GET a file; resolves with the body as it is (a Blob in the browser, bytes in Node), no envelope.
 * HTTP failures follow the same policy as other calls.
 */
export function download(path: string, query?: Query, options: RequestOptions = {}): Promise<Blob> {
  const call: Call = { method: 'GET', path, data: query };
  return send(call, options, superagent.get(urlOf(call)).responseType('blob')) as Promise<Blob>;
}

/** A download link carrying the token as a query parameter (docs/domain.md §21: the recharge-card export). */
export function downloadUrl(path: string, query?: Query): string {
  return apiUrl(path, { ...query, token: tokenStore.get() ?? undefined });
}
