// What every bench server does once built (api-server.ts, resource-server.ts): listen on a free
// loopback port, print `BENCH_SERVER_PORT=<port>` for the load generator, and close the app and
// its database on SIGTERM / SIGINT.
import type { FastifyInstance } from 'fastify';

export async function serveBench(
  app: FastifyInstance,
  handle: { close(): Promise<void> },
): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`BENCH_SERVER_PORT=${port}`);
  const stop = async () => {
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
