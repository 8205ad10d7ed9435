// @vitest-environment node
/**
 * The route guard's decisions as tables, one per rule of docs/domain.md §13. Expected answers are written
 * out here from the spec, not read from the route table.
 */
import { describe, expect, test } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { Role } from '../../src/api/contract/roles';
import type { AuthSummary, TokenKind } from '../../src/machines/auth';
import { guardMachine, NOT_FOUND_PATH, type GuardDecision } from '../../src/machines/guard';

const ANONYMOUS: AuthSummary = {
  signedIn: false,
  role: null,
  showClipMenu: 1,
  tokenKind: null,
  overstepFailed: false,
};
const signedIn = (role: Role, extra: Partial<AuthSummary> = {}): AuthSummary => ({
  signedIn: true,
  role,
  showClipMenu: 1,
  tokenKind: 'local',
  overstepFailed: false,
  ...extra,
});

interface Navigation {
  path: string;
  auth: AuthSummary;
  tokenKind?: TokenKind | null;
  menuFromServer?: boolean;
  /** The server menu's route names, or 'fails'. */
  menu?: string[] | 'fails';
  /** What the auth actor reports after an overstep, or 'fails'. */
  overstep?: AuthSummary | 'fails';
}

async function decide(nav: Navigation) {
  const [pathname, query = ''] = nav.path.split('?');
  const asked = { overstep: [] as number[], menu: 0 };
  const actor = createActor(
    guardMachine.provide({
      actors: {
        waitForAuth: fromPromise(async () => nav.auth),
        overstep: fromPromise(async ({ input }) => {
          asked.overstep.push(input.merchantId);
          if (nav.overstep === 'fails' || !nav.overstep) throw new Error('refused');
          return nav.overstep;
        }),
        waitForMenu: fromPromise(async () => {
          asked.menu += 1;
          if (nav.menu === 'fails') throw new Error('menu failed');
          return nav.menu ?? [];
        }),
      },
    }),
    {
      input: {
        pathname,
        search: query ? `?${query}` : '',
        tokenKind: nav.tokenKind === undefined ? nav.auth.tokenKind : nav.tokenKind,
        menuFromServer: nav.menuFromServer ?? false,
      },
    },
  );
  actor.start();
  const decision: GuardDecision = await toPromise(actor);
  return { decision, asked };
}

const allow: GuardDecision = { type: 'allow' };
const to = (path: string): GuardDecision => ({ type: 'redirect', to: path });

describe('a visitor without a token may reach only login and batchAuthorization', () => {
  test.each([
    ['/login', allow],
    ['/batchAuthorization', allow],
    ['/home/index', to('/login?redirect=%2Fhome%2Findex')],
    ['/user/info?tab=2', to('/login?redirect=%2Fuser%2Finfo%3Ftab%3D2')],
    ['/redirect/home%2Findex', to('/login?redirect=%2Fredirect%2Fhome%252Findex')],
    ['/exception/404', to('/login?redirect=%2Fexception%2F404')],
    ['/no/such/page', to('/login?redirect=%2Fno%2Fsuch%2Fpage')],
  ])('%s → %j', async (path, expected) => {
    expect((await decide({ path, auth: ANONYMOUS })).decision).toEqual(expected);
  });
});

describe('/ and bare group paths redirect to their default page', () => {
  test.each([
    ['/', '/home/index'],
    ['/ai-tool', '/ai-tool/ai-tool-index'],
    ['/dashboard', '/dashboard/workBench'],
    ['/dashboard/', '/dashboard/workBench'],
    ['/creation', '/creation/resource'],
    ['/promotion?x=1', '/promotion/merchant?x=1'],
  ])('%s → %s (for anyone)', async (path, target) => {
    expect((await decide({ path, auth: ANONYMOUS })).decision).toEqual(to(target));
    expect((await decide({ path, auth: signedIn('merchant') })).decision).toEqual(to(target));
  });
});

