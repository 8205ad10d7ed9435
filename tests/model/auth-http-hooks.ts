import type * as HttpModule from '../../src/api/http';
import type { HttpConfig } from '../../src/api/http';

/**
 * The HTTP layer's hooks as createAppActors wires them: how another call's reply code 50008 or
 * HTTP 401 reaches the session (auth-view-paths.tsx). A file that uses them replaces the module:
 *
 *   vi.mock('../../src/api/http', async (real) =>
 *     (await import('./auth-http-hooks')).keepingHooks(await real()));
 */
export const httpHooks: Partial<HttpConfig> = {};

export function keepingHooks(real: typeof HttpModule): typeof HttpModule {
  return {
    ...real,
    configureHttp: (options: Partial<HttpConfig>) => {
      Object.assign(httpHooks, options);
      real.configureHttp(options);
    },
  };
}
