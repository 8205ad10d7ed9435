/** The auth paths through the real UI (auth-view-paths.tsx), starting with no token. */
import { expect, test, vi } from 'vitest';
import { rowsNotTaken, sessionPaths } from './auth-view-paths';

vi.mock('../../src/api/http', async (real) =>
  (await import('./auth-http-hooks')).keepingHooks(await real()),
);

sessionPaths('no token');

test('every row of the table is a step of some path (the three starts together)', () => {
  expect(rowsNotTaken()).toEqual([]);
});