describe('a logged-in user who opens login goes to the default route', () => {
  test.each([
    ['admin', '/home/index'],
    // The default route is admin-only: the others go to the first route they may open.
    ['partner', '/dashboard/workBench'],
    ['merchant', '/dashboard/workBench'],
    ['agent', '/user/info'],
  ] as const)('%s → %s', async (role, target) => {
    expect((await decide({ path: '/login', auth: signedIn(role) })).decision).toEqual(to(target));
  });

  test('…or back to the page that sent them to login', async () => {
    const back = await decide({ path: '/login?redirect=%2Fuser%2Finfo', auth: signedIn('agent') });
    expect(back.decision).toEqual(to('/user/info'));
    for (const redirect of ['//evil.example', 'https://evil.example', '/login']) {
      const path = `/login?redirect=${encodeURIComponent(redirect)}`;
      expect((await decide({ path, auth: signedIn('admin') })).decision).toEqual(to('/home/index'));
    }
  });

  test('batchAuthorization stays open when logged in', async () => {
    const { decision } = await decide({ path: '/batchAuthorization', auth: signedIn('admin') });
    expect(decision).toEqual(allow);
  });
});

// Spec §2's table, written out again: route → roles ('*' any role).
const A = 'admin';
const P = 'partner';
const M = 'merchant';
const SPEC_ROUTES: [string, readonly string[] | '*'][] = [
  ['/account/settings', [A, P]],
  ['/account/property', [A, P, M]],
  ['/account/voice-record', [A]],
  ['/account/recharge', [A]],
  ['/account/recharge-order', [A, P]],
  ['/account/system-init', [A]],
  ['/account/audit', [A, P]],
  ['/ai-tool/ai-tool-index', [A]],
  ['/creation/resource', [P, M]],
  ['/creation/clip', [P, M]],
  ['/creation/mixed-task', [P, M]],
  ['/creation/mixedshear', [P, M]],
  ['/dashboard/workBench', [P, M]],
  ['/dashboard/to-create-video', [P, M]],
  ['/digital-human/image-clone', [P, M]],
  ['/digital-human/sound-clone', [P, M]],
  ['/digital-human/digital-video', [P, M]],
  ['/digital-human/create-video', [P, M]],
  ['/digital-human/my-creation', [P, M]],
  ['/domain/domainList', [A]],
  ['/exception/403', [A]],
  ['/exception/404', '*'],
  ['/exception/500', '*'],
  ['/home/index', [A]],
  ['/matrix-distribution/authorization', [P, M]],
  ['/matrix-distribution/release-plan', [P, M]],
  ['/matrix-distribution/video-data', [P, M]],
  ['/promotion/all-merchant', [A]],
  ['/promotion/merchant', [A, P]],
  ['/promotion/partner', [A, P]],
  ['/promotion/agent', [A, P]],
  ['/promotion/tree', [A, P]],
  ['/promotion/card-password', [A, P]],
  ['/protocol/article', [A, P]],
  ['/protocol/agreement', [A, P]],
  ['/user/info', '*'],
  ['/user/setting', '*'],
  ['/redirect/home%2Findex', '*'],
  ['/no/such/page', '*'], // the not-found page
];

/** Where each role lands when a route is closed to it: the first route it may open. */
const FIRST_ALLOWED: Record<'admin' | 'partner' | 'merchant' | 'agent', string> = {
  admin: '/home/index',
  partner: '/dashboard/workBench',
  merchant: '/dashboard/workBench',
  agent: '/user/info',
};

const ROLE_CASES = (['admin', 'partner', 'merchant', 'agent'] as const).flatMap((role) =>
  SPEC_ROUTES.map(([path, roles]) => {
    const open = roles === '*' || roles.includes(role);
    return [role, path, open ? allow : to(FIRST_ALLOWED[role])] as const;
  }),
);

describe('route access by role: listed or "*", else the first route the user may open', () => {
  test.each(ROLE_CASES)('%s on %s → %j', async (role, path, expected) => {
    expect((await decide({ path, auth: signedIn(role) })).decision).toEqual(expected);
  });

  test('clip routes also need the show_clip_menu flag', async () => {
    const noClip = signedIn('merchant', { showClipMenu: 0 });
    expect((await decide({ path: '/creation/clip', auth: noClip })).decision).toEqual(
      to('/dashboard/workBench'),
    );
    expect((await decide({ path: '/creation/mixedshear', auth: noClip })).decision).toEqual(
      to('/dashboard/workBench'),
    );
    expect((await decide({ path: '/creation/resource', auth: noClip })).decision).toEqual(allow);
  });
});

