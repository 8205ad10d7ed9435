import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnyActorRef } from 'xstate';
import { withSsrLoader } from './ssr-loader.ts';

/**
 * The first data calls of the signed-in pages (docs/architecture.md "Signed-in pages in one wave"),
 * recorded at build time for index.html's inline script (build/preload-routes.ts): each route of
 * src/app/routes/first-calls.ts has its actors started, through Vite's SSR loader with the
 * console's own modules (the areas, their machines and endpoints, the HTTP layer), against a local
 * server that records what they send and never answers. What it records is what the page's
 * actors will ask the HTTP layer for, byte for byte: the URL with its query, the JSON body.
 */

/** A request as index.html's script sends it: method, root-relative URL, JSON body of a POST. */
export type RecordedCall = [method: string, url: string, body?: string];

interface Modules {
  http: { configureHttp(options: { baseUrl: string; locale: () => undefined }): void };
  areas: { createAreaRegistry(): { reset(): void } };
  calls: { FIRST_CALLS: Record<string, (areas: unknown) => readonly AnyActorRef[]> };
}

/** Waits until no request has come for `quietMs` (they are sent at once, as the actors start). */
async function settled(count: () => number, quietMs = 150, maxMs = 5000): Promise<void> {
  const start = Date.now();
  let last = -1;
  while (Date.now() - start < maxMs) {
    if (count() === last) return;
    last = count();
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
  throw new Error('first-calls: the requests never settled');
}

/**
 * Route name → the requests its page's actors send first, with `apiBase` (root-relative, as the
 * build's `VITE_API_BASE` or `/api/v1`) in their URLs.
 */
export async function recordFirstCalls(apiBase: string): Promise<Map<string, RecordedCall[]>> {
  let seen: RecordedCall[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push(req.method === 'GET' ? [req.method, req.url!] : [req.method!, req.url!, body]);
      held.push(res); // never answered: the actors stop before
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    return await withSsrLoader(async (load) => {
      const { http, areas, calls } = {
        http: await load('/src/api/http.ts'),
        areas: await load('/src/app/actors/areas.ts'),
        calls: await load('/src/app/routes/first-calls.ts'),
      } as Modules;
      http.configureHttp({ baseUrl: `${origin}${apiBase}`, locale: () => undefined });
      const recorded = new Map<string, RecordedCall[]>();
      for (const [name, start] of Object.entries(calls.FIRST_CALLS)) {
        seen = [];
        const registry = areas.createAreaRegistry();
        const started = start(registry);
        await settled(() => seen.length);
        registry.reset();
        if (seen.length === 0 || started.length === 0) {
          throw new Error(`first-calls: ${name}'s actors sent nothing`);
        }
        recorded.set(name, seen);
      }
      return recorded;
    });
  } finally {
    held.forEach((res) => res.destroy());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
