import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { createEmbeddedQueue } from '../../server/platform/jobs/embedded';
import { createTestDatabase } from './helpers';
import { defineQueueSuite } from './job-queue-suite';

defineQueueSuite('the embedded adapter on SQLite', async () => {
  const database = await createTestDatabase('sqlite');
  const handles: DbHandle[] = [];
  return {
    open: (timing) => {
      // Each queue on its own connection, as another process would be.
      const handle = openDatabase({ dataDir: database.dataDir });
      handles.push(handle);
      return createEmbeddedQueue({ ...handle, timing });
    },
    childEnv: { JOBS_DATA_DIR: database.dataDir },
    close: async () => {
      await Promise.all(handles.map((handle) => handle.close()));
      await database.drop();
    },
  };
});
