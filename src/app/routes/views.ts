import type { ComponentType } from 'react';
import { withLaterTheme } from './lazy';

type Lazy = () => Promise<{ Component: ComponentType }>;

/** A lazily loaded view, with the recipes of the views that are not on the first page (lazy.ts). */
const view = (load: () => Promise<{ default: ComponentType }>): Lazy =>
  withLaterTheme(() => load().then((m) => ({ Component: m.default })));

const notBuilt = view(() => import('../../views/placeholder/not-built-page'));
const exception = (code: 'Exception403' | 'Exception404' | 'Exception500') =>
  view(() => import('../../views/exception/exception-page').then((m) => ({ default: m[code] })));

/** Route name → lazily loaded view. Routes that later issues build show the "not built yet" page. */
export const VIEWS: Record<string, Lazy> = {
  // The first page: its recipes are in the first half (theme-recipes.ts); preloaded with the entry.
  login: () => import('../../views/login/login-page').then((m) => ({ Component: m.default })),
  home: view(() => import('../../views/home/home-page')),
  workBench: view(() => import('../../views/dashboard/work-bench-page')),
  userInfo: view(() => import('../../views/user/user-info-page')),
  userSetting: view(() => import('../../views/user/user-setting-page')),
  resource: view(() => import('../../views/creation/resource-page')),
  // Video tasks (issue 13). mixedshear (the clip editor) is the forms helper's page.
  toCreateVideo: view(() => import('../../views/dashboard/to-create-video-page')),
  mixedTask: view(() => import('../../views/creation/mixed-task-page')),
  clip: view(() => import('../../views/creation/clip-page')),
  mixedshear: view(() => import('../../views/creation/mixedshear-page')),
  property: view(() => import('../../views/account/property-page')),
  recharge: view(() => import('../../views/account/recharge-page')),
  rechargeOrder: view(() => import('../../views/account/recharge-order-page')),
  cardPassword: view(() => import('../../views/promotion/card-password-page')),
  merchant: view(() => import('../../views/promotion/merchant-page')),
  allMerchant: view(() => import('../../views/promotion/all-merchant-page')),
  partner: view(() => import('../../views/promotion/partner-page')),
  agent: view(() => import('../../views/promotion/agent-page')),
  tree: view(() => import('../../views/promotion/customer-tree-page')),
  exception403: exception('Exception403'),
  exception404: exception('Exception404'),
  exception500: exception('Exception500'),
  notFound: exception('Exception404'),
};

export function viewFor(name: string): Lazy {
  return VIEWS[name] ?? notBuilt;
}
