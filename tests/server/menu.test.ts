import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MenuItem } from '../../src/api/contract/dashboard';
import { createTestApp, engines, type TestApp } from './helpers';

/**
 * What each role's server menu must be, written out from docs/domain.md §13 (not derived from the route
 * table): [section, listed?, routes], a trailing `*` marking a route that is reachable but hidden.
 */
type Section = [string, boolean, string[]];

const DEVELOPER_SECTIONS_ANY: Section[] = [
  ['user', false, ['userInfo*', 'userSetting*']],
  ['exception', false, ['exception404*', 'exception500*']],
];

const PARTNER_MERCHANT_WORK: Section[] = [
  ['dashboard', true, ['workBench', 'toCreateVideo*']],
  ['creation', true, ['resource', 'clip', 'mixedTask', 'mixedshear*']],
  [
    'digital-human',
    true,
    ['imageClone', 'soundClone', 'digitalVideo', 'createVideo*', 'myCreation*', 'videoTemplate'],
  ],
  ['matrix-distribution', true, ['authorization', 'releasePlan', 'videoData']],
];

const EXPECTED: Record<string, Section[]> = {
  admin: [
    ['home', true, ['home']],
    // The platform's video templates: the admin's one page of the section.
    ['digital-human', true, ['videoTemplate']],
    ['promotion', true, ['allMerchant*', 'merchant', 'partner', 'agent', 'tree', 'cardPassword']],
    [
      'account',
      true,
      [
        'accountSettings',
        'property',
        'voiceRecord',
        'recharge',
        'rechargeOrder',
        'systemInit',
        'auditLog',
      ],
    ],
    ['domain', true, ['domainList']],
    ['protocol', true, ['article', 'agreement']],
    ['ai-tool', true, ['aiToolIndex']],
    ['user', false, ['userInfo*', 'userSetting*']],
    ['exception', false, ['exception403*', 'exception404*', 'exception500*']],
  ],
  partner: [
    ...PARTNER_MERCHANT_WORK,
    ['promotion', true, ['merchant', 'partner', 'agent', 'tree', 'cardPassword']],
    ['account', true, ['accountSettings', 'property', 'rechargeOrder', 'auditLog']],
    ['protocol', true, ['article', 'agreement']],
    ...DEVELOPER_SECTIONS_ANY,
  ],
  merchant: [...PARTNER_MERCHANT_WORK, ['account', true, ['property']], ...DEVELOPER_SECTIONS_ANY],
  // The agent's only pages are its own: its side menu lists them.
  agent: [
    ['user', true, ['userInfo', 'userSetting']],
    ['exception', false, ['exception404*', 'exception500*']],
  ],
};

function summary(menu: MenuItem[]): Section[] {
  return menu.map((section) => [
    section.name,
    !section.hidden,
    section.children.map((route) => `${route.name}${route.hidden ? '*' : ''}`),
  ]);
}

describe.each(engines)('POST /api/user/menu on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const menuOf = async (token: string) => {
    const reply = await t.post<MenuItem[]>('/api/user/menu', undefined, token);
    expect(reply.body.code).toBe(1);
    return reply.body.data;
  };

  it.each(Object.keys(EXPECTED))(
    'lists what a %s may open, hidden entries flagged',
    async (role) => {
      const menu = await menuOf(await t.login(role));
      expect(summary(menu)).toEqual(EXPECTED[role]);
    },
  );

  it('gives sections and routes their paths, titles, icons and highlight', async () => {
    const menu = await menuOf(await t.login('merchant'));
    const creation = menu.find((s) => s.name === 'creation')!;
    expect(creation).toMatchObject({
      path: '/creation',
      titleId: 'menu.creation',
      icon: 'creation',
    });
    const mixedshear = creation.children.find((r) => r.name === 'mixedshear')!;
    expect(mixedshear).toEqual({
      name: 'mixedshear',
      path: '/creation/mixedshear',
      titleId: 'route.mixedshear',
      hidden: true,
      activeMenu: 'clip',
      children: [],
    });
    const clip = creation.children.find((r) => r.name === 'clip')!;
    expect(clip).toEqual({
      name: 'clip',
      path: '/creation/clip',
      titleId: 'route.clip',
      hidden: false,
      children: [],
    });
  });

  it('leaves the clip routes out when the user’s show_clip_menu is 0', async () => {
    await t.db
      .updateTable('users')
      .set({ show_clip_menu: 0 })
      .where('username', '=', 'merchant')
      .execute();
    const menu = await menuOf(await t.login('merchant'));
    expect(summary(menu).find(([name]) => name === 'creation')).toEqual([
      'creation',
      true,
      ['resource', 'mixedTask'],
    ]);
  });

  it('gives an overstep session the merchant’s menu', async () => {
    const admin = await t.login('admin');
    const stepped = await t.post<{ userinfo: { token: string } }>(
      '/platform/overstep_login',
      { merchant_id: (await t.user('merchant')).id },
      admin,
    );
    expect(summary(await menuOf(stepped.body.data.userinfo.token))).toEqual(EXPECTED.merchant);
  });

  it('refuses a payload', async () => {
    const reply = await t.call('POST', '/api/v1/api/user/menu', {
      token: await t.login('merchant'),
      body: { role: 'admin' },
      headers: { lang: 'en-US' },
    });
    expect(reply.body).toEqual({ code: 0, msg: 'Unknown field: role', data: null });
  });
});
