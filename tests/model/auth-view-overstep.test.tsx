/** The auth paths through the real UI (auth-view-paths.tsx), starting with an overstep token. */
import { vi } from 'vitest';
import { sessionPaths } from './auth-view-paths';

vi.mock('../../src/api/http', async (real) =>
  (await import('./auth-http-hooks')).keepingHooks(await real()),
);

sessionPaths('an overstep token');
