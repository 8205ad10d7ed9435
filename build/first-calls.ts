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

/** Waits until requests have come and no other for `quietMs` (all are sent as the actors start). */
async function settled(count: () => number, quietMs = 200, maxMs = 10_000): Promise<void> {
  const start = Date.now();
  let last = 0;
  while (Date.now() - start < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    if (count() > 0 && count() === last) return;
    last = count();
  }
  throw new Error('first-calls: the requests never settled');
}

/**
 * Route name → the requests its page's actors send first, with `apiBase` (root-relative, as the
 * build's `VITE_API_BASE` or `/api/v1`) in their URLs. Every page's actors start at once, each
 * page's on a base URL of its own (`/<page>` before `apiBase`: the HTTP layer reads the base as it
 * builds a request, and the actors build theirs as they start), then the recording waits for
 * the requests to stop coming.
 */
export async function recordFirstCalls(apiBase: string): Promise<Map<string, RecordedCall[]>> {
  const seen: { page: string; call: RecordedCall }[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const [, page, url] = /^\/([^/]+)(\/.*)$/.exec(req.url!)!;
      seen.push({ page, call: req.method === 'GET' ? ['GET', url] : [req.method!, url, body] });
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
      const registries = [];
      for (const [name, start] of Object.entries(calls.FIRST_CALLS)) {
        http.configureHttp({ baseUrl: `${origin}/${name}${apiBase}`, locale: () => undefined });
        const registry = areas.createAreaRegistry();
        registries.push(registry);
        if (start(registry).length === 0) throw new Error(`first-calls: ${name} starts no actor`);
        // Whatever the starts left for later (microtasks) runs on this page's base URL.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await settled(() => seen.length);
      registries.forEach((registry) => registry.reset());
      const recorded = new Map<string, RecordedCall[]>();
      for (const name of Object.keys(calls.FIRST_CALLS)) {
        // In a stable order (they arrive in any): the same build makes the same index.html.
        const sent = seen
          .filter((s) => s.page === name)
          .map((s) => s.call)
          .sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : 1));
        if (sent.length === 0) throw new Error(`first-calls: ${name}'s actors sent nothing`);
        recorded.set(name, sent);
      }
      return recorded;
    });
  } finally {
    held.forEach((res) => res.destroy());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
