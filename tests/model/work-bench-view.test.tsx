/**
 * /dashboard/workBench as a partner and as a merchant see it: their balances (digital-human time
 * in minutes and seconds), the way to create a video (/dashboard/to-create-video, linked from no
 * other page), and the counts of "my customers" for the partner only (a merchant has none).
 */
import { screen } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { dashboardArea } from '../../src/app/actors/dashboard';
import enUS from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import WorkBenchPage from '../../src/views/dashboard/work-bench-page';
import { userFixture } from './fixtures';
import { settle, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

viewPathHooks();

function signedIn(userType: 1 | 2) {
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () => userFixture({ accountId: 9, user_type: userType })),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  provideArea(actors, dashboardArea, {
    getDashboardSeries: () => new Promise(() => {}),
    getAccount: async () => ({
      money: '120.5',
      digital_man_seconds: 133,
      voice_clone_count: 2,
      image_clone_count: 3,
    }),
    getDashboardData: async () => ({
      partners: 0,
      agents: 1,
      merchants: 4,
      users_today: 0,
      money: '0',
      digital_man_seconds: 0,
      voice_clone_count: 0,
      image_clone_count: 0,
    }),
  });
  return actors;
}

async function show(userType: 1 | 2) {
  const actors = signedIn(userType);
  renderAt(actors, <WorkBenchPage />, '/dashboard/workBench');
  await vi.waitFor(() => screen.getByRole('heading', { name: enUS['workBench.balances'] }), {
    timeout: 5000,
  });
  for (let i = 0; i < 4; i++) await settle();
  return actors;
}

describe('/dashboard/workBench', () => {
  test('a partner: balances, "Create a video", and its customers', async () => {
    const actors = await show(1);
    expect(screen.getByTestId('balance-minutes').textContent).toBe('2 min 13 s');
    expect(
      screen.getByRole('link', { name: enUS['route.toCreateVideo'] }).getAttribute('href'),
    ).toBe('/dashboard/to-create-video');
    screen.getByRole('heading', { name: enUS['workBench.counts'] });
    expect(screen.getByTestId('count-merchants').textContent).toBe('4');
    areasOf(actors).reset();
    actors.dispose();
  }, 30_000);

  test('a merchant: balances and "Create a video", no customers', async () => {
    const actors = await show(2);
    screen.getByRole('link', { name: enUS['route.toCreateVideo'] });
    expect(screen.queryByRole('heading', { name: enUS['workBench.counts'] })).toBeNull();
    expect(screen.queryByTestId('count-merchants')).toBeNull();
    areasOf(actors).reset();
    actors.dispose();
  }, 30_000);
});
