// @vitest-environment node
import { expect, test } from 'vitest';
import { menuFor, paletteRoutes } from '../../src/app/routes/route-table';

test.each(['admin', 'partner', 'merchant', 'agent'] as const)(
  '%s: the palette offers no hidden page and no exception page, but the user pages',
  (role) => {
    const paths = paletteRoutes({ role }).map((r) => r.path);
    for (const never of [
      '/dashboard/to-create-video',
      '/creation/mixedshear',
      '/digital-human/create-video',
      '/digital-human/my-creation',
      '/promotion/all-merchant',
      '/exception/403',
      '/exception/404',
      '/exception/500',
      '/redirect/:path',
      '*',
    ]) {
      expect(paths).not.toContain(never);
    }
    expect(paths).toEqual(expect.arrayContaining(['/user/info', '/user/setting']));
  },
);

test('the admin is offered its own pages', () => {
  expect(paletteRoutes({ role: 'admin' }).map((r) => r.path)).toEqual(
    expect.arrayContaining(['/home/index', '/domain/domainList', '/promotion/merchant']),
  );
});

test('the agent’s side menu is not empty: it lists its own pages; other roles do not list them', () => {
  const menu = (role: 'admin' | 'partner' | 'merchant' | 'agent') =>
    menuFor({ role }).map((s) => [s.group.key, s.routes.map((r) => r.path)]);
  expect(menu('agent')).toEqual([['user', ['/user/info', '/user/setting']]]);
  for (const role of ['admin', 'partner', 'merchant'] as const) {
    expect(menu(role).map(([key]) => key)).not.toContain('user');
  }
});
