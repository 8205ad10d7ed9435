import { describe, it } from 'vitest';
import { defineCloneJobSuite } from './dh-clones-jobs-suite';

if (process.env.TEST_REDIS_URL) {
  defineCloneJobSuite('bullmq');
} else {
  describe('clone jobs on BullMQ (Redis)', () => {
    it.skip('needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379; .ci/run sets it)', () => undefined);
  });
}
