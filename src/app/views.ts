import type { ComponentType } from 'react';

type Lazy = () => Promise<{ Component: ComponentType }>;

const notBuilt: Lazy = () =>
  import('../views/placeholder/not-built-page').then((m) => ({ Component: m.default }));

/** Route name → lazily loaded view. Routes that later issues build show the "not built yet" page. */
export const VIEWS: Record<string, Lazy> = {
  login: () => import('../views/login/login-page').then((m) => ({ Component: m.default })),
  home: () => import('../views/home/home-page').then((m) => ({ Component: m.default })),
  workBench: () =>
    import('../views/dashboard/work-bench-page').then((m) => ({ Component: m.default })),
  userInfo: () => import('../views/user/user-info-page').then((m) => ({ Component: m.default })),
  userSetting: () =>
    import('../views/user/user-setting-page').then((m) => ({ Component: m.default })),
  exception403: () =>
    import('../views/exception/exception-page').then((m) => ({ Component: m.Exception403 })),
  exception404: () =>
    import('../views/exception/exception-page').then((m) => ({ Component: m.Exception404 })),
  exception500: () =>
    import('../views/exception/exception-page').then((m) => ({ Component: m.Exception500 })),
  notFound: () =>
    import('../views/exception/exception-page').then((m) => ({ Component: m.Exception404 })),
};

export function viewFor(name: string): Lazy {
  return VIEWS[name] ?? notBuilt;
}
