import { describe, it } from 'vitest';
import { defineCrashSuite } from './video-tasks-crash-suite';

if (process.env.TEST_REDIS_URL) {
  defineCrashSuite('bullmq');
} else {
  describe('kill -9 of a rendering worker on BullMQ (Redis)', () => {
    it.skip('needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379; .ci/run sets it)', () => undefined);
  });
}
