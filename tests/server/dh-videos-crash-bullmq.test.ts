import { describe, it } from 'vitest';
import { defineDhCrashSuite } from './dh-videos-crash-suite';

if (process.env.TEST_REDIS_URL) {
  defineDhCrashSuite('bullmq');
} else {
  describe('kill -9 of a worker making a digital-human video on BullMQ (Redis)', () => {
    it.skip('needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379; .ci/run sets it)', () => undefined);
  });
}
