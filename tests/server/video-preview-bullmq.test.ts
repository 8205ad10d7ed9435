import { describe, it } from 'vitest';
import { definePreviewSuite } from './video-preview-suite';

if (process.env.TEST_REDIS_URL) {
  definePreviewSuite('bullmq', false);
} else {
  describe('previews on BullMQ (Redis)', () => {
    it.skip('needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379; .ci/run sets it)', () => undefined);
  });
}
