/**
 * The views of the signed-in pages: route name → lazily loaded view. One chunk the router loads
 * with the session (views.ts `loadPageViews`, awaited by the guard beside the shell), so the entry
 * that /login downloads does not grow with every page built: each page's lazy import carries the
 * list of chunks it preloads, ≈ 0.1 KB a page. Routes that later issues build show the "not built
 * yet" page.
 *
 * A page of a large area names the catalogue parts its texts are in (src/i18n/messages.ts): the
 * view renders once they are in, in the shown locale. tests/unit/catalogue-parts.test.ts checks
 * that every id a page's code can show is in the signed-out or signed-in part or in those.
 */
import { localeStore } from '../../i18n/locale-store';
import { loadMessageParts, type AreaPart } from '../../i18n/messages';
import { view, type Lazy } from './lazy';

/** A page's view, loaded with these parts of the catalogue. */
function page(load: Parameters<typeof view>[0], ...parts: AreaPart[]): Lazy {
  const loadView = view(load);
  return () =>
    Promise.all([loadView(), loadMessageParts(parts, localeStore.get())]).then(
      ([loaded]) => loaded,
    );
}

const notBuilt = view(() => import('../../views/placeholder/not-built-page'));

const VIEWS: Record<string, Lazy> = {
  home: view(() => import('../../views/home/home-page')),
  workBench: view(() => import('../../views/dashboard/work-bench-page')),
  userInfo: view(() => import('../../views/user/user-info-page')),
  // Its notifications and defaults card's texts are the settings part's.
  userSetting: page(() => import('../../views/user/user-setting-page'), 'settings'),
  resource: page(() => import('../../views/creation/resource-page'), 'creation'),
  // Video tasks; mixedshear is the clip editor.
  toCreateVideo: view(() => import('../../views/dashboard/to-create-video-page')),
  mixedTask: page(() => import('../../views/creation/mixed-task-page'), 'creation'),
  clip: page(() => import('../../views/creation/clip-page'), 'creation'),
  mixedshear: page(() => import('../../views/creation/mixedshear-page'), 'creation'),
  // Digital-human videos; create-video and my-creation are hidden routes.
  digitalVideo: page(
    () => import('../../views/digital-human/digital-video-page'),
    'creation',
    'digital-human',
  ),
  createVideo: page(
    () => import('../../views/digital-human/create-video-page'),
    'creation',
    'digital-human',
  ),
  myCreation: page(
    () => import('../../views/digital-human/my-creation-page'),
    'creation',
    'digital-human',
  ),
  // Video templates (the resource picker's texts are the creation part's).
  videoTemplate: page(
    () => import('../../views/digital-human/video-template-page'),
    'creation',
    'digital-human',
  ),
  property: page(() => import('../../views/account/property-page'), 'money'),
  recharge: page(() => import('../../views/account/recharge-page'), 'money'),
  rechargeOrder: page(() => import('../../views/account/recharge-order-page'), 'money'),
  cardPassword: page(() => import('../../views/promotion/card-password-page'), 'money'),
  merchant: page(() => import('../../views/promotion/merchant-page'), 'money'),
  allMerchant: page(() => import('../../views/promotion/all-merchant-page'), 'money'),
  partner: page(() => import('../../views/promotion/partner-page'), 'money'),
  agent: page(() => import('../../views/promotion/agent-page'), 'money'),
  tree: page(() => import('../../views/promotion/customer-tree-page'), 'money'),
  // Digital-human clones.
  imageClone: page(
    () => import('../../views/digital-human/image-clone-page'),
    'creation',
    'digital-human',
  ),
  soundClone: page(
    () => import('../../views/digital-human/sound-clone-page'),
    'creation',
    'digital-human',
  ),
  voiceRecord: page(
    () => import('../../views/digital-human/voice-record-page'),
    'money',
    'creation',
    'digital-human',
  ),
  // Matrix distribution: the authorised accounts (group names use the creation part's rule).
  authorization: page(() => import('../../views/matrix/authorization-page'), 'creation', 'matrix'),
  // Release plans (the video picker's texts are the creation part's).
  releasePlan: page(() => import('../../views/matrix/release-plan-page'), 'creation', 'matrix'),
  // The published posts' numbers (totals, per day, per account, top posts, CSV export).
  videoData: page(() => import('../../views/matrix/video-data-page'), 'matrix'),
  // The audit log viewer (admin: every row; partner: its subtree's).
  auditLog: page(() => import('../../views/account/audit-page'), 'audit'),
  // The vendors' settings (admin).
  systemInit: page(() => import('../../views/account/system-init-page'), 'system-init'),
  // Domains and their brands (admin).
  // (The dialog frame's Retry / Back texts are the money part's.)
  domainList: page(() => import('../../views/domain/domain-list-page'), 'money', 'domains'),
  // Settings and prices (admin: the platform's; partner: its overrides).
  accountSettings: page(() => import('../../views/account/settings-page'), 'settings'),
  // AI tools, industries and scripts (admin).
  aiToolIndex: page(() => import('../../views/ai-tool/ai-tool-page'), 'ai-tool'),
  // Articles and agreements (the editor is a chunk of its own, fetched with its dialog).
  article: page(() => import('../../views/content/article-page'), 'content'),
  agreement: page(() => import('../../views/content/agreement-page'), 'content'),
};

export function pageView(name: string): Lazy {
  return VIEWS[name] ?? notBuilt;
}
