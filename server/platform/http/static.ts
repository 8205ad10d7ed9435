import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inlineScriptHashes } from './security-headers';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * The inline scripts' CSP hashes of the built console's pages: login.html's (the pre-rendered
 * copy's variant picker) and index.html's (a signed-in page's route preloads,
 * build/preload-routes.ts).
 */
export function consoleScriptHashes(dir: string): string[] {
  return ['login.html', 'index.html'].flatMap((page) => {
    const file = path.join(dir, page);
    return fs.existsSync(file) ? inlineScriptHashes(fs.readFileSync(file, 'utf8')) : [];
  });
}

/** True when `dir` holds a built console (an index.html). */
export function hasConsoleBuild(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'index.html'));
}

/**
 * Serves the built console: Vite's hashed files under /assets/ are cached for a year
 * (`immutable`); index.html and other unhashed files are revalidated on every use (`no-cache`,
 * with ETag/Last-Modified), so a new build shows at once.
 */
export async function registerConsole(app: FastifyInstance, root: string): Promise<void> {
  const assetsDir = path.join(root, 'assets') + path.sep;
  // A hashed asset never changes: validators (ETag, Last-Modified) and ranges serve no purpose.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/assets/') && reply.statusCode === 200) {
      reply.removeHeader('etag');
      reply.removeHeader('last-modified');
      reply.removeHeader('accept-ranges');
    }
    return payload;
  });
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: true,
    // The build writes .br and .gz beside each asset (vite.config.ts): sent as they are.
    preCompressed: true,
    cacheControl: false,
    allowedPath: (pathName) => !pathName.startsWith('/api/') && pathName !== '/api',
    setHeaders: (res, filePath) => {
      res.setHeader('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
      res.setHeader('vary', 'accept-encoding');
    },
  });
}

/**
 * The SPA fallback: a page path the server does not know (/login, /home/index…) gets index.html
 * so the console's router can show it. Paths that look like files (an extension, /assets/) stay 404.
 */
export function isSpaPath(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0];
  return !pathname.startsWith('/assets/') && !/\.[A-Za-z0-9]+$/.test(pathname);
}

/** The console's pages as text, read again when their file changes (a new build). */
const pageTexts = new Map<string, { mtimeMs: number; text: string }>();

function pageText(file: string): string {
  const { mtimeMs } = fs.statSync(file);
  const known = pageTexts.get(file);
  if (known && known.mtimeMs === mtimeMs) return known.text;
  const text = fs.readFileSync(file, 'utf8');
  pageTexts.set(file, { mtimeMs, text });
  return text;
}

/**
 * The page for an SPA path: index.html, or for /login the login page pre-rendered at build time
 * (login.html, when the build has one): a signed-out visitor sees it before the scripts run.
 * `rootStyle` (a branded host's theme colour as CSS variables, src/api/contract/brand-palette.ts)
 * is written on its `<html>`, so the first frame has the domain's colour before any script or
 * system-info answer; without one the built file is sent as it is (pre-compressed).
 */
export function sendConsoleIndex(
  request: FastifyRequest,
  reply: FastifyReply,
  root: string,
  rootStyle = '',
) {
  const pathname = request.url.split('?')[0];
  const page =
    pathname === '/login' && fs.existsSync(path.join(root, 'login.html'))
      ? 'login.html'
      : 'index.html';
  reply.header('cache-control', REVALIDATE).header('vary', 'accept-encoding');
  if (!/^[-\w:;#(),.% ]+$/.test(rootStyle)) return reply.sendFile(page);
  const html = pageText(path.join(root, page)).replace(
    /<html([^>]*)>/,
    (_, attributes: string) => `<html${attributes} style="${rootStyle}">`,
  );
  return reply.type('text/html; charset=utf-8').send(html);
}
