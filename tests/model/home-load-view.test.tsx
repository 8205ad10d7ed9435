/**
 * A load actor shown by a page that asks afresh each time it is built (`useLoadActor(…, { fresh:
 * true })`: the home totals and the work bench). The first build shows what the area loads (the
 * server asked once); the page built again (opened again with the tab bar off, or its tab
 * reloaded) asks again and shows the new answer. The mutation script's `load` entry runs it (the
 * rebuild's RELOAD in use-load.ts).
 */
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { DashboardData } from '../../src/api/contract/dashboard';
import { provideArea } from '../../src/app/actors/areas';
import { dashboardArea } from '../../src/app/actors/dashboard';
import { readingArea } from '../../src/app/actors/reading';
import { authMachine } from '../../src/machines/auth';
import HomePage from '../../src/views/home/home-page';
import { userFixture } from './fixtures';
import { settle, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

viewPathHooks();

const totals = (partners: number): DashboardData => ({
  partners,
  agents: 0,
  merchants: 2,
  users_today: 0,
  money: '0',
  digital_man_seconds: 0,
  voice_clone_count: 0,
  image_clone_count: 0,
});

test('the home totals, built again: the server is asked again and its new answer shown', async () => {
  const auth = createActor(
    authMachine.provide({
      actors: { getUserInfo: fromPromise(async () => userFixture({ user_type: 0 })) },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  const answers = [totals(7), totals(8)];
  let asked = 0;
  provideArea(actors, dashboardArea, {
    getDashboardData: async () => answers[Math.min(asked++, answers.length - 1)],
    getAccount: () => new Promise(() => {}),
    getDashboardSeries: () => new Promise(() => {}),
  });
  provideArea(actors, readingArea, {
    getPublishedArticles: async () => ({ list: [], total: 0 }),
  });
  const partners = () => screen.getByTestId('stat-partners').textContent;

  const first = renderAt(actors, <HomePage />, '/home/index');
  for (let i = 0; i < 4; i++) await settle();
  expect(asked).toBe(1);
  expect(partners()).toBe('7');

  first.unmount();
  renderAt(actors, <HomePage />, '/home/index');
  for (let i = 0; i < 4; i++) await settle();
  expect(asked).toBe(2);
  expect(partners()).toBe('8');
  actors.dispose();
}, 60_000);
