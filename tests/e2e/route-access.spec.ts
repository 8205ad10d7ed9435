/**
 * The route-access matrix of docs/domain.md §13 for the four roles, in en-US. The expectations are written
 * here as their own table (not derived from the route table's roles); the route table is only
 * used to check that the table covers every route.
 */
import type { Page } from '@playwright/test';
import { ROUTES } from '../../src/app/routes/route-table';
import {
  apiLogin,
  contextWithToken,
  enUS,
  expect,
  heading1,
  type MessageId,
  test,
} from './fixtures';

type Role = 'admin' | 'partner' | 'merchant' | 'agent';
const ROLES: readonly Role[] = ['admin', 'partner', 'merchant', 'agent'];

/** Where a role lands when a route is not for it: its first allowed route (docs/domain.md §13). */
const FIRST_ALLOWED: Record<Role, string> = {
  admin: '/home/index',
  partner: '/dashboard/workBench',
  merchant: '/dashboard/workBench',
  agent: '/user/info',
};

/** Spec §2, role by role: A admin, P partner, M merchant, G agent; '-' not allowed. */
const MATRIX: Record<string, { title: MessageId; access: string }> = {
  '/home/index': { title: 'route.home', access: 'A---' },
  '/dashboard/workBench': { title: 'route.workBench', access: '-PM-' },
  '/dashboard/to-create-video': { title: 'route.toCreateVideo', access: '-PM-' },
  '/creation/resource': { title: 'route.resource', access: '-PM-' },
  '/creation/clip': { title: 'route.clip', access: '-PM-' },
  '/creation/mixed-task': { title: 'route.mixedTask', access: '-PM-' },
  '/creation/mixedshear': { title: 'route.mixedshear', access: '-PM-' },
  '/digital-human/image-clone': { title: 'route.imageClone', access: '-PM-' },
  '/digital-human/sound-clone': { title: 'route.soundClone', access: '-PM-' },
  '/digital-human/digital-video': { title: 'route.digitalVideo', access: '-PM-' },
  '/digital-human/create-video': { title: 'route.createVideo', access: '-PM-' },
  '/digital-human/my-creation': { title: 'route.myCreation', access: '-PM-' },
  '/digital-human/video-template': { title: 'route.videoTemplate', access: 'APM-' },
  '/matrix-distribution/authorization': { title: 'route.authorization', access: '-PM-' },
  '/matrix-distribution/release-plan': { title: 'route.releasePlan', access: '-PM-' },
  '/matrix-distribution/video-data': { title: 'route.videoData', access: '-PM-' },
  '/promotion/all-merchant': { title: 'route.allMerchant', access: 'A---' },
  '/promotion/merchant': { title: 'route.merchant', access: 'AP--' },
  '/promotion/partner': { title: 'route.partner', access: 'AP--' },
  '/promotion/agent': { title: 'route.agent', access: 'AP--' },
  '/promotion/tree': { title: 'route.tree', access: 'AP--' },
  '/promotion/card-password': { title: 'route.cardPassword', access: 'AP--' },
  '/account/settings': { title: 'route.accountSettings', access: 'AP--' },
  '/account/property': { title: 'route.property', access: 'APM-' },
  '/account/voice-record': { title: 'route.voiceRecord', access: 'A---' },
  '/account/recharge': { title: 'route.recharge', access: 'A---' },
  '/account/recharge-order': { title: 'route.rechargeOrder', access: 'AP--' },
  '/account/system-init': { title: 'route.systemInit', access: 'A---' },
  '/account/audit': { title: 'route.auditLog', access: 'AP--' },
  '/domain/domainList': { title: 'route.domainList', access: 'A---' },
  '/protocol/article': { title: 'route.article', access: 'AP--' },
  '/protocol/agreement': { title: 'route.agreement', access: 'AP--' },
  '/ai-tool/ai-tool-index': { title: 'route.aiToolIndex', access: 'A---' },
  '/user/info': { title: 'route.userInfo', access: 'APMG' },
  '/user/setting': { title: 'route.userSetting', access: 'APMG' },
  '/exception/403': { title: 'route.exception403', access: 'A---' },
  '/exception/404': { title: 'route.exception404', access: 'APMG' },
  '/exception/500': { title: 'route.exception500', access: 'APMG' },
};

