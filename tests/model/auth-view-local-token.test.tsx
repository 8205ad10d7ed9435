/** The auth paths through the real UI (auth-view-paths.tsx), starting with a local-storage token. */
import { test, vi } from 'vitest';
import { escapeStaysSignedIn, sessionPaths } from './auth-view-paths';

vi.mock('../../src/api/http', async (real) =>
  (await import('./auth-http-hooks')).keepingHooks(await real()),
);

sessionPaths('a local-storage token');

test(
  'Escape in the "Confirm logout" dialog stays signed in, like the Stay button',
  escapeStaysSignedIn,
  30_000,
);
