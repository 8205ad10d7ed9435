import type { AddressInfo } from 'node:net';
import { createFileStorage } from '../../server/platform/storage/create';
import { createTestApp } from './helpers';
import { storageContract } from './storage-contract';

// The local disk adapter, its signed URLs served by the real app listening on a random port.
storageContract(
  'local disk (DATA_DIR/files), read through GET /api/v1/files/…',
  'local',
  async () => {
    const t = await createTestApp('sqlite', { seed: false });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    return {
      // The app's environment storage (the same directory and URL key the app serves from).
      storage: createFileStorage(t.app.ctx.config, t.clock),
      clock: t.clock,
      absolute: (url) => `http://127.0.0.1:${port}${url}`,
      refusedStatus: 404,
      close: async () => {
        // Replies the tests did not read to the end keep their connections busy.
        t.app.server.closeAllConnections();
        await t.close();
      },
    };
  },
);