describe('menu from server: the route must be in the server menu or the white list', () => {
  const menu = ['workBench', 'resource', 'clip', 'userInfo'];

  test.each([
    ['/dashboard/workBench', allow],
    ['/creation/resource', allow],
    ['/creation/mixed-task', to(NOT_FOUND_PATH)],
    ['/redirect/creation%2Fclip', allow],
    ['/no/such/page', allow],
    ['/login', to('/dashboard/workBench')],
  ])('merchant on %s → %j', async (path, expected) => {
    const { decision, asked } = await decide({
      path,
      auth: signedIn('merchant'),
      menuFromServer: true,
      menu,
    });
    expect(decision).toEqual(expected);
    expect(asked.menu).toBe(1);
  });

  test('a role check comes first: a closed route still leads to the first allowed route', async () => {
    const { decision } = await decide({
      path: '/home/index',
      auth: signedIn('merchant'),
      menuFromServer: true,
      menu,
    });
    expect(decision).toEqual(to('/dashboard/workBench'));
  });

  test('a menu that failed to load lets only the white list through', async () => {
    const nav = { auth: signedIn('merchant'), menuFromServer: true, menu: 'fails' as const };
    expect((await decide({ ...nav, path: '/dashboard/workBench' })).decision).toEqual(
      to(NOT_FOUND_PATH),
    );
    expect((await decide({ ...nav, path: '/no/such/page' })).decision).toEqual(allow);
  });

  test('anonymous visitors never wait for a menu', async () => {
    const { decision, asked } = await decide({
      path: '/login',
      auth: ANONYMOUS,
      menuFromServer: true,
      menu,
    });
    expect(decision).toEqual(allow);
    expect(asked.menu).toBe(0);
  });

  test('with the setting off the menu is not asked for', async () => {
    const { asked } = await decide({ path: '/dashboard/workBench', auth: signedIn('merchant') });
    expect(asked.menu).toBe(0);
  });
});

describe('overstep login: login_type=1 plus merchant_id and no session token', () => {
  const asMerchant = signedIn('merchant', { tokenKind: 'session' });

  test('steps in for that merchant, then decides as the merchant', async () => {
    const { decision, asked } = await decide({
      path: '/dashboard/workBench?login_type=1&merchant_id=42',
      auth: signedIn('admin'),
      overstep: asMerchant,
    });
    expect(asked.overstep).toEqual([42]);
    expect(decision).toEqual(allow);
  });

  test('also from a tab without any token (the server refuses, the user goes to login)', async () => {
    const { decision, asked } = await decide({
      path: '/dashboard/workBench?login_type=1&merchant_id=42',
      auth: ANONYMOUS,
      overstep: { ...ANONYMOUS, overstepFailed: true },
    });
    expect(asked.overstep).toEqual([42]);
    expect(decision).toEqual(to('/login?redirect=%2Fdashboard%2FworkBench'));
  });

  test('a failed overstep sends to login, without the overstep query', async () => {
    const { decision } = await decide({
      path: '/dashboard/workBench?login_type=1&merchant_id=42&tab=2',
      auth: signedIn('admin'),
      overstep: 'fails',
    });
    expect(decision).toEqual(to('/login?redirect=%2Fdashboard%2FworkBench%3Ftab%3D2'));
  });

  test.each([
    ['a session token exists', '?login_type=1&merchant_id=42', 'session' as const],
    ['login_type is not 1', '?login_type=2&merchant_id=42', 'local' as const],
    ['merchant_id is missing', '?login_type=1', 'local' as const],
    ['merchant_id is not a number', '?login_type=1&merchant_id=abc', 'local' as const],
  ])('no overstep when %s', async (_, query, tokenKind) => {
    const { decision, asked } = await decide({
      path: `/dashboard/workBench${query}`,
      auth: signedIn('merchant', { tokenKind }),
      overstep: 'fails',
    });
    expect(asked.overstep).toEqual([]);
    expect(decision).toEqual(allow);
  });
});

test('a failure while waiting for the session counts as not logged in', async () => {
  const actor = createActor(
    guardMachine.provide({
      actors: {
        waitForAuth: fromPromise<AuthSummary>(async () => {
          throw new Error('gone');
        }),
      },
    }),
    { input: { pathname: '/home/index', search: '', tokenKind: 'local', menuFromServer: false } },
  ).start();
  expect(await toPromise(actor)).toEqual(to('/login?redirect=%2Fhome%2Findex'));
});
