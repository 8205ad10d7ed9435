import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';
import { createBullQueue } from '../../server/platform/jobs/bullmq';
import { defineQueueSuite } from './job-queue-suite';

const REDIS_URL = process.env.TEST_REDIS_URL;

if (REDIS_URL) {
  defineQueueSuite('BullMQ (Redis)', async () => {
    // Its own key prefix: other files and runs share the Redis.
    const prefix = `vc-test-${randomBytes(4).toString('hex')}`;
    return {
      open: (timing) => createBullQueue({ url: REDIS_URL, prefix, timing }),
      childEnv: { JOBS_REDIS_URL: REDIS_URL, JOBS_PREFIX: prefix },
      close: async () => {
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      },
    };
  });
} else {
  describe('the job runner on BullMQ (Redis)', () => {
    it.skip('needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379; .ci/run sets it)', () => undefined);
  });
}
