import { describe, it } from 'vitest';
import { defineMoneyCrashSuite } from './money-crash-suite';

if (process.env.TEST_DATABASE_URL) {
  defineMoneyCrashSuite('postgres');
} else {
  describe('kill -9 under load on postgres', () => {
    it.skip('needs TEST_DATABASE_URL (a PostgreSQL database for the tests)', () => undefined);
  });
}
