import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A plain file host for the vendor's inputs (what our signed file URLs are in the app): serves
 * the files registered with `add` at random URLs, and counts the fetches.
 */
export async function startFileHost() {
  const files = new Map<string, string>();
  const fetches: string[] = [];
  const server = http.createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    fetches.push(name);
    const file = files.get(name);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    createReadStream(file)
      .on('error', () => res.writeHead(404).end())
      .pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    fetches,
    /** The URL of a local file. */
    add(file: string): string {
      const name = `${randomBytes(8).toString('hex')}${path.extname(file)}`;
      files.set(name, file);
      return `${base}/${name}`;
    },
    /** A URL nobody serves (404). */
    missing: () => `${base}/missing-${randomBytes(4).toString('hex')}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
