import { describe, it } from 'vitest';
import { defineRenderSuite } from './video-tasks-render-suite';

if (process.env.TEST_REDIS_URL) {
  defineRenderSuite('bullmq');
} else {
  describe('video tasks on BullMQ (Redis)', () => {
    it.skip('needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379; .ci/run sets it)', () => undefined);
  });
}
