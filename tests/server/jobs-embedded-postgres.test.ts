import { describe, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { createEmbeddedQueue } from '../../server/platform/jobs/embedded';
import { createTestDatabase } from './helpers';
import { defineQueueSuite } from './job-queue-suite';

if (process.env.TEST_DATABASE_URL) {
  defineQueueSuite('the embedded adapter on PostgreSQL', async () => {
    const database = await createTestDatabase('postgres');
    const handles: DbHandle[] = [];
    const where = {
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl!,
      pgSchema: database.pgSchema!,
    };
    return {
      open: (timing) => {
        const handle = openDatabase(where);
        handles.push(handle);
        return createEmbeddedQueue({ ...handle, timing });
      },
      childEnv: {
        JOBS_DATA_DIR: where.dataDir,
        JOBS_DATABASE_URL: where.databaseUrl,
        JOBS_PG_SCHEMA: where.pgSchema,
      },
      close: async () => {
        await Promise.all(handles.map((handle) => handle.close()));
        await database.drop();
      },
    };
  });
} else {
  describe('the job runner on the embedded adapter on PostgreSQL', () => {
    it.skip('needs TEST_DATABASE_URL (a PostgreSQL database for the tests)', () => undefined);
  });
}
