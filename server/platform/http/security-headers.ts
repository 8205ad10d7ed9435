import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Chakra (emotion) injects <style> elements, so styles need 'unsafe-inline'; scripts never do:
 * the only inline scripts allowed are the build's own, each by its hash (`scriptHashes`).
 */
export function contentSecurityPolicy(scriptHashes: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self'${scriptHashes.map((h) => ` '${h}'`).join('')}`,
    ...OTHER_DIRECTIVES,
  ].join('; ');
}

/** CSP hashes (`sha256-…`) of the inline scripts of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  // Any inline script (attributes allowed: index.html's has an id), not one loaded by `src`.
  return [...html.matchAll(/<script(?![^>]*\ssrc=)(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)].map(
    (m) => `sha256-${createHash('sha256').update(m[1]).digest('base64')}`,
  );
}

const OTHER_DIRECTIVES = [
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** `/api` and everything under it (unknown API paths included). */
export const isApiUrl = (url: string) => url === '/api' || /^\/api[/?]/.test(url);

const SCRIPT_OR_STYLE = /^(application|text)\/(javascript|css)\b/;
const ASSET_HEADERS = { 'x-content-type-options': 'nosniff' };

/** The headers of every document (HTML page, JSON reply). */
export const documentHeaders = (scriptHashes: readonly string[] = []) => ({
  'content-security-policy': contentSecurityPolicy(scriptHashes),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route sets its successful replies' Cache-Control itself (a signed file URL: the file
     * may be kept until the URL expires); its replies that set none (errors) get no-store.
     */
    ownCacheControl?: boolean;
  }
}

/**
 * On every reply, errors and 404s included (onSend runs for all of them); scripts and
 * stylesheets get only `nosniff`; API replies also `Cache-Control: no-store`, except those of a
 * route with `ownCacheControl` that set their own. `scriptHashes`: the
 * inline scripts of the built console (login.html's), allowed by their hashes.
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  scriptHashes: readonly string[] = [],
): void {
  const headers = documentHeaders(scriptHashes);
  app.addHook('onSend', async (request, reply, payload) => {
    // A script or stylesheet is never shown as a document: the document policies (CSP, framing,
    // referrer) mean nothing on it, and on the first page's ~20 files they cost ~6 KB.
    const type = String(reply.getHeader('content-type') ?? '');
    reply.headers(SCRIPT_OR_STYLE.test(type) ? ASSET_HEADERS : headers);
    // API replies hold tokens, card passwords and personal data: no cache (browser, proxy,
    // back/forward) may keep them, whatever the route or outcome — but a signed file URL's
    // file, which only its holder's browser may keep (`private`) until the URL expires.
    const own =
      request.routeOptions.config?.ownCacheControl === true && reply.hasHeader('cache-control');
    if (isApiUrl(request.url) && !own) reply.header('cache-control', 'no-store');
    return payload;
  });
}