/** Bare paths that redirect, per role: '/' → /home/index, '/ai-tool' → its index, and so on. */
const REDIRECTS: Record<string, Record<Role, string>> = {
  '/': {
    admin: '/home/index',
    partner: '/dashboard/workBench',
    merchant: '/dashboard/workBench',
    agent: '/user/info',
  },
  '/ai-tool': {
    admin: '/ai-tool/ai-tool-index',
    partner: '/dashboard/workBench',
    merchant: '/dashboard/workBench',
    agent: '/user/info',
  },
  '/dashboard': {
    admin: '/home/index',
    partner: '/dashboard/workBench',
    merchant: '/dashboard/workBench',
    agent: '/user/info',
  },
  '/promotion': {
    admin: '/promotion/merchant',
    partner: '/promotion/merchant',
    merchant: '/dashboard/workBench',
    agent: '/user/info',
  },
  // /redirect/:path re-opens a page (a tab reload) and is never shown itself; the target is
  // guarded like any other route.
  [`/redirect/${encodeURIComponent('/user/info')}`]: {
    admin: '/user/info',
    partner: '/user/info',
    merchant: '/user/info',
    agent: '/user/info',
  },
  // Plain slashes in the path reach the same page (not the not-found page).
  '/redirect/user/info': {
    admin: '/user/info',
    partner: '/user/info',
    merchant: '/user/info',
    agent: '/user/info',
  },
  [`/redirect/${encodeURIComponent('/home/index')}`]: {
    admin: '/home/index',
    partner: '/dashboard/workBench',
    merchant: '/dashboard/workBench',
    agent: '/user/info',
  },
};

const TITLE_OF_LANDING: Record<string, MessageId> = {
  '/home/index': 'route.home',
  '/dashboard/workBench': 'route.workBench',
  '/user/info': 'route.userInfo',
  '/ai-tool/ai-tool-index': 'route.aiToolIndex',
  '/promotion/merchant': 'route.merchant',
};

const EXCEPTION_TEXT: Record<string, string> = {
  '/exception/403': 'Access to this resource on the server is denied',
  '/exception/404': 'Whoops, this page is gone',
  '/exception/500': 'Internal server error',
};

test('the matrix covers every route of the route table', () => {
  const routed = ROUTES.filter((r) => r.requiresAuth && r.group).map((r) => r.path);
  expect(Object.keys(MATRIX).sort()).toEqual([...routed].sort());
});

/**
 * Opens a path inside the running console (history push + popstate, as the router's own links
 * do), so the guard runs without reloading the page: the matrix stays fast.
 */
async function openInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

async function expectLanding(page: Page, path: string, title: MessageId) {
  await page.waitForURL(path);
  await expect(heading1(page)).toHaveText(enUS[title]);
}

test.describe('route access per role (en-US)', () => {
  test.describe.configure({ mode: 'parallel' });

  for (const [index, role] of ROLES.entries()) {
    test(`${role}: every route, the redirects and an unknown path`, async ({
      browser,
      request,
      baseURL,
    }) => {
      test.setTimeout(60_000);
      const context = await contextWithToken(
        browser,
        baseURL!,
        await apiLogin(request, role),
        'en-US',
      );
      const page = await context.newPage();

      // A full load first (the guard's first decision waits for the session to be restored),
      // then every route inside the running console.
      await page.goto('/user/info');
      await expectLanding(page, '/user/info', 'route.userInfo');
      for (const [path, { title, access }] of Object.entries(MATRIX)) {
        await test.step(path, async () => {
          await openInApp(page, path);
          if (access[index] === '-') {
            const landing = FIRST_ALLOWED[role];
            await expectLanding(page, landing, TITLE_OF_LANDING[landing]);
          } else {
            await expectLanding(page, path, title);
            if (EXCEPTION_TEXT[path])
              await expect(page.getByText(EXCEPTION_TEXT[path])).toBeVisible();
          }
        });
      }

      // Opened as URLs (full page loads).
      for (const [path, byRole] of Object.entries(REDIRECTS)) {
        await test.step(`${path} redirects`, async () => {
          await page.goto(path);
          await expectLanding(page, byRole[role], TITLE_OF_LANDING[byRole[role]]);
        });
      }

      await test.step('an unknown path shows the not-found page', async () => {
        await page.goto('/no/such/page');
        await expect(page).toHaveURL('/no/such/page');
        await expect(heading1(page)).toHaveText('404');
        await expect(page.getByText('Whoops, this page is gone')).toBeVisible();
        // Its button leads back to the role's default route.
        await page.getByRole('button', { name: enUS['exception.back'] }).click();
        await expectLanding(page, FIRST_ALLOWED[role], TITLE_OF_LANDING[FIRST_ALLOWED[role]]);
      });

      await test.step('the side menu lists only allowed, non-hidden routes', async () => {
        const links = page.getByRole('navigation').getByRole('link');
        const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
        for (const href of hrefs) {
          expect(MATRIX[href!], `menu entry ${href}`).toBeDefined();
          expect(MATRIX[href!].access[index], `menu entry ${href}`).not.toBe('-');
        }
        for (const unlisted of ['/creation/mixedshear', '/promotion/all-merchant']) {
          expect(hrefs).not.toContain(unlisted);
        }
        // The user centre is listed only for the agent (it may open no other page).
        if (role === 'agent') expect(hrefs).toEqual(['/user/info', '/user/setting']);
        else expect(hrefs).not.toContain('/user/info');
      });
      await context.close();
    });
  }
});
