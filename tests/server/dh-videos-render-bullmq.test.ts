import { describe, it } from 'vitest';
import { defineDhRenderSuite } from './dh-videos-render-suite';

if (process.env.TEST_REDIS_URL) {
  defineDhRenderSuite('bullmq');
} else {
  describe('digital-human videos on BullMQ (Redis)', () => {
    it.skip('needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379; .ci/run sets it)', () => undefined);
  });
}
