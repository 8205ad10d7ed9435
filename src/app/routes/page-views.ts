/**
 * The views of the signed-in pages: route name → lazily loaded view. One chunk the router loads
 * with the session (views.ts `loadPageViews`, awaited by the guard beside the shell), so the entry
 * that /login downloads does not grow with every page built: each page's lazy import carries the
 * list of chunks it preloads, ≈ 0.1 KB a page. Routes that later issues build show the "not built
 * yet" page.
 */
import { view, type Lazy } from './lazy';

const notBuilt = view(() => import('../../views/placeholder/not-built-page'));

const VIEWS: Record<string, Lazy> = {
  home: view(() => import('../../views/home/home-page')),
  workBench: view(() => import('../../views/dashboard/work-bench-page')),
  userInfo: view(() => import('../../views/user/user-info-page')),
  userSetting: view(() => import('../../views/user/user-setting-page')),
  resource: view(() => import('../../views/creation/resource-page')),
  // Video tasks (issue 13); mixedshear is the clip editor.
  toCreateVideo: view(() => import('../../views/dashboard/to-create-video-page')),
  mixedTask: view(() => import('../../views/creation/mixed-task-page')),
  clip: view(() => import('../../views/creation/clip-page')),
  mixedshear: view(() => import('../../views/creation/mixedshear-page')),
  // Digital-human videos (issue 14); create-video and my-creation are hidden routes.
  digitalVideo: view(() => import('../../views/digital-human/digital-video-page')),
  createVideo: view(() => import('../../views/digital-human/create-video-page')),
  myCreation: view(() => import('../../views/digital-human/my-creation-page')),
  property: view(() => import('../../views/account/property-page')),
  recharge: view(() => import('../../views/account/recharge-page')),
  rechargeOrder: view(() => import('../../views/account/recharge-order-page')),
  cardPassword: view(() => import('../../views/promotion/card-password-page')),
  merchant: view(() => import('../../views/promotion/merchant-page')),
  allMerchant: view(() => import('../../views/promotion/all-merchant-page')),
  partner: view(() => import('../../views/promotion/partner-page')),
  agent: view(() => import('../../views/promotion/agent-page')),
  tree: view(() => import('../../views/promotion/customer-tree-page')),
  // Digital-human clones (issue 14).
  imageClone: view(() => import('../../views/digital-human/image-clone-page')),
  soundClone: view(() => import('../../views/digital-human/sound-clone-page')),
  voiceRecord: view(() => import('../../views/digital-human/voice-record-page')),
};

export function pageView(name: string): Lazy {
  return VIEWS[name] ?? notBuilt;
}
