/**
 * Early requests (docs/architecture.md "Signed-in pages in one wave"): a request sent before the
 * code that needs it has run — by index.html's inline script (build/preload-script.ts: a page's
 * first data calls) or by the entry (main.tsx: the session check) — is kept here under the exact
 * request (method, URL with its query, body, token, locale) and handed, once, to the first
 * identical request the HTTP layer is asked for (http.ts `send`), which then reads its reply as if
 * it had sent it itself: the same error policy, at that time. A reply that came more than
 * {@link EARLY_TTL_MS} ago is dropped; so is everything on a change of token (http.ts
 * `tokenStore`). A request nobody asks for is never read: no toast, no logout for it.
 */

/**
 * A reply as superagent gives it, which the HTTP layer reads: a 2xx resolves with the status and
 * the parsed body; any other status rejects with them as `status` and `response`, no reply at all
 * rejects without a response.
 */
export interface EarlyReply {
  status: number;
  body: unknown;
}

/** How long a reply that has come stays usable (the list it holds is as old as that). */
export const EARLY_TTL_MS = 10_000;

/**
 * What index.html's inline script sent (build/preload-script.ts): method, URL, body ('' for a
 * GET), token, locale, and the reply as an {@link EarlyReply}; `used`: false once kept here, true
 * once taken.
 */
export interface InlineEarly {
  m: string;
  u: string;
  b: string;
  t: string;
  l: string;
  r: Promise<EarlyReply>;
  used?: boolean;
}

declare global {
  var __early: InlineEarly[] | undefined;
}

interface Kept {
  reply: Promise<EarlyReply>;
  /** When the reply (or failure) came; null while pending. */
  at: number | null;
  from?: InlineEarly;
}

const kept = new Map<string, Kept>();

/** The identity of a request: two requests with one key are the same request. */
export function earlyKey(
  method: string,
  url: string,
  body: string,
  token: string | null,
  locale: string | undefined,
): string {
  return JSON.stringify([method, url, body, token, locale ?? null]);
}

/** Keeps a request sent early for the first identical request (replaces one kept before). */
export function keepEarly(key: string, reply: Promise<EarlyReply>, from?: InlineEarly): void {
  const entry: Kept = { reply, at: null, from };
  const settle = () => {
    entry.at = Date.now();
  };
  reply.then(settle, settle);
  kept.set(key, entry);
}

/** The request kept under `key`, taken (once); none, or one whose reply is too old: undefined. */
export function takeEarly(key: string): Promise<EarlyReply> | undefined {
  const entry = kept.get(key);
  if (!entry) return undefined;
  kept.delete(key);
  if (entry.at !== null && Date.now() - entry.at > EARLY_TTL_MS) return undefined;
  if (entry.from) entry.from.used = true;
  return entry.reply;
}

/** Forgets every kept request (a change of token, a logout; tests). */
export function dropEarly(): void {
  kept.clear();
}

/** Keeps what index.html's inline script sent. */
export function adoptEarly(): void {
  for (const call of globalThis.__early ?? []) {
    if (call.used !== undefined) continue; // kept already
    call.used = false;
    keepEarly(earlyKey(call.m, call.u, call.b, call.t, call.l), call.r, call);
  }
}
