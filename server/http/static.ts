import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

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

export function sendConsoleIndex(reply: FastifyReply) {
  return reply.header('cache-control', REVALIDATE).sendFile('index.html');
}
